import { NFT_TRANSFER_PORT } from 'weft/protocol/ics721.js';
import { deriveAccount, type KeyType } from '../keys.js';
import type { NetworkModule } from '../network/modules.js';
import type { ChainPlan } from '../network/plan.js';
import { ics721Contract } from '../vms.js';
import { type ChainRef, type ChannelPlan, type LinkApp, planChannels } from './network.js';
import { NFT_VERSION } from './nft/app.js';
import { ics721Modules } from './nft/network.js';
import { withIbc } from './setup.js';

/**
 * ICS-20 in the network: a transfer channel between the L1 and each rollup, then one between the L1 and
 * the external Cosmos chain. Ids follow from the link order (the rollups in port order, the external
 * chain last), so the chains' geneses, the relayer and the registry agree without talking.
 */

/** The bech32 prefix of a Cosmos chain of the network (the L1 and the rollups use `init`). */
export const prefixOf = (plan: ChainPlan) => (plan.role === 'external-cosmos' ? 'cosmos' : 'init');

const refOf = (plan: ChainPlan): ChainRef => ({ chainId: plan.chainId, prefix: prefixOf(plan) });

/** The port of a chain's ICS-721 app: the nft-transfer module, or a Wasm rollup's ics721 contract. */
export const nftPortOf = (plan: ChainPlan) =>
  plan.vm === 'wasm' ? `wasm.${ics721Contract(plan.chainId, prefixOf(plan))}` : NFT_TRANSFER_PORT;

/**
 * The network's channels; none without an L1 (the rollups-only devnet has no IBC). Transfer channels
 * first (the L1 to each rollup, then to the external chain), then ICS-721 channels from the L1 to the Move
 * and Wasm rollups, so the transfer channels keep their ids.
 */
export function networkChannels(network: readonly ChainPlan[]): ChannelPlan {
  const l1 = network.find((p) => p.role === 'l1');
  if (!l1) return planChannels([]);
  const others = [
    ...network.filter((p) => p.role === 'rollup'),
    ...network.filter((p) => p.role === 'external-cosmos'),
  ];
  const nft = network.filter((p) => p.role === 'rollup' && (p.vm === 'move' || p.vm === 'wasm'));
  return planChannels([
    ...others.map((other): [ChainRef, ChainRef] => [refOf(l1), refOf(other)]),
    ...nft.map((rollup): [ChainRef, ChainRef, LinkApp] => [
      refOf(l1),
      refOf(rollup),
      { ports: [NFT_TRANSFER_PORT, nftPortOf(rollup)], version: NFT_VERSION },
    ]),
  ]);
}

/**
 * The account the network's relayer signs with on a chain. Not the chain's own `relayer` key: the ICS-721
 * traffic of the Move and Wasm rollups signs with that one, and two senders would race for its sequence.
 */
export const ibcRelayerAccount = (seed: string, keyType: KeyType, prefix: string) =>
  deriveAccount({ seed, index: 20_200, keyType, prefix, name: 'ibc-relayer' });

/** Fee denom given to the relayer at genesis: enough for a long run of 400k-gas msgs at the chain's price. */
const relayerFunding = (base: { info: { minGasPrice: number } }) =>
  (BigInt(Math.ceil(base.info.minGasPrice)) * 10n ** 12n).toString();

/** Core IBC, ICS-20 under the packet-forward middleware and the transfer traffic, on every linked chain. */
export const ibcModule: NetworkModule = {
  name: 'ibc',
  appliesTo: (plan, network) => networkChannels(network).channels.has(plan.chainId),
  parts(base) {
    const channels = networkChannels(base.network).channels.get(base.plan.chainId)!;
    // The EVM rollup's bank keeps its coins as ERC20s: vouchers are minted and burned there as ERC20s too.
    const bank = base.own.bank ?? base.bank;
    const parts = withIbc(base, { modules: [], plans: [], bank }, { channels });
    const relayer = ibcRelayerAccount(base.seed, base.accounts[0]!.keyType, base.info.bech32Prefix);
    const nft = channels.some((c) => c.version === NFT_VERSION) ? base.own.ics721 : undefined;
    const nftModules = nft
      ? ics721Modules(parts.ibc.core, nftPortOf(base.plan), base, nft, base.plan.role === 'l1')
      : [];
    return {
      modules: [...parts.modules, ...nftModules],
      plans: parts.plans,
      async genesis(ctx) {
        await parts.genesis?.(ctx);
        base.auth.ensure(ctx.store, relayer.address);
        await bank.mint(ctx, relayer.address, [{ denom: base.info.denom, amount: relayerFunding(base) }]);
      },
    };
  },
};
