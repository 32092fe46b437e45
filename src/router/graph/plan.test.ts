import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AminoTypes } from '@cosmjs/stargate';
import { aminoConverters } from '@initia/amino-converter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Devnet } from '../../devnet/devnet.js';
import { testDevnet } from '../../devnet/test-support/devnet.js';
import { until } from '../../devnet/test-support/until.js';
import { NoRouteError, RouteRequestError, SwapRequiredError, UnknownAssetError } from '../errors.js';
import { chainAddress } from '../msgs/addresses.js';
import { buildMsgs } from '../msgs/build.js';
import { createChainFacts } from '../registry/facts.js';
import { loadRegistry } from '../registry/load.js';
import type { RouterRegistry } from '../registry/types.js';
import { ibcDenomOf, l2DenomOf, parseIbcPath } from './denoms.js';
import { createHopGraph, type HopGraph } from './hops.js';
import { HOP_SECONDS, planRoute, type RouteQuery } from './plan.js';

/**
 * The graph and its ranking on the registry the full devnet writes (bridge timing and OFT quotes read
 * from its nodes); the IBC cases add channels to a copy of that registry, as the network's IBC links
 * will list them: the L1's channel-0 to the external Cosmos chain, its channel-1 to the EVM rollup.
 */

const dir = mkdtempSync(join(tmpdir(), 'weft-graph-'));
let devnet: Devnet;
let registry: RouterRegistry;
let graph: HopGraph;
let facts: ReturnType<typeof createChainFacts>;
/** The OFT token's denom on the EVM chains (its address depends on the seed). */
let ODT_EVM: string;
const L1 = 'weft-l1-1';
const EVM = 'weft-evm-1';
const COSMOS = 'weft-cosmos-1';

/** The OFT token from the EVM rollup to the external EVM chain. */
const oftQuery = (amountIn: bigint) =>
  query({ sourceChainId: EVM, sourceDenom: ODT_EVM, destChainId: '31337', destDenom: ODT_EVM, amountIn });

const query = (q: Partial<RouteQuery>): RouteQuery => ({
  sourceChainId: L1,
  sourceDenom: 'uinit',
  destChainId: EVM,
  destDenom: l2DenomOf('1', 'uinit'),
  amountIn: 1000n,
  ...q,
});

beforeAll(async () => {
  devnet = await testDevnet({
    seed: 'graph',
    vms: ['evm', 'move', 'wasm'],
    network: 'full',
    accounts: 1,
    txsPerBlock: 0,
    registryDir: join(dir, 'registry'),
    settings: { opinit: { outputIntervalMs: 4_000, finalizationPeriodMs: 60_000 } },
  });
  devnet.run();
  await until('first blocks', async () => devnet.all.every((c) => c.chain.latestHeight() >= 2));
  registry = await loadRegistry(join(dir, 'registry'));
  ODT_EVM = registry.chain(EVM)!.omnichain!.denom;
  graph = createHopGraph(registry);
  facts = createChainFacts(registry);
}, 120_000);

afterAll(async () => {
  await facts?.close();
  await devnet?.close();
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

/** A copy of the devnet's registry with IBC transfer channels listed in chain.json, as a registry lists them. */
async function withIbc(): Promise<{ registry: RouterRegistry; graph: HopGraph }> {
  const copy = join(dir, 'registry-ibc');
  cpSync(join(dir, 'registry'), copy, { recursive: true });
  rmSync(join(copy, 'chains.json'));
  const channels: Record<string, Array<{ chain_id: string; channel_id: string }>> = {
    initia: [
      { chain_id: COSMOS, channel_id: 'channel-0' },
      { chain_id: EVM, channel_id: 'channel-1' },
    ],
    cosmoshub: [{ chain_id: L1, channel_id: 'channel-0' }],
    weftevm: [{ chain_id: L1, channel_id: 'channel-0' }],
  };
  for (const [name, ends] of Object.entries(channels)) {
    const path = join(copy, name, 'chain.json');
    const chain = JSON.parse(readFileSync(path, 'utf8'));
    chain.metadata.ibc_channels = ends.map((e) => ({ ...e, port_id: 'transfer', version: 'ics20-1' }));
    writeFileSync(path, JSON.stringify(chain));
  }
  // The vouchers the wallets list: INIT on the EVM rollup and on the Cosmos chain, ATOM on the L1.
  const voucher = (chainName: string, path: string, symbol: string) => {
    const file = join(copy, chainName, 'assetlist.json');
    const list = JSON.parse(readFileSync(file, 'utf8'));
    const denom = ibcDenomOf(parseIbcPath(path));
    list.assets.push({
      denom_units: [{ denom, exponent: 0 }],
      base: denom,
      display: denom,
      name: symbol,
      symbol,
      traces: [{ type: 'ibc', chain: { path } }],
    });
    writeFileSync(file, JSON.stringify(list));
    return denom;
  };
  voucher('weftevm', 'transfer/channel-0/uinit', 'INIT');
  voucher('cosmoshub', 'transfer/channel-0/uinit', 'INIT');
  voucher('initia', 'transfer/channel-0/uatom', 'ATOM');
  const ibcRegistry = await loadRegistry(copy);
  return { registry: ibcRegistry, graph: createHopGraph(ibcRegistry) };
}

describe('the registry the devnet writes', () => {
  it('lists every chain with what routing and tracking need', () => {
    const byId = Object.fromEntries(registry.chains.map((c) => [c.chainId, c]));
    expect(Object.keys(byId).sort()).toEqual(['31337', COSMOS, EVM, L1, 'weft-move-1', 'weft-wasm-1']);
    expect(byId[L1]).toMatchObject({ kind: 'cosmos', isL1: true, bech32Prefix: 'init' });
    expect(byId[COSMOS]).toMatchObject({ kind: 'cosmos', bech32Prefix: 'cosmos' });
    expect(byId['31337']).toMatchObject({ kind: 'evm', evmChainId: 31337, rest: undefined });
    expect(byId[EVM]).toMatchObject({
      kind: 'cosmos',
      minitia: 'minievm',
      opBridgeId: '1',
      opDenoms: ['uinit'],
    });
    for (const chain of registry.chains) {
      if (chain.kind === 'cosmos') expect(chain.rest).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      else expect(chain.jsonRpc).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    }
    expect(registry.chainByAnyId(String(byId[EVM]!.evmChainId))?.chainId).toBe(EVM);
  });

  it("derives each rollup's l2/ denom as the registry lists it", () => {
    for (const rollup of registry.chains.filter((c) => c.opBridgeId)) {
      const asset = registry.asset(rollup.chainId, l2DenomOf(rollup.opBridgeId!, 'uinit'));
      expect(asset).toMatchObject({ opBridgeId: rollup.opBridgeId, symbol: 'INIT' });
    }
  });
});

describe('routes over OPinit and OFT', () => {
  it('deposits into each rollup through its bridge', async () => {
    for (const [chainId, bridgeId] of [
      [EVM, '1'],
      ['weft-move-1', '2'],
      ['weft-wasm-1', '3'],
    ] as const) {
      const plan = await planRoute(
        graph,
        facts,
        query({ destChainId: chainId, destDenom: l2DenomOf(bridgeId, 'uinit') }),
      );
      expect(plan.hops.map((h) => h.hop)).toMatchObject([
        { kind: 'op_deposit', bridgeId, from: L1, to: chainId },
      ]);
      expect(plan.seconds).toBe(HOP_SECONDS.op_deposit);
      expect(plan.amountOut).toBe(1000n);
    }
    await expect(planRoute(graph, facts, query({ bridges: ['IBC', 'LAYER_ZERO'] }))).rejects.toBeInstanceOf(
      NoRouteError,
    );
    expect((await planRoute(graph, facts, query({ bridges: ['OPINIT'] }))).hops).toHaveLength(1);
  });

  it('withdraws with the wait of the bridge: finalization period plus output interval', async () => {
    const q = query({
      sourceChainId: EVM,
      sourceDenom: l2DenomOf('1', 'uinit'),
      destChainId: L1,
      destDenom: 'uinit',
    });
    const forced = await planRoute(graph, facts, { ...q, isOpWithdraw: true });
    expect(forced.hops[0]!.hop).toMatchObject({ kind: 'op_withdraw', bridgeId: '1' });
    expect(forced.seconds).toBe(60 + 4);
    // The only path, so also the route without the flag.
    expect(await planRoute(graph, facts, q)).toEqual(forced);
  });

  it('sends OFT from an EVM endpoint to its peers, dropping dust below the shared decimals', async () => {
    const plan = await planRoute(graph, facts, oftQuery(10n ** 18n + 5n));
    expect(plan.hops[0]).toMatchObject({ hop: { kind: 'oft' }, amountOut: 10n ** 18n });
    expect(plan.hops[0]!.additionalFee).toBeGreaterThan(0n);
    // To the Move L1 (6 decimals): 18 → 6.
    const move = registry.chain(L1)!.omnichain!;
    const toL1 = await planRoute(
      graph,
      facts,
      query({
        sourceChainId: EVM,
        sourceDenom: ODT_EVM,
        destChainId: L1,
        destDenom: move.denom,
        amountIn: 2n * 10n ** 18n,
      }),
    );
    expect(toL1.amountOut).toBe(2_000_000n);
    // Exact out: the input that delivers it.
    const exact = await planRoute(
      graph,
      facts,
      query({
        sourceChainId: EVM,
        sourceDenom: ODT_EVM,
        destChainId: L1,
        destDenom: move.denom,
        amountIn: undefined,
        amountOut: 3_000_000n,
      }),
    );
    expect(exact.amountIn).toBe(3n * 10n ** 18n);
  });

  it('says why there is no route', async () => {
    const move = registry.chain(L1)!.omnichain!;
    await expect(
      planRoute(graph, facts, query({ destDenom: 'umin', destChainId: 'weft-move-1' })),
    ).rejects.toBeInstanceOf(SwapRequiredError);
    await expect(planRoute(graph, facts, query({ destChainId: 'nowhere-1' }))).rejects.toBeInstanceOf(
      UnknownAssetError,
    );
    await expect(planRoute(graph, facts, query({ sourceDenom: 'ufoo' }))).rejects.toBeInstanceOf(
      UnknownAssetError,
    );
    await expect(
      planRoute(graph, facts, query({ destChainId: L1, destDenom: 'uinit' })),
    ).rejects.toBeInstanceOf(RouteRequestError);
    // OFT sends start on EVM endpoints only.
    await expect(
      planRoute(graph, facts, query({ sourceDenom: move.denom, destChainId: EVM, destDenom: ODT_EVM })),
    ).rejects.toBeInstanceOf(NoRouteError);
    await expect(planRoute(graph, facts, oftQuery(999n))).rejects.toThrow(/amount too small/);
  });
});

describe('routes over IBC', () => {
  it('winds a native denom one hop and unwinds a voucher home, then forwards it on (two hops, one MsgTransfer)', async () => {
    const ibc = await withIbc();
    const atomOnL1 = await planRoute(
      ibc.graph,
      facts,
      query({
        sourceChainId: COSMOS,
        sourceDenom: 'uatom',
        destChainId: L1,
        destDenom: ibcDenomOf(parseIbcPath('transfer/channel-0/uatom')),
      }),
    );
    expect(atomOnL1.hops.map((h) => h.hop)).toMatchObject([{ kind: 'ibc', channel: 'channel-0' }]);

    const initOnEvm = ibcDenomOf(parseIbcPath('transfer/channel-0/uinit'));
    const initOnCosmos = initOnEvm; // both chains reach the L1 through their channel-0
    const plan = await planRoute(
      ibc.graph,
      facts,
      query({ sourceChainId: EVM, sourceDenom: initOnEvm, destChainId: COSMOS, destDenom: initOnCosmos }),
    );
    expect(plan.hops.map((h) => [h.hop.from, h.hop.to, h.hop.denomOut])).toEqual([
      [EVM, L1, 'uinit'],
      [L1, COSMOS, initOnCosmos],
    ]);
    expect(plan.seconds).toBe(2 * HOP_SECONDS.ibc);
    // Equal inputs, equal plans.
    expect(
      await planRoute(
        ibc.graph,
        facts,
        query({ sourceChainId: EVM, sourceDenom: initOnEvm, destChainId: COSMOS, destDenom: initOnCosmos }),
      ),
    ).toEqual(plan);

    const addresses = new Map([
      [EVM, chainAddress(ibc.registry.chain(EVM)!, devnet.rollups[0]!.accounts[0]!.address)],
      [L1, chainAddress(ibc.registry.chain(L1)!, devnet.l1!.accounts[0]!.address)],
      [COSMOS, chainAddress(ibc.registry.chain(COSMOS)!, devnet.external.cosmos!.accounts[0]!.address)],
    ]);
    const built = await buildMsgs(ibc.registry, facts, plan.hops, (id) => addresses.get(id)!, {
      slippagePercent: 1,
      timeoutSeconds: 300,
      nowMs: 1_700_000_000_000,
    });
    const msg = (built.txs[0] as any).cosmos_tx.msgs[0];
    const decoded = new AminoTypes(aminoConverters).fromAmino({
      type: aminoConverters[msg.msg_type_url]!.aminoType,
      value: JSON.parse(msg.msg),
    });
    expect(decoded.typeUrl).toBe('/ibc.applications.transfer.v1.MsgTransfer');
    expect(decoded.value).toMatchObject({
      sourceChannel: 'channel-0',
      token: { denom: initOnEvm, amount: '1000' },
      receiver: addresses.get(L1)!.bech32,
      timeoutTimestamp: (1_700_000_000_000n + 300_000n) * 1_000_000n,
    });
    expect(JSON.parse(decoded.value.memo)).toEqual({
      forward: {
        receiver: addresses.get(COSMOS)!.bech32,
        port: 'transfer',
        channel: 'channel-0',
        timeout: '10m',
        retries: 2,
      },
    });
  });
});
