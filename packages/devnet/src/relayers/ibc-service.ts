import { localDenom, TRANSFER_PORT, TRANSFER_VERSION } from 'weft/protocol/ics20.js';
import type { NetworkChain } from '../devnet.js';
import type { PlannedLink } from '../ibc/network.js';
import { ibcRelayerAccount, networkChannels } from '../ibc/network-module.js';
import type { NetworkService } from '../network/services.js';
import { feeAsset } from '../registry/entries.js';
import type { AssetJson, RegistryContribution } from '../registry/types.js';
import { relayerPollMs } from './cadence.js';
import { registerErc20Listing } from './erc20-listing.js';
import { createIbcRelayer } from './ibc.js';

/**
 * One IBC relayer over every transfer channel of the network, as the control surface's `ibc` relayer. It
 * relays after each network step, from the blocks the step committed, and has no timer of its own: with
 * no packet pending it only looks at the new blocks. Each chain's channel ends (with the `_IBC` pair files)
 * and the vouchers of the fee denoms go to the registry, and ERC20s of an EVM rollup when `weft_listErc20`
 * asks; the links to the manifest.
 */
export const ibcService: NetworkService = {
  name: 'ibc',
  appliesTo: (chains) => networkChannels(chains.map((c) => c.plan)).links.length > 0,
  start(ctx) {
    const { links } = networkChannels(ctx.chains.map((c) => c.plan));
    const byId = new Map(ctx.chains.map((c) => [c.chain.info.chainId, c]));
    const linked = [...new Set(links.flatMap((l) => [l.a.chainId, l.b.chainId]))].map((id) => byId.get(id)!);
    const relayer = createIbcRelayer({
      chains: linked.map((c) => ({
        chain: c.chain,
        signer: ibcRelayerAccount(ctx.seed, c.accounts[0]!.keyType, c.chain.info.bech32Prefix),
      })),
      pollMs: relayerPollMs(ctx.blockTimeMs),
      logger: ctx.logger,
    });
    ctx.control.registerRelayer({
      name: 'ibc',
      description: `ICS-20 and ICS-721 packets on ${links.map((l) => `${l.a.chainId} <-> ${l.b.chainId} (${l.version})`).join(', ')}`,
      pause: () => relayer.pause(),
      resume: () => relayer.resume(),
      setDelay: (ms) => relayer.setDelay(ms),
      status: () => relayer.status(),
    });
    for (const link of links) {
      const a = byId.get(link.a.chainId)!;
      const b = byId.get(link.b.chainId)!;
      ctx.registry.contribute(linkEnd(link, link.a, link.b, a, b));
      ctx.registry.contribute(linkEnd(link, link.b, link.a, b, a));
    }
    registerErc20Listing(
      ctx,
      links.filter((l) => l.version === TRANSFER_VERSION),
    );
    return {
      async afterStep() {
        await relayer.tick();
      },
      manifest: () => ({
        relayer: 'ibc',
        links: links.map((l) => ({
          chain_1: { chain_id: l.a.chainId, channel_id: l.a.channelId, port_id: l.a.port },
          chain_2: { chain_id: l.b.chainId, channel_id: l.b.channelId, port_id: l.b.port },
          version: l.version,
        })),
      }),
      close: () => relayer.stop(),
    };
  },
};

/**
 * The registry entries of one end of a link: the channel (naming the far end, for the `_IBC` file) and
 * the voucher of the far chain's fee denom as it arrives over this channel.
 */
function linkEnd(
  link: PlannedLink,
  self: PlannedLink['a'],
  far: PlannedLink['a'],
  selfChain: NetworkChain,
  farChain: NetworkChain,
): RegistryContribution {
  const channel = {
    chain_id: far.chainId,
    port_id: self.port,
    channel_id: self.channelId,
    version: link.version,
    client_id: self.clientId,
    connection_id: self.connectionId,
    counterparty: {
      port_id: far.port,
      channel_id: far.channelId,
      client_id: far.clientId,
      connection_id: far.connectionId,
    },
  };
  // An ICS-721 channel carries no fungible voucher.
  if (link.version !== TRANSFER_VERSION)
    return { chainId: selfChain.chain.info.chainId, ibcChannels: [channel] };
  const base = farChain.chain.info.denom;
  const path = `${TRANSFER_PORT}/${self.channelId}/${base}`;
  const denom = localDenom(path);
  const native = feeAsset(base, true);
  const voucher: AssetJson = {
    ...native,
    description: `${native.name} of ${farChain.plan.prettyName} over IBC`,
    denom_units: [{ denom, exponent: 0 }, ...native.denom_units.slice(1)],
    base: denom,
    type_asset: 'ics20',
    traces: [
      {
        type: 'ibc',
        counterparty: {
          chain_name: farChain.plan.chainName,
          chain_id: far.chainId,
          base_denom: base,
          channel_id: far.channelId,
        },
        chain: { channel_id: self.channelId, path },
      },
    ],
    ibc: { source_channel: far.channelId, dst_channel: self.channelId, source_denom: base },
  };
  return {
    chainId: selfChain.chain.info.chainId,
    ibcChannels: [channel],
    assets: [voucher],
  };
}
