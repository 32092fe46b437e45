import { createPublicClient, getAddress, http, isAddress, parseAbi } from 'viem';
import { erc20Denom } from 'weft/protocol/evm-denom.js';
import { localDenom, TRANSFER_PORT } from 'weft/protocol/ics20.js';
import { ControlError } from '../control/server.js';
import type { NetworkChain } from '../devnet.js';
import type { PlannedLink } from '../ibc/network.js';
import type { NetworkContext } from '../network/services.js';
import type { AssetJson, RegistryContribution } from '../registry/types.js';

/**
 * ERC20s of the EVM rollup in the registry: a token someone made with the ERC20 factory is a bank coin
 * `evm/<contract>` that IBC moves (minievm x/evm/types/denom.go), listed on the rollup and, as its
 * voucher, on the L1, the way initia-registry lists them (hotake's and yominet's `evm/` tokens and their
 * `ibc/…` vouchers on initia).
 */

export interface Erc20Token {
  /** The contract, 0x hex in any case. */
  contract: string;
  name: string;
  symbol: string;
  decimals: number;
}

/** One end of the rollup's transfer channel with the L1. */
export interface ListingEnd {
  chainId: string;
  chainName: string;
  channelId: string;
}

const ERC20_METADATA = parseAbi([
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
]);

/** The registry entries of an ERC20 of `rollup` and of its voucher on `l1`. */
export function erc20Listing(token: Erc20Token, rollup: ListingEnd, l1: ListingEnd): RegistryContribution[] {
  const address = getAddress(token.contract);
  const denom = erc20Denom(address);
  const path = `${TRANSFER_PORT}/${l1.channelId}/${denom}`;
  const voucher = localDenom(path);
  const units = (base: string) => [
    { denom: base, exponent: 0 },
    { denom: token.symbol, exponent: token.decimals },
  ];
  const common = { display: token.symbol, name: token.name, symbol: token.symbol };
  const onRollup: AssetJson = {
    description: `${token.name}, an ERC20 of ${rollup.chainName}`,
    denom_units: units(denom),
    type_asset: 'erc20',
    address,
    base: denom,
    ...common,
  };
  const onL1: AssetJson = {
    description: `${token.name} of ${rollup.chainName} over IBC`,
    denom_units: units(voucher),
    base: voucher,
    ...common,
    type_asset: 'ics20',
    traces: [
      {
        type: 'ibc',
        counterparty: {
          chain_name: rollup.chainName,
          chain_id: rollup.chainId,
          base_denom: denom,
          channel_id: rollup.channelId,
        },
        chain: { channel_id: l1.channelId, path },
      },
    ],
    ibc: { source_channel: rollup.channelId, dst_channel: l1.channelId, source_denom: denom },
  };
  return [
    { chainId: rollup.chainId, assets: [onRollup] },
    { chainId: l1.chainId, assets: [onL1] },
  ];
}

/**
 * `weft_listErc20` of the control surface: params `[chain_id, contract]` of an ERC20 on an EVM rollup
 * linked to the L1 (made with the factory, say). Its name, symbol and decimals are read from the rollup's
 * JSON-RPC; the rollup's entry and the L1 voucher's go to the registry. Answers both denoms.
 */
export function registerErc20Listing(ctx: NetworkContext, links: readonly PlannedLink[]): void {
  const l1 = ctx.chains.find((c) => c.role === 'l1');
  const ends = (chain: NetworkChain): [ListingEnd, ListingEnd] | undefined => {
    const id = chain.chain.info.chainId;
    const link = links.find(
      (l) =>
        (l.a.chainId === id && l.b.chainId === l1?.chain.info.chainId) ||
        (l.b.chainId === id && l.a.chainId === l1?.chain.info.chainId),
    );
    if (!link || !l1) return undefined;
    const [self, far] = link.a.chainId === id ? [link.a, link.b] : [link.b, link.a];
    return [
      { chainId: id, chainName: chain.plan.chainName, channelId: self.channelId },
      { chainId: far.chainId, chainName: l1.plan.chainName, channelId: far.channelId },
    ];
  };
  ctx.control.registerMethod('weft_listErc20', async (params) => {
    const [chainId, contract] = params;
    const chain = ctx.chains.find((c) => c.chain.info.chainId === chainId);
    const jsonRpc = chain?.role === 'rollup' ? chain.urls.jsonRpc : undefined;
    const linked = chain && jsonRpc ? ends(chain) : undefined;
    if (!chain || !jsonRpc || !linked)
      throw new ControlError(-32602, 'params[0] must be the chain id of an EVM rollup linked to the L1');
    if (typeof contract !== 'string' || !isAddress(contract, { strict: false }))
      throw new ControlError(-32602, 'params[1] must be an ERC20 contract (0x and 40 hex digits)');
    const client = createPublicClient({ transport: http(jsonRpc) });
    const at = { address: contract, abi: ERC20_METADATA } as const;
    let token: Erc20Token;
    try {
      const [name, symbol, decimals] = await Promise.all([
        client.readContract({ ...at, functionName: 'name' }),
        client.readContract({ ...at, functionName: 'symbol' }),
        client.readContract({ ...at, functionName: 'decimals' }),
      ]);
      token = { contract, name, symbol, decimals };
    } catch (err) {
      throw new ControlError(-32602, `${contract} on ${chainId} is not an ERC20: ${(err as Error).message}`);
    }
    const [onRollup, onL1] = erc20Listing(token, ...linked);
    ctx.registry.contribute(onRollup!);
    ctx.registry.contribute(onL1!);
    return { denom: onRollup!.assets![0]!.base, voucher: onL1!.assets![0]!.base };
  });
}
