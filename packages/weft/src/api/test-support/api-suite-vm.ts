import { expect, it } from 'vitest';
import type { SuiteReads } from './api-suite.js';

/**
 * The API suite's VM-specific reads: on an EVM rollup its EVM txs, internal txs and rich list; on the
 * other VMs, the JSON 404 those routes answer with.
 */
export function describeVmReads(reads: SuiteReads): void {
  if (reads.vm === 'evm') describeEvm(reads);
  else describeOtherVm(reads);
}

function describeEvm(reads: SuiteReads): void {
  it('lists EVM txs, by account, height and hash', async () => {
    const { chain, client, walkAll } = reads;
    const head = chain.chain.latestHeight();
    const expected: string[] = [];
    for (let h = head; h >= 1; h -= 1) {
      expected.push(
        ...(chain.chain.getBlock(h)!.evm?.receipts ?? []).map((r) => String(r.transactionHash)).reverse(),
      );
    }
    const txs = await walkAll('/indexer/tx/v1/evm-txs', {}, {}, 'txs', (t) => t.transactionHash);
    expect(txs.map((t) => t.transactionHash)).toEqual(expected);
    for (const tx of txs.slice(0, 4)) {
      const one = await client.get('/indexer/tx/v1/evm-txs/{tx_hash}', {
        tx_hash: tx.transactionHash.toUpperCase().replace('0X', ''),
      });
      expect(one.body.tx).toEqual(tx);
      const { body } = await client.get(
        '/indexer/tx/v1/evm-txs/by_height/{height}',
        { height: Number(tx.blockNumber) },
        { 'pagination.limit': 1000 },
      );
      expect(body.txs.map((t: any) => t.transactionHash)).toContain(tx.transactionHash);
    }
    for (const account of chain.accounts) {
      const touching = await walkAll(
        '/indexer/tx/v1/evm-txs/by_account/{account}',
        { account: account.hexAddress },
        {},
        'txs',
        (t) => t.transactionHash,
      );
      const sent = await walkAll(
        '/indexer/tx/v1/evm-txs/by_account/{account}',
        { account: account.address },
        { is_signer: 'True' },
        'txs',
        (t) => t.transactionHash,
      );
      expect(sent.map((t) => t.transactionHash)).toEqual(
        txs.filter((t) => t.from === account.hexAddress).map((t) => t.transactionHash),
      );
      expect(sent.every((t) => touching.some((u) => u.transactionHash === t.transactionHash))).toBe(true);
    }
  });

  it('lists internal txs, by account, height and tx', async () => {
    const { chain, client, walkAll } = reads;
    const calls = await walkAll(
      '/indexer/tx/v1/evm-internal-txs',
      {},
      {},
      'internal_txs',
      (c) => `${c.hash}:${c.index}`,
    );
    expect(calls.length).toBeGreaterThan(0);
    const traced = chain.chain
      .getBlock(calls[0].height)!
      .evm!.traces.find((t) => t.txHash === calls[0].hash)!;
    expect(traced.result).toBeDefined();
    const tops = calls.filter((c) => c.parent_index === -1);
    expect(tops.every((c) => c.index === 0 && c.output === '0x')).toBe(true);
    for (const top of tops.slice(0, 3)) {
      const ofTx = await walkAll(
        '/indexer/tx/v1/evm-internal-txs/{tx_hash}',
        { tx_hash: top.hash },
        {},
        'internal_txs',
        (c) => String(c.index),
      );
      expect(ofTx.map((c) => c.index)).toEqual(calls.filter((c) => c.hash === top.hash).map((c) => c.index));
      const atHeight = await walkAll(
        '/indexer/tx/v1/evm-internal-txs/by_height/{height}',
        { height: top.height },
        {},
        'internal_txs',
        (c) => `${c.hash}:${c.index}`,
      );
      expect(atHeight).toEqual(calls.filter((c) => c.height === top.height));
    }
    for (const account of chain.accounts) {
      const mine = await walkAll(
        '/indexer/tx/v1/evm-internal-txs/by_account/{account}',
        { account: account.hexAddress },
        {},
        'internal_txs',
        (c) => `${c.hash}:${c.index}`,
      );
      expect(mine).toEqual(calls.filter((c) => c.from === account.hexAddress || c.to === account.hexAddress));
    }
    await client.get(
      '/indexer/tx/v1/evm-internal-txs/{tx_hash}',
      { tx_hash: `0x${'ab'.repeat(32)}` },
      {},
      404,
    );
  });

  it('ranks token holders by balance, by bank denom or contract', async () => {
    const { chain, db, client, walkAll } = reads;
    const denom = chain.chain.info.denom;
    const holders = await walkAll('/indexer/richlist/v1/{denom}', { denom }, {}, 'holders', (h) => h.account);
    expect(holders.length).toBeGreaterThan(1);
    const amounts = holders.map((h) => BigInt(h.amount));
    expect(amounts.every((a, i) => i === 0 || a <= amounts[i - 1]!)).toBe(true);
    const [row] = await db.query<{ name: string }>(
      'SELECT d.name FROM denom d ORDER BY d.holders DESC, d.id LIMIT 1',
    );
    const byContract = await client.get(
      '/indexer/richlist/v1/{denom}',
      { denom: row!.name.toUpperCase().replace('0X', '0x') },
      { 'pagination.limit': 1000 },
    );
    expect(byContract.body.holders.length).toBeGreaterThan(0);
    await client.get('/indexer/richlist/v1/{denom}', { denom: 'ibc/NOPE' }, {}, 404);
  });
}

function describeOtherVm(reads: SuiteReads): void {
  it('answers EVM routes and the rich list with a JSON 404 that says why', async () => {
    const { client, vm } = reads;
    for (const url of [
      '/indexer/tx/v1/evm-txs',
      `/indexer/tx/v1/evm-txs/0x${'ab'.repeat(32)}`,
      '/indexer/tx/v1/evm-internal-txs/by_height/1',
    ]) {
      const answer = await client.raw(url);
      expect(answer.status).toBe(404);
      expect(answer.body.message).toBe('evm routes are not available on this chain');
    }
    const rich = await client.raw('/indexer/richlist/v1/umin');
    expect(rich.status).toBe(404);
    expect(rich.body.message).toContain(`this chain is ${vm}`);
    expect(client.paths().some((p) => p.includes('/evm-') || p.includes('richlist'))).toBe(false);
  });
}
