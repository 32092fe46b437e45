import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Devnet, DevnetChain } from 'weft-devnet/devnet.js';
import { testDevnet } from 'weft-devnet/test-support/devnet.js';
import { FutureHeightError, NodeQueryError, PrunedHeightError } from './endpoints.js';
import { BALANCE_BATCH, createJsonRpcClient } from './json-rpc-client.js';
import { createRestClient } from './rest-client.js';

let devnet: Devnet;
let chain: DevnetChain;
const client = () => createJsonRpcClient([chain.urls.jsonRpc!], { timeoutMs: 5000 });

beforeAll(async () => {
  devnet = await testDevnet({
    seed: 'json-rpc-client',
    vms: ['evm'],
    accounts: 4,
    txsPerBlock: 10,
  });
  await devnet.fastForward(12);
  chain = devnet.chains[0]!;
});

afterAll(() => devnet.close());

describe('EVM JSON-RPC client', () => {
  it('reads the head, a block’s receipts and its callTracer traces', async () => {
    expect(await client().blockNumber()).toBe(12);
    const height = [...Array(11).keys()]
      .map((i) => i + 2)
      .find((h) => chain.chain.getBlock(h)!.evm!.traces.length)!;
    const record = chain.chain.getBlock(height)!;
    expect(await client().blockReceipts(height)).toEqual(JSON.parse(JSON.stringify(record.evm!.receipts)));
    const traces = await client().traceBlock(height);
    expect(traces).toEqual(JSON.parse(JSON.stringify(record.evm!.traces)));
    expect(traces[0]!.result?.type).toMatch(/CALL|CREATE/);
  });

  it('reads logs over a block range, filtered by topic and address', async () => {
    const receiptLogs = (from: number, to: number) =>
      [...Array(to - from + 1).keys()].flatMap((i) =>
        chain.chain.getBlock(from + i)!.evm!.receipts.flatMap((r: any) => r.logs ?? []),
      );
    const expected = JSON.parse(JSON.stringify(receiptLogs(2, 10)));
    expect(expected.length).toBeGreaterThan(1);
    expect(await client().logs({ fromBlock: 2, toBlock: 10 })).toEqual(expected);
    const first = expected[0];
    const byTopic = await client().logs({ fromBlock: 2, toBlock: 10, topics: [first.topics[0]] });
    expect(byTopic).toEqual(expected.filter((l: any) => l.topics[0] === first.topics[0]));
    const byAddress = await client().logs({ fromBlock: 2, toBlock: 10, address: first.address });
    expect(byAddress).toEqual(expected.filter((l: any) => l.address === first.address));
    const none = await client().logs({ fromBlock: 2, toBlock: 10, topics: [`0x${'ab'.repeat(32)}`] });
    expect(none).toEqual([]);
    await expect(client().logs({ fromBlock: 5, toBlock: 3 })).rejects.toBeInstanceOf(NodeQueryError);
  });

  it('says "not yet" beyond the head and refuses to trace genesis', async () => {
    await expect(client().blockReceipts(40)).rejects.toBeInstanceOf(FutureHeightError);
    await expect(client().traceBlock(40)).rejects.toBeInstanceOf(FutureHeightError);
    const genesis = await client()
      .traceBlock(1)
      .catch((e: unknown) => e);
    expect(genesis).toBeInstanceOf(NodeQueryError);
    expect((genesis as Error).message).toMatch(/genesis is not traceable/);
  });

  it('batches balanceOf at a height and agrees with the bank', async () => {
    const rest = createRestClient([chain.urls.rest], { timeoutMs: 5000 });
    const token = (await rest.contractByDenom(chain.chain.info.denom))!;
    // More holders than one batch, so the split and the order are exercised.
    const holders = [
      ...chain.accounts.map((a) => a.hexAddress),
      ...Array.from({ length: BALANCE_BATCH + 3 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}`),
    ];
    const balances = await client().balancesOf(token, holders, 8);
    expect(balances).toHaveLength(holders.length);
    for (const [i, account] of chain.accounts.entries()) {
      const bank = await rest.balances(account.address, 8);
      const amount = bank.find((c) => c.denom === chain.chain.info.denom)?.amount ?? '0';
      expect(balances[i]).toBe(BigInt(amount));
    }
    expect(balances.slice(chain.accounts.length).every((b) => b === 0n)).toBe(true);
    await expect(client().balancesOf(token, holders.slice(0, 2), 30)).rejects.toBeInstanceOf(
      FutureHeightError,
    );
  });

  it('says "pruned" for a trace whose state the node no longer keeps', async () => {
    chain.chain.prune(6);
    await expect(client().traceBlock(4)).rejects.toBeInstanceOf(PrunedHeightError);
  });
});
