import type { RpcTransactionReceipt } from 'viem';
import { decodeFunctionData, encodeFunctionData, type Hex, parseAbi, toHex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallFrameJson } from 'weft-devnet/evm/call-tracer.js';
import { type EvmDevnet, startEvmDevnet, ZERO_ADDRESS } from './evm-devnet-support.js';

/**
 * Acceptance, EVM half: the EVM rollup's `debug_traceBlockByNumber` and `debug_traceTransaction` with
 * `callTracer` answer as geth's does (its frame keys, in its order), over a mixed-traffic run whose
 * nester contract makes nested calls, DELEGATECALLs, STATICCALLs, caught inner reverts and reverting txs.
 */

const BLOCKS = 60;

let net: EvmDevnet;

beforeAll(async () => {
  net = await startEvmDevnet('evm-trace', BLOCKS);
}, 120_000);

afterAll(async () => {
  await net?.close();
});

const NESTER_ABI = parseAbi([
  'function nest(uint256 v) returns (uint256)',
  'function nestWithInnerRevert() returns (bool)',
  'function nestAndRevert()',
  'function leaf() view returns (address)',
  'function middle() view returns (address)',
  'function relay(address leaf) returns (uint256)',
  'function read() view returns (uint256)',
  'function poke(uint256 v)',
  'function boom(string reason)',
]);
/** go-ethereum's callFrame JSON keys, in the order it writes them. */
const GETH_FRAME_KEYS = [
  'from',
  'gas',
  'gasUsed',
  'to',
  'input',
  'output',
  'error',
  'revertReason',
  'calls',
  'value',
  'type',
];

interface RawTx {
  hash: Hex;
  from: Hex;
  to: Hex | null;
  input: Hex;
}

/** Every frame of a tree, depth first. */
const framesOf = (frame: CallFrameJson): CallFrameJson[] => [frame, ...(frame.calls ?? []).flatMap(framesOf)];

/**
 * geth's field set and order: a subsequence of its callFrame keys. `value` is left out where the tracer
 * got none: STATICCALLs, and minievm's root frame (its OnEnter passes a nil value).
 */
function expectGethFrame(frame: CallFrameJson, isRoot: boolean): void {
  const keys = Object.keys(frame);
  expect(keys.filter((k) => GETH_FRAME_KEYS.includes(k))).toEqual(keys);
  expect(GETH_FRAME_KEYS.filter((k) => keys.includes(k))).toEqual(keys);
  for (const key of ['from', 'gas', 'gasUsed', 'input', 'type']) expect(keys).toContain(key);
  expect(keys.includes('value')).toBe(!isRoot && frame.type !== 'STATICCALL');
  expect(BigInt(frame.gasUsed)).toBeLessThanOrEqual(BigInt(frame.gas));
  if (frame.calls) expect(frame.calls.length).toBeGreaterThan(0);
  if (frame.revertReason !== undefined) expect(frame.error).toBe('execution reverted');
}

describe('EVM rollup callTracer', () => {
  it('traces nested calls, caught inner reverts and reverting txs as geth’s callTracer', async () => {
    const { client, rpc } = net;
    const tracer = { tracer: 'callTracer' };
    const found = { nest: 0, nestWithInnerRevert: 0, nestAndRevert: 0 };
    const helpers = new Map<string, { leaf: string; middle: string }>();
    const helpersOf = async (nester: Hex) => {
      let known = helpers.get(nester);
      if (!known) {
        const read = (functionName: 'leaf' | 'middle') =>
          client.readContract({
            address: nester,
            abi: NESTER_ABI,
            functionName,
            blockNumber: BigInt(BLOCKS),
          });
        const [leaf, middle] = await Promise.all([read('leaf'), read('middle')]);
        known = { leaf: leaf.toLowerCase(), middle: middle.toLowerCase() };
        helpers.set(nester, known);
      }
      return known;
    };
    const selectors = new Map(
      (['nest', 'nestWithInnerRevert', 'nestAndRevert'] as const).map((name) => [
        encodeFunctionData({
          abi: NESTER_ABI,
          functionName: name,
          args: name === 'nest' ? [0n] : [],
        } as never).slice(0, 10),
        name,
      ]),
    );

    for (let height = 2; height <= BLOCKS; height++) {
      // Raw objects: viem cannot format minievm's stand-ins for Cosmos txs, whose chain id derives from
      // V = 0 in uint64 arithmetic and exceeds a safe integer.
      const block = await rpc<{ transactions: RawTx[] }>('eth_getBlockByNumber', [toHex(height), true]);
      const calls = block.transactions.filter((tx) => tx.to && selectors.has(tx.input.slice(0, 10)));
      if (calls.length === 0) continue;
      const traces = await rpc<Array<{ txHash: string; result: CallFrameJson }>>('debug_traceBlockByNumber', [
        toHex(height),
        tracer,
      ]);
      expect(traces.map((t) => t.txHash)).toEqual(block.transactions.map((tx) => tx.hash));
      for (const trace of traces) {
        for (const frame of framesOf(trace.result)) expectGethFrame(frame, frame === trace.result);
      }

      for (const tx of calls) {
        const name = selectors.get(tx.input.slice(0, 10))!;
        const trace = await rpc<CallFrameJson>('debug_traceTransaction', [tx.hash, tracer]);
        expect(trace).toEqual(traces.find((t) => t.txHash === tx.hash)!.result);
        const receipt = await rpc<RpcTransactionReceipt>('eth_getTransactionReceipt', [tx.hash]);
        // minievm's tracer wraps the whole Cosmos tx (ante included) in a zero-address CALL.
        expect(trace).toMatchObject({ from: ZERO_ADDRESS, to: ZERO_ADDRESS, input: '0x', type: 'CALL' });
        const sender = tx.from.toLowerCase();
        const main = trace.calls!.find((c) => c.from === sender)!;
        expect(trace.calls!.at(-1)).toBe(main);
        expect(main).toMatchObject({ type: 'CALL', to: tx.to!.toLowerCase(), input: tx.input, value: '0x0' });
        const { leaf, middle } = await helpersOf(tx.to!);
        const nester = tx.to!.toLowerCase();
        const relay = main.calls![0]!;
        expect(relay).toMatchObject({
          type: 'CALL',
          from: nester,
          to: middle,
          input: encodeFunctionData({ abi: NESTER_ABI, functionName: 'relay', args: [leaf as Hex] }),
          value: '0x0',
        });
        expect(relay.calls).toEqual([
          expect.objectContaining({
            type: 'STATICCALL',
            from: middle,
            to: leaf,
            input: encodeFunctionData({ abi: NESTER_ABI, functionName: 'read' }),
          }),
        ]);
        found[name] += 1;
        if (name === 'nest') {
          const v = decodeFunctionData({ abi: NESTER_ABI, data: tx.input }).args![0] as bigint;
          expect(receipt.status).toBe('0x1');
          expect(main.error).toBeUndefined();
          expect(main.calls!.map((c) => c.type)).toEqual(['CALL', 'DELEGATECALL']);
          // A DELEGATECALL runs the leaf's code in the nester: geth reports the nester as `from`.
          expect(main.calls![1]).toEqual({
            from: nester,
            gas: expect.stringMatching(/^0x[0-9a-f]+$/),
            gasUsed: expect.stringMatching(/^0x[0-9a-f]+$/),
            to: leaf,
            input: encodeFunctionData({ abi: NESTER_ABI, functionName: 'poke', args: [v] }),
            value: '0x0',
            type: 'DELEGATECALL',
          });
        } else if (name === 'nestWithInnerRevert') {
          expect(receipt.status).toBe('0x1');
          expect(main.error).toBeUndefined();
          expect(main.output).toBe(toHex(0n, { size: 32 }));
          expect(main.calls!.map((c) => c.type)).toEqual(['CALL', 'CALL']);
          expect(main.calls![1]).toMatchObject({
            from: nester,
            to: middle,
            input: encodeFunctionData({ abi: NESTER_ABI, functionName: 'boom', args: ['inner failure'] }),
            error: 'execution reverted',
            revertReason: 'inner failure',
          });
        } else {
          expect(receipt.status).toBe('0x0');
          expect(receipt.logs).toEqual([]);
          expect(main.calls!.length).toBe(1);
          expect(main).toMatchObject({ error: 'execution reverted', revertReason: 'nester failed' });
          expect(trace).toMatchObject({ error: 'execution reverted', revertReason: 'nester failed' });
        }
      }
    }
    expect(found.nest).toBeGreaterThan(0);
    expect(found.nestWithInnerRevert).toBeGreaterThan(0);
    expect(found.nestAndRevert).toBeGreaterThan(0);
  });
});
