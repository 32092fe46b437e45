import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AminoTypes } from '@cosmjs/stargate';
import { aminoConverters } from '@initia/amino-converter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Devnet } from 'weft-devnet/devnet.js';
import { testDevnet } from 'weft-devnet/test-support/devnet.js';
import { until } from 'weft-devnet/test-support/until.js';
import { l2Denom } from '../../protocol/opinit.js';
import { NoRouteError, RouteRequestError, SwapRequiredError, UnknownAssetError } from '../errors.js';
import { chainAddress } from '../msgs/addresses.js';
import { buildMsgs } from '../msgs/build.js';
import { createChainFacts } from '../registry/facts.js';
import { loadRegistry } from '../registry/load.js';
import type { RouterRegistry } from '../registry/types.js';
import { ibcDenomOf, parseIbcPath } from './denoms.js';
import { createHopGraph, type HopGraph } from './hops.js';
import { findPaths, HOP_SECONDS, planRoute, type RouteQuery } from './plan.js';

/**
 * The graph and its ranking on the registry the full devnet writes (bridge timing and OFT quotes read
 * from its nodes), its IBC channels and vouchers included.
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
const MOVE = 'weft-move-1';

/** The OFT token from the EVM rollup to the external EVM chain. */
const oftQuery = (amountIn: bigint) =>
  query({ sourceChainId: EVM, sourceDenom: ODT_EVM, destChainId: '31337', destDenom: ODT_EVM, amountIn });

const query = (q: Partial<RouteQuery>): RouteQuery => ({
  sourceChainId: L1,
  sourceDenom: 'uinit',
  destChainId: EVM,
  destDenom: l2Denom('1', 'uinit'),
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
      const asset = registry.asset(rollup.chainId, l2Denom(rollup.opBridgeId!, 'uinit'));
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
        query({ destChainId: chainId, destDenom: l2Denom(bridgeId, 'uinit') }),
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
      sourceDenom: l2Denom('1', 'uinit'),
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
    // The ERC20 contract names the same asset as its denom, in either case.
    const contract = registry.asset(EVM, ODT_EVM)!.tokenContract!;
    for (const spelling of [contract, contract.toLowerCase()])
      expect(graph.place(EVM, spelling)).toEqual(graph.place(EVM, ODT_EVM));
    // To the Move L1 (6 decimals): 18 → 6.
    const toMoveL1 = (amounts: Partial<RouteQuery>) =>
      query({
        sourceChainId: EVM,
        sourceDenom: ODT_EVM,
        destChainId: L1,
        destDenom: registry.chain(L1)!.omnichain!.denom,
        ...amounts,
      });
    const toL1 = await planRoute(graph, facts, toMoveL1({ amountIn: 2n * 10n ** 18n }));
    expect(toL1.amountOut).toBe(2_000_000n);
    // Exact out: the input that delivers it.
    const exact = await planRoute(graph, facts, toMoveL1({ amountIn: undefined, amountOut: 3_000_000n }));
    expect(exact.amountIn).toBe(3n * 10n ** 18n);
  });

  it('sends OFT from the Move L1 to its peers, with the fee its quote_send view gives, as one MsgExecuteJSON', async () => {
    const move = registry.chain(L1)!.omnichain!;
    expect(move.kind).toBe('move');
    const q = query({ sourceDenom: move.denom, destChainId: EVM, destDenom: ODT_EVM, amountIn: 2_500_000n });
    const plan = await planRoute(graph, facts, q);
    // 6 decimals → 18 on the EVM side; the fee is the Move module's (base + per byte of the 40-byte message).
    expect(plan.hops).toMatchObject([
      { hop: { kind: 'oft', from: L1, to: EVM, source: { kind: 'move' } }, amountOut: 25n * 10n ** 17n },
    ]);
    expect(plan.hops[0]!.additionalFee).toBe(1_400n);
    expect(plan.seconds).toBe(HOP_SECONDS.oft);
    // To the external EVM chain too, ranked like any route: every path the same, deterministic.
    const toEth = await planRoute(graph, facts, { ...q, destChainId: '31337' });
    expect(toEth.hops.map((h) => h.hop.to)).toEqual(['31337']);
    expect(await planRoute(graph, facts, q)).toEqual(plan);

    const sender = chainAddress(registry.chain(L1)!, devnet.l1!.accounts[0]!.address);
    const recipient = chainAddress(registry.chain(EVM)!, '0x00000000000000000000000000000000000000aa');
    const built = await buildMsgs(registry, facts, plan.hops, (id) => (id === L1 ? sender : recipient), {
      slippagePercent: 1,
      timeoutSeconds: 300,
      nowMs: 1_700_000_000_000,
    });
    const tx = (built.txs[0] as any).cosmos_tx;
    expect(tx).toMatchObject({ chain_id: L1, path: [L1, EVM], signer_address: sender.bech32 });
    const decoded = new AminoTypes(aminoConverters).fromAmino({
      type: aminoConverters[tx.msgs[0].msg_type_url]!.aminoType,
      value: JSON.parse(tx.msgs[0].msg),
    });
    expect(decoded).toEqual({
      typeUrl: '/initia.move.v1.MsgExecuteJSON',
      value: {
        sender: sender.bech32,
        moduleAddress: move.oft,
        moduleName: 'oft',
        functionName: 'send',
        typeArgs: [],
        args: [
          String(registry.chain(EVM)!.omnichain!.eid),
          `"0x${'00'.repeat(31)}aa"`,
          '"2500000"',
          '"2475000"',
          '"0x"',
          '"0x"',
          '"0x"',
          '"1400"',
          '"0"',
        ],
      },
    });
    expect(built.min_amount_out).toBe(String((25n * 10n ** 17n * 99n) / 100n));
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
    // The Move OFT sends only to its peers' tokens.
    await expect(
      planRoute(graph, facts, query({ sourceDenom: move.denom, destChainId: MOVE, destDenom: 'umin' })),
    ).rejects.toBeInstanceOf(SwapRequiredError);
    await expect(planRoute(graph, facts, oftQuery(999n))).rejects.toThrow(/amount too small/);
  });
});

describe('a deposit whose hook wraps what arrives', () => {
  const wrapperOf = () => registry.assets.find((a) => a.chainId === EVM && a.wraps)!;

  it("reads the wrapper's `wrapped` trace and routes L1 INIT to it as one deposit with a hook", async () => {
    const wrapper = wrapperOf();
    const l2 = l2Denom('1', 'uinit');
    expect(wrapper).toMatchObject({
      symbol: 'WINIT',
      decimals: 6,
      wraps: { chainId: EVM, denom: l2, contract: wrapper.tokenContract },
    });
    expect(wrapper.denom).toBe(`evm/${wrapper.tokenContract!.slice(2)}`);
    // A trace that names its chain by chain_name only reads the same.
    const copy = join(dir, 'by-name');
    cpSync(join(dir, 'registry'), copy, { recursive: true });
    const listFile = join(copy, 'weftevm', 'assetlist.json');
    const list = JSON.parse(readFileSync(listFile, 'utf8'));
    for (const asset of list.assets)
      for (const trace of asset.traces ?? []) delete trace.counterparty.chain_id;
    writeFileSync(listFile, JSON.stringify(list));
    const byName = await loadRegistry(copy);
    expect(byName.asset(EVM, wrapper.denom)?.wraps).toEqual(wrapper.wraps);
    // Wrapped 1:1, it is the same asset as INIT: no swap joins them.
    expect(graph.origin(graph.place(EVM, wrapper.denom)!)).toBe(graph.origin(graph.place(L1, 'uinit')!));

    const q = query({ destDenom: wrapper.denom });
    const plan = await planRoute(graph, facts, q);
    expect(plan.hops.map((h) => h.hop)).toEqual([
      {
        kind: 'op_deposit',
        from: L1,
        to: EVM,
        denomIn: 'uinit',
        denomOut: wrapper.denom,
        bridgeId: '1',
        hook: { kind: 'wrap', underlying: l2, wrapper: wrapper.tokenContract },
      },
    ]);
    // The hook runs in the deposit's finalize tx: no time added, nothing taken.
    expect([plan.amountOut, plan.seconds]).toEqual([1000n, HOP_SECONDS.op_deposit]);
    expect(await planRoute(graph, facts, q)).toEqual(plan);
    // The plain deposit stays hook-free, into the wasm rollup too (no wrapper there).
    expect((await planRoute(graph, facts, query({}))).hops[0]!.hop).not.toHaveProperty('hook');
    const wasm = await planRoute(
      graph,
      facts,
      query({ destChainId: 'weft-wasm-1', destDenom: l2Denom('3', 'uinit') }),
    );
    expect(wasm.hops[0]!.hop).not.toHaveProperty('hook');
  });

  it('offers no other way to the wrapper; out of it, the withdrawal unwraps first', async () => {
    const wrapper = wrapperOf();
    await expect(
      planRoute(graph, facts, query({ destDenom: wrapper.denom, bridges: ['IBC'] })),
    ).rejects.toBeInstanceOf(NoRouteError);
    // Wrapping on the rollup itself is the holder's own EVM call, not a route.
    await expect(
      planRoute(
        graph,
        facts,
        query({ sourceChainId: EVM, sourceDenom: l2Denom('1', 'uinit'), destDenom: wrapper.denom }),
      ),
    ).rejects.toBeInstanceOf(NoRouteError);
    // Out of it: the withdrawal unwraps first, in the same tx.
    const out = await planRoute(
      graph,
      facts,
      query({
        sourceChainId: EVM,
        sourceDenom: wrapper.denom,
        destChainId: L1,
        destDenom: 'uinit',
        amountIn: 5n,
      }),
    );
    expect(out.hops).toMatchObject([
      {
        hop: {
          kind: 'op_withdraw',
          denomIn: wrapper.denom,
          denomOut: 'uinit',
          unwrap: { kind: 'unwrap', underlying: l2Denom('1', 'uinit') },
        },
        amountIn: 5n,
        amountOut: 5n,
      },
    ]);
  });

  it("asks the rollup for the deposited coin's ERC20, which the hook approves to the wrapper", async () => {
    const address = await facts.erc20Of(EVM, l2Denom('1', 'uinit'));
    expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(address.toLowerCase()).not.toBe(wrapperOf().tokenContract!.toLowerCase());
    await expect(facts.erc20Of(EVM, 'l2/none')).rejects.toThrow();
  });
});

describe('routes over IBC', () => {
  it('winds a native denom one hop and unwinds a voucher home, then forwards it on (two hops, one MsgTransfer)', async () => {
    // The L1's channels: channel-0..2 to the rollups in order, channel-3 to the Cosmos chain; channel-0 back on each.
    const atomOnL1 = ibcDenomOf(parseIbcPath('transfer/channel-3/uatom'));
    const toL1 = await planRoute(
      graph,
      facts,
      query({ sourceChainId: COSMOS, sourceDenom: 'uatom', destChainId: L1, destDenom: atomOnL1 }),
    );
    expect(toL1.hops.map((h) => h.hop)).toMatchObject([
      { kind: 'ibc', channel: 'channel-0', counterpartyChannel: 'channel-3' },
    ]);
    expect(toL1.seconds).toBe(HOP_SECONDS.ibc);

    const initVoucher = ibcDenomOf(parseIbcPath('transfer/channel-0/uinit'));
    const twoHops = query({
      sourceChainId: MOVE,
      sourceDenom: initVoucher,
      destChainId: COSMOS,
      destDenom: initVoucher,
    });
    const plan = await planRoute(graph, facts, twoHops);
    expect(plan.hops.map((h) => [h.hop.from, h.hop.to, h.hop.denomOut])).toEqual([
      [MOVE, L1, 'uinit'],
      [L1, COSMOS, initVoucher],
    ]);
    expect(plan.seconds).toBe(2 * HOP_SECONDS.ibc);
    // Equal inputs, equal plans.
    expect(await planRoute(graph, facts, twoHops)).toEqual(plan);
    // A voucher does not wind on through another chain: the rollup's MIN on the L1 goes no further.
    const minOnL1 = graph.place(L1, ibcDenomOf(parseIbcPath('transfer/channel-1/umin')))!;
    const woundPath = parseIbcPath('transfer/channel-0/transfer/channel-1/umin');
    expect(
      findPaths(graph, minOnL1, { chainId: COSMOS, denom: ibcDenomOf(woundPath), trace: woundPath }),
    ).toEqual([]);
    expect(findPaths(graph, minOnL1, graph.place(MOVE, 'umin')!)).toHaveLength(1);

    const addresses = new Map([
      [MOVE, chainAddress(registry.chain(MOVE)!, devnet.rollups[1]!.accounts[0]!.address)],
      [L1, chainAddress(registry.chain(L1)!, devnet.l1!.accounts[0]!.address)],
      [COSMOS, chainAddress(registry.chain(COSMOS)!, devnet.external.cosmos!.accounts[0]!.address)],
    ]);
    const built = await buildMsgs(registry, facts, plan.hops, (id) => addresses.get(id)!, {
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
      token: { denom: initVoucher, amount: '1000' },
      receiver: addresses.get(L1)!.bech32,
    });
    // The timeout counts from the first hop's destination (the L1) block time, not the wall clock.
    const l1Time = Date.parse(
      String(devnet.l1!.chain.getBlock(devnet.l1!.chain.latestHeight())!.block.block.header.time),
    );
    const timeoutMs = Number(decoded.value.timeoutTimestamp / 1_000_000n) - 300_000;
    expect(timeoutMs).toBeGreaterThan(l1Time - 2_000);
    expect(timeoutMs).toBeLessThan(l1Time + 2_000);
    expect(JSON.parse(decoded.value.memo)).toEqual({
      forward: {
        receiver: addresses.get(COSMOS)!.bech32,
        port: 'transfer',
        channel: 'channel-3',
        timeout: '10m',
        retries: 2,
      },
    });
  });
});
