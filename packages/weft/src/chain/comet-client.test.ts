import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Devnet } from 'weft-devnet/devnet.js';
import { testDevnet } from 'weft-devnet/test-support/devnet.js';
import { createCometClient } from './comet-client.js';
import { FutureHeightError, NodeQueryError, NodeUnavailableError, PrunedHeightError } from './endpoints.js';

let devnet: Devnet;

beforeAll(async () => {
  devnet = await testDevnet({
    seed: 'comet-client',
    vms: ['move'],
    accounts: 3,
    txsPerBlock: 3,
  });
  await devnet.fastForward(6);
});

afterAll(() => devnet.close());

describe('CometBFT client', () => {
  it('reads the status, a block and its results as the node serves them', async () => {
    const { chain, urls } = devnet.chains[0]!;
    const client = createCometClient([urls.rpc], { timeoutMs: 5000 });
    const status = await client.status();
    expect(status).toEqual({ chainId: 'weft-move-1', latestHeight: 6, earliestHeight: 1, catchingUp: false });

    const block = await client.block(4);
    const record = chain.getBlock(4)!;
    expect(block.block_id.hash).toBe(record.block.block_id.hash);
    expect(block.block.header.height).toBe('4');
    expect(block.block.data.txs).toEqual(record.txs.map((t) => t.raw));
    const results = await client.blockResults(4);
    expect(results).toEqual(JSON.parse(JSON.stringify(record.blockResults)));
  });

  it('searches txs by event query, page by page, as the node indexed them', async () => {
    const { chain, urls } = devnet.chains[0]!;
    const client = createCometClient([urls.rpc], { timeoutMs: 5000 });
    const expected = chain.getBlock(5)!.txs;
    expect(expected.length).toBeGreaterThan(1);
    const all = await client.txSearch('tx.height=5', { perPage: 100 });
    expect(all.totalCount).toBe(expected.length);
    expect(all.txs.map((t) => [t.hash, t.height, t.index])).toEqual(expected.map((t, i) => [t.hash, 5, i]));
    expect(all.txs[0]!.txResult).toEqual(JSON.parse(JSON.stringify(expected[0]!.result)));

    const last = await client.txSearch('tx.height=5', { perPage: 1, page: 2, orderBy: 'desc' });
    expect(last.txs.map((t) => t.hash)).toEqual([expected.at(-2)!.hash]);

    // An attribute query, quoted as CometBFT wants it, finds the txs whose events hold the value.
    const sender = devnet.chains[0]!.accounts[0]!.address;
    const bySender = await client.txSearch(`message.sender='${sender}' AND tx.height<=6`, { perPage: 100 });
    const senderTxs = [1, 2, 3, 4, 5, 6].flatMap((h) =>
      chain
        .getBlock(h)!
        .txs.filter((t) =>
          t.result.events.some(
            (e) =>
              e.type === 'message' && e.attributes?.some((a) => a.key === 'sender' && a.value === sender),
          ),
        ),
    );
    expect(senderTxs.length).toBeGreaterThan(0);
    expect(bySender.txs.map((t) => t.hash).sort()).toEqual(senderTxs.map((t) => t.hash).sort());

    expect((await client.txSearch("recv_packet.packet_sequence='999999'")).txs).toEqual([]);
    await expect(client.txSearch('tx.height==')).rejects.toBeInstanceOf(NodeQueryError);
  });

  it('says "not yet" for a height beyond the head, with the head', async () => {
    const client = createCometClient([devnet.chains[0]!.urls.rpc], { timeoutMs: 5000 });
    const err = await client.block(50).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FutureHeightError);
    expect((err as FutureHeightError).latest).toBe(6);
    await expect(client.blockResults(51)).rejects.toBeInstanceOf(FutureHeightError);
  });

  it('retries nothing itself but reports injected 5xx as node trouble', async () => {
    const { urls, servers } = devnet.chains[0]!;
    const client = createCometClient([urls.rpc], { timeoutMs: 5000 });
    servers.setFaults({ errorRate: 1 });
    try {
      await expect(client.block(2)).rejects.toBeInstanceOf(NodeUnavailableError);
    } finally {
      servers.setFaults({ errorRate: 0 });
    }
    await expect(client.block(2)).resolves.toBeDefined();
  });

  it('says "pruned", with the lowest height, for a height the node no longer keeps', async () => {
    const { chain, urls } = devnet.chains[0]!;
    chain.prune(4);
    const client = createCometClient([urls.rpc], { timeoutMs: 5000 });
    const err = await client.block(2).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PrunedHeightError);
    expect((err as PrunedHeightError).lowest).toBe(4);
    expect((err as PrunedHeightError).retryable).toBe(false);
    expect((await client.status()).earliestHeight).toBe(4);
  });
});
