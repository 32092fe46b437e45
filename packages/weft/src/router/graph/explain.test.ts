import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../../common/errors.js';
import { l2Denom } from '../../protocol/opinit.js';
import { NoRouteError, SwapRequiredError, UnknownAssetError } from '../errors.js';
import { buildRegistry } from '../registry/load.js';
import { ibcDenomOf, parseIbcPath } from './denoms.js';
import { createHopGraph } from './hops.js';
import { ASSUMED_WITHDRAWAL_SECONDS, type ChainFacts, planRoute, type RouteQuery } from './plan.js';

/**
 * What the router answers for the registry's harder entries, on a registry of the real registry's
 * shapes: an L1, an EVM rollup whose INIT is minievm's ERC20Wrapper ("Decimal Wrapper", 6 → 18
 * decimals), a Move rollup, a retired rollup known only by its profile, a liquid-staked INIT and a
 * voucher listed without a trace.
 */

const L1 = 'l1-1';
const EVM = 'evm-1';
const MOVE = 'move-1';
const GONE = 'gone-1';
const WRAPPER = '0xB24905344757Bf9CE80442fE1245A9019ee2d749';
const ERC20 = '0xdf5A85F89731fEB77d7EEaaCe627EB135eDB46DB';

const channel = (chain_id: string, channel_id: string) => ({
  chain_id,
  port_id: 'transfer',
  channel_id,
  version: 'ics20-1',
});
const chain = (chain_id: string, chain_name: string, metadata: object) => ({
  source: `${chain_name}/chain.json`,
  json: { chain_id, chain_name, bech32_prefix: 'init', network_type: 'mainnet', metadata },
});
const asset = (base: string, symbol: string, decimals: number, extra: object = {}) => ({
  base,
  symbol,
  display: symbol,
  denom_units: [
    { denom: base, exponent: 0 },
    { denom: symbol, exponent: decimals },
  ],
  ...extra,
});
const list = (chainName: string, ...assets: object[]) => ({
  source: `${chainName}/assetlist.json`,
  json: { assets },
});
const op = (bridge: string) => ({
  type: 'op',
  counterparty: { chain_name: 'initia', chain_id: L1, base_denom: 'uinit' },
  chain: { bridge_id: bridge },
});

const goneL2 = l2Denom('29', 'uinit');
const goneVoucherPath = `transfer/channel-9/${goneL2}`;
const GONE_VOUCHER = ibcDenomOf(parseIbcPath(goneVoucherPath));
const UNTRACED = `ibc/${'AB'.repeat(32)}`;

const registry = buildRegistry({
  chains: [
    {
      ...chain(L1, 'initia', {
        is_l1: true,
        ibc_channels: [channel(EVM, 'channel-0'), channel(MOVE, 'channel-1'), channel(GONE, 'channel-9')],
      }),
      assetList: list(
        'initia',
        asset('uinit', 'INIT', 6),
        asset('move/5151', 'sINIT', 6, {
          traces: [
            {
              type: 'liquid-stake',
              counterparty: { chain_name: 'initia', chain_id: L1, base_denom: 'uinit' },
              provider: 'Staking',
            },
          ],
        }),
        asset(GONE_VOUCHER, 'INIT.gone', 6, {
          traces: [
            op('29'),
            {
              type: 'ibc',
              counterparty: {
                chain_name: 'gone',
                chain_id: GONE,
                base_denom: goneL2,
                channel_id: 'channel-0',
              },
              chain: { channel_id: 'channel-9', path: goneVoucherPath },
            },
          ],
        }),
        asset(UNTRACED, 'minimoveINIT', 6),
      ),
    },
    {
      ...chain(EVM, 'evm', {
        op_bridge_id: '7',
        op_denoms: ['uinit'],
        minitia: { type: 'minievm' },
        ibc_channels: [channel(L1, 'channel-0')],
      }),
      assetList: list(
        'evm',
        asset(`evm/${ERC20.slice(2)}`, 'INIT', 18, {
          address: ERC20,
          traces: [
            op('7'),
            {
              type: 'wrapped',
              counterparty: { chain_name: 'evm', chain_id: EVM, base_denom: l2Denom('7', 'uinit') },
              chain: { contract: WRAPPER },
              provider: 'Decimal Wrapper',
            },
          ],
        }),
      ),
    },
    {
      ...chain(MOVE, 'move', {
        op_bridge_id: '8',
        op_denoms: ['uinit'],
        ibc_channels: [channel(L1, 'channel-0')],
      }),
      assetList: list('move', asset(l2Denom('8', 'uinit'), 'INIT', 6, { traces: [op('8')] })),
    },
  ],
  ibcFiles: [],
  profiles: [
    {
      source: 'profiles/gone.json',
      json: { name: 'gone', pretty_name: 'Gone', chain_id: GONE, status: 'hidden', op_bridge_id: '29' },
    },
  ],
});
const graph = createHopGraph(registry);

/** Node facts whose L1 does not answer (a dead port): withdrawals fall back to the assumed timing. */
const facts: ChainFacts = {
  withdrawalSeconds: () => Promise.reject(new UpstreamError('connect ECONNREFUSED')),
  omnichainFee: () => Promise.reject(new Error('no OFT here')),
  chainTimeMs: async () => undefined,
  erc20Of: () => Promise.reject(new Error('not asked')),
  erc20Allowance: () => Promise.reject(new Error('not asked')),
};

const route = (q: Partial<RouteQuery>) =>
  planRoute(graph, facts, {
    sourceChainId: L1,
    sourceDenom: 'uinit',
    destChainId: MOVE,
    destDenom: l2Denom('8', 'uinit'),
    amountIn: 1_000_000n,
    ...q,
  });

describe('routes on the real registry’s shapes', () => {
  it("deposits into a Decimal Wrapper token with a toLocal hook, its amount in the token's 18 decimals", async () => {
    const plan = await route({ destChainId: EVM, destDenom: `evm/${ERC20.slice(2)}` });
    expect(plan.hops.map((h) => h.hop)).toMatchObject([
      {
        kind: 'op_deposit',
        bridgeId: '7',
        hook: {
          kind: 'to_local',
          underlying: l2Denom('7', 'uinit'),
          wrapper: WRAPPER,
          remoteDecimals: 6,
          localDecimals: 18,
        },
      },
    ]);
    expect(plan.amountOut).toBe(10n ** 18n);
    const back = await route({
      destChainId: EVM,
      destDenom: `evm/${ERC20.slice(2)}`,
      amountIn: undefined,
      amountOut: 10n ** 18n,
    });
    expect(back.amountIn).toBe(1_000_000n);
    await expect(
      route({
        destChainId: EVM,
        destDenom: `evm/${ERC20.slice(2)}`,
        amountIn: undefined,
        amountOut: 10n ** 12n + 1n,
      }),
    ).rejects.toThrow(/multiple of 1000000000000 \(the Decimal Wrapper turns 6 decimals into 18\)/);
  });

  it('estimates a withdrawal the L1 does not time with the assumed 168 h, marked so', async () => {
    const plan = await route({
      sourceChainId: MOVE,
      sourceDenom: l2Denom('8', 'uinit'),
      destChainId: L1,
      destDenom: 'uinit',
    });
    expect(plan.hops).toMatchObject([
      { hop: { kind: 'op_withdraw' }, seconds: ASSUMED_WITHDRAWAL_SECONDS, assumedSeconds: true },
    ]);
  });

  it('says a way of two transactions takes two, and where to send first', async () => {
    const answer = route({
      sourceChainId: MOVE,
      sourceDenom: l2Denom('8', 'uinit'),
      destChainId: EVM,
      destDenom: `evm/${ERC20.slice(2)}`,
    });
    await expect(answer).rejects.toBeInstanceOf(NoRouteError);
    await expect(answer).rejects.toThrow(
      /: it takes 2 transactions \(an OPinit withdrawal to l1-1, then an OPinit deposit into evm-1\) and a route is one: route it to uinit on l1-1 first$/,
    );
  });

  it('says a voucher came through a retired chain the registry keeps only a profile of', async () => {
    const answer = route({ sourceDenom: GONE_VOUCHER });
    await expect(answer).rejects.toBeInstanceOf(NoRouteError);
    await expect(answer).rejects.toThrow(
      `${GONE_VOUCHER} on l1-1 came through gone-1 (Gone, retired: the registry keeps only its profile), which the registry does not list`,
    );
    await expect(route({ destChainId: GONE })).rejects.toThrow(
      new UnknownAssetError(
        'chain gone-1 (Gone) is not supported: the registry keeps only its profile (status hidden), not its chain.json',
      ),
    );
  });

  it("withdraws out of a Decimal Wrapper token with toRemoteAndOPWithdraw, its amount back in the coin's 6 decimals", async () => {
    const plan = await route({
      sourceChainId: EVM,
      sourceDenom: `evm/${ERC20.slice(2)}`,
      destChainId: L1,
      destDenom: 'uinit',
      amountIn: 2_500_000_000_000_123n,
    });
    expect(plan.hops).toMatchObject([
      {
        hop: {
          kind: 'op_withdraw',
          denomOut: 'uinit',
          unwrap: {
            kind: 'to_remote',
            wrapper: '0xB24905344757Bf9CE80442fE1245A9019ee2d749',
            token: ERC20,
            localDecimals: 18,
            remoteDecimals: 6,
          },
        },
        // The wrapper drops the dust below the coin's decimals.
        amountIn: 2_500_000_000_000_123n,
        amountOut: 2_500n,
      },
    ]);
    // Into a rollup from the wrapper: a withdrawal, then a deposit: two transactions.
    await expect(route({ sourceChainId: EVM, sourceDenom: `evm/${ERC20.slice(2)}` })).rejects.toThrow(
      /it takes 2 transactions \(an OPinit withdrawal to l1-1, then an OPinit deposit into/,
    );
  });

  it('says a liquid-staked token is another asset than what it stakes, by the trace kind', async () => {
    const answer = route({ sourceDenom: 'move/5151' });
    await expect(answer).rejects.toBeInstanceOf(SwapRequiredError);
    await expect(answer).rejects.toThrow(
      'move/5151 on l1-1 is a liquid-stake form of uinit on l1-1 (Staking), not that token: routes follow only IBC, OPinit and wrapped tokens',
    );
  });

  it('says a voucher listed without a trace cannot be placed, instead of "unknown"', async () => {
    await expect(route({ sourceDenom: UNTRACED })).rejects.toThrow(
      new NoRouteError(
        `${UNTRACED} (minimoveINIT) on l1-1 has no route: the registry lists it without an ibc trace whose chain.path hashes to it, so where it comes from is unknown`,
      ),
    );
    await expect(route({ sourceDenom: 'ibc/0000' })).rejects.toThrow(
      new UnknownAssetError('unknown denom ibc/0000 on chain l1-1'),
    );
  });
});
