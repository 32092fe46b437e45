import { Comet38Client } from '@cosmjs/tendermint-rpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeAny } from 'weft/chain/registry.js';
import { silentLogger } from 'weft/common/logger.js';
import { createRollup, type Rollup } from '../rollup.js';
import { signTx } from '../tx/sign.js';
import { type NodeServers, startNodeServers } from './index.js';

let rollup: Rollup;
let servers: NodeServers;
let rpc: string;

const get = async (path: string) => {
  const res = await fetch(`${rpc}${path}`);
  return { status: res.status, text: await res.text() };
};
const getJson = async (path: string) => {
  const res = await get(path);
  return { status: res.status, body: JSON.parse(res.text) };
};
const post = async (body: unknown) => {
  const res = await fetch(`${rpc}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, body: text ? JSON.parse(text) : undefined };
};

/** A bank send signed by account `i` with its current sequence. */
function bankSend(i: number, sequence?: bigint): Uint8Array {
  const { chain, accounts } = rollup;
  const from = accounts[i]!;
  const account = chain.account(from.address)!;
  return signTx({
    msgs: [
      encodeAny('/cosmos.bank.v1beta1.MsgSend', {
        fromAddress: from.address,
        toAddress: accounts[(i + 1) % accounts.length]!.address,
        amount: [{ denom: 'umin', amount: '7' }],
      }),
    ],
    fee: { amount: [{ denom: 'umin', amount: '30000' }], gasLimit: 200_000n },
    signer: from,
    chainId: chain.info.chainId,
    accountNumber: account.accountNumber,
    sequence: sequence ?? account.sequence,
  });
}

beforeAll(async () => {
  rollup = await createRollup({
    vm: 'move',
    chainId: 'rpc-test-1',
    seed: 'comet-rpc-test',
    accounts: 6,
    blockTimeMs: 1000,
    logger: silentLogger(),
  });
  for (let i = 0; i < 5; i += 1) {
    await rollup.traffic.fill(4);
    await rollup.chain.produceBlock();
  }
  await rollup.chain.produceBlock(); // an empty block
  servers = await startNodeServers(rollup.chain, { faults: { seed: 'comet-rpc-test' } });
  rpc = servers.urls.rpc;
});

afterAll(async () => {
  await servers?.close();
});

describe('CometBFT RPC over URI', () => {
  it('answers /status with the chain id, heights as strings and the sequencer', async () => {
    const { status, body } = await getJson('/status');
    expect(status).toBe(200);
    expect(body.jsonrpc).toBe('2.0');
    expect(body.id).toBe(-1);
    const { node_info, sync_info, validator_info } = body.result;
    expect(node_info.network).toBe('rpc-test-1');
    expect(node_info.version).toMatch(/^0\.38\.\d+$/);
    expect(node_info.other.tx_index).toBe('on');
    expect(node_info.other.rpc_address).toBe(rpc.replace('http://', 'tcp://'));
    const latest = rollup.chain.getBlock(6)!;
    expect(sync_info).toEqual({
      latest_block_hash: latest.block.block_id.hash,
      latest_app_hash: latest.block.block.header.app_hash,
      latest_block_height: '6',
      latest_block_time: latest.block.block.header.time,
      earliest_block_hash: rollup.chain.getBlock(1)!.block.block_id.hash,
      earliest_app_hash: rollup.chain.getBlock(1)!.block.block.header.app_hash,
      earliest_block_height: '1',
      earliest_block_time: rollup.chain.getBlock(1)!.block.block.header.time,
      catching_up: false,
    });
    const validator = rollup.chain.validator();
    expect(validator_info).toEqual({
      address: validator.consensusAddress,
      pub_key: { type: 'tendermint/PubKeyEd25519', value: validator.pubKeyBase64 },
      voting_power: '1',
    });
  });

  it('serves /block and /block_results verbatim from the chain, and the same again from its cache', async () => {
    for (let round = 0; round < 2; round += 1) {
      const block = await get('/block?height=2');
      expect(block.status).toBe(200);
      expect(block.text).toBe(
        `{"jsonrpc":"2.0","id":-1,"result":${JSON.stringify(rollup.chain.getBlock(2)!.block)}}`,
      );
      const results = await getJson('/block_results?height=2');
      expect(results.body.result).toEqual(rollup.chain.getBlock(2)!.blockResults);
      expect(results.body.result.height).toBe('2');
    }
    const latest = await getJson('/block');
    expect(latest.body.result.block.header.height).toBe(String(rollup.chain.latestHeight()));
    const quoted = await getJson('/block?height="3"');
    expect(quoted.body.result.block.header.height).toBe('3');
    const empty = await getJson('/block_results?height=6');
    expect(empty.body.result.txs_results).toBeNull();
  });

  it('answers heights it cannot serve with CometBFT errors and HTTP 500', async () => {
    const future = await get('/block?height=1235');
    expect(future.status).toBe(500);
    expect(future.text).toBe(
      `{"jsonrpc":"2.0","id":-1,"error":{"code":-32603,"message":"Internal error","data":"height 1235 must be less than or equal to the current blockchain height ${rollup.chain.latestHeight()}"}}`,
    );
    const results = await getJson('/block_results?height=99');
    expect(results.body.error.data).toMatch(/current blockchain height \d+$/);
    const zero = await getJson('/block?height=0');
    expect(zero.body.error.data).toBe('height must be greater than 0, but got 0');
    const bad = await getJson('/block?height=abc');
    expect(bad.status).toBe(500);
    expect(bad.body.error.code).toBe(-32602);
    expect(bad.body.error.message).toBe('Invalid params');
    expect(bad.body.error.data).toMatch(/^error converting http params to arguments: /);
    expect(await get('/no_such_method')).toEqual({ status: 404, text: '404 page not found\n' });
  });

  it('answers pruned heights as a pruned node does', async () => {
    servers.setFaults({ pruneBelow: 3 });
    try {
      const block = await getJson('/block?height=2');
      expect(block.status).toBe(500);
      expect(block.body.error.data).toBe('height 2 is not available, lowest height is 3');
      const results = await getJson('/block_results?height=2');
      expect(results.body.error.data).toBe('height 2 is not available, lowest height is 3');
      const status = await getJson('/status');
      expect(status.body.result.sync_info.earliest_block_height).toBe('3');
      expect((await getJson('/block?height=3')).status).toBe(200);
    } finally {
      servers.setFaults({ pruneBelow: undefined });
    }
    expect((await getJson('/block?height=2')).status).toBe(200);
  });

  it('serves /validators, /abci_info, /blockchain, /commit and /health', async () => {
    const validators = await getJson('/validators?height=2&page=1&per_page=10');
    expect(validators.body.result).toMatchObject({ block_height: '2', count: '1', total: '1' });
    expect(validators.body.result.validators[0]).toMatchObject({ voting_power: '1', proposer_priority: '0' });
    const page2 = await getJson('/validators?page=2');
    expect(page2.body.error.data).toBe('page should be within [1, 1] range, given 2');

    const abci = await getJson('/abci_info');
    expect(abci.body.result.response).toMatchObject({
      data: 'minimove',
      last_block_height: String(rollup.chain.latestHeight()),
    });

    const chainInfo = await getJson('/blockchain?minHeight=2&maxHeight=4');
    expect(chainInfo.body.result.block_metas.map((m: any) => m.header.height)).toEqual(['4', '3', '2']);
    expect(chainInfo.body.result.block_metas[0].num_txs).toBe(String(rollup.chain.getBlock(4)!.txs.length));

    const commit = await getJson('/commit?height=2');
    expect(commit.body.result.canonical).toBe(true);
    expect(commit.body.result.signed_header.commit).toEqual(
      rollup.chain.getBlock(3)!.block.block.last_commit,
    );

    expect(await get('/health')).toEqual({ status: 200, text: '{"jsonrpc":"2.0","id":-1,"result":{}}' });
  });

  it('searches txs with the event query language, pages them and finds them by hash', async () => {
    const expected = rollup.chain.getBlock(3)!.txs;
    const search = await getJson('/tx_search?query="tx.height=3"&per_page=2&order_by="desc"');
    expect(search.body.result.total_count).toBe(String(expected.length));
    expect(search.body.result.txs[0]).toEqual({
      hash: expected[expected.length - 1]!.hash,
      height: '3',
      index: expected.length - 1,
      tx_result: expected[expected.length - 1]!.result,
      tx: expected[expected.length - 1]!.raw,
    });
    const outOfRange = await getJson('/tx_search?query="tx.height=3"&page=9');
    expect(outOfRange.body.error.data).toMatch(/^page should be within \[1, \d+\] range, given 9$/);
    const badQuery = await getJson('/tx_search?query="tx.height=="');
    expect(badQuery.body.error.message).toBe('Internal error');

    const sender = rollup.accounts[0]!.address;
    const bySender = await getJson(`/tx_search?query="message.sender='${sender}'"&per_page=100`);
    for (const tx of bySender.body.result.txs) {
      expect(JSON.stringify(tx.tx_result.events)).toContain(sender);
    }

    const one = await getJson(`/tx?hash=0x${expected[0]!.hash}`);
    expect(one.body.result).toMatchObject({ hash: expected[0]!.hash, height: '3', index: 0 });
    const missing = await getJson(`/tx?hash=0x${'AB'.repeat(32)}`);
    expect(missing.body.error.data).toBe(`tx (${'AB'.repeat(32)}) not found`);
  });
});

describe('CometBFT RPC over JSON-RPC POST', () => {
  it('echoes ids, answers errors with HTTP 200 and handles batches and notifications', async () => {
    const single = await post({ jsonrpc: '2.0', id: 'a1', method: 'block', params: { height: '2' } });
    expect(single.status).toBe(200);
    expect(single.body.id).toBe('a1');
    expect(single.body.result.block.header.height).toBe('2');

    const positional = await post({ jsonrpc: '2.0', id: 2, method: 'block', params: ['3'] });
    expect(positional.body.result.block.header.height).toBe('3');

    const batch = await post([
      { jsonrpc: '2.0', id: 1, method: 'block_results', params: { height: '2' } },
      { jsonrpc: '2.0', id: 2, method: 'no_such' },
      { jsonrpc: '2.0', method: 'status' },
      { jsonrpc: '2.0', id: 3, method: 'block', params: { height: '999' } },
    ]);
    expect(batch.status).toBe(200);
    expect(batch.body.map((r: any) => r.id)).toEqual([1, 2, 3]);
    expect(batch.body[1].error).toEqual({ code: -32601, message: 'Method not found' });
    expect(batch.body[2].error.data).toMatch(
      /^height 999 must be less than or equal to the current blockchain height/,
    );

    const lone = await post([{ jsonrpc: '2.0', id: 9, method: 'health' }]);
    expect(lone.body).toEqual({ jsonrpc: '2.0', id: 9, result: {} });

    const parse = await post('{"jsonrpc":');
    expect(parse.status).toBe(500);
    expect(parse.body.error.code).toBe(-32700);

    const badParams = await post({ jsonrpc: '2.0', id: 4, method: 'block', params: { height: 'x' } });
    expect(badParams.body.error).toMatchObject({ code: -32602, message: 'Invalid params' });
    expect(badParams.body.error.data).toMatch(/^error converting json params to arguments: /);
  });

  it('broadcasts txs: the CheckTx outcome with the uppercase hash, and the tx lands in the next block', async () => {
    const tx = bankSend(5);
    const ok = await getJson(`/broadcast_tx_sync?tx=0x${Buffer.from(tx).toString('hex')}`);
    expect(ok.body.result).toEqual({
      code: 0,
      data: '',
      log: '',
      codespace: '',
      hash: expect.stringMatching(/^[0-9A-F]{64}$/),
    });
    const stale = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'broadcast_tx_sync',
      params: { tx: Buffer.from(bankSend(5, 0n)).toString('base64') },
    });
    expect(stale.body.result).toMatchObject({ code: 32, codespace: 'sdk' });
    const block = await rollup.chain.produceBlock();
    expect(block.txs.map((t) => t.hash)).toContain(ok.body.result.hash);
  });
});

describe('@cosmjs/tendermint-rpc Comet38Client', () => {
  it('reads the node', async () => {
    const client = await Comet38Client.connect(rpc);
    try {
      const status = await client.status();
      expect(status.nodeInfo.network).toBe('rpc-test-1');
      expect(status.syncInfo.latestBlockHeight).toBe(rollup.chain.latestHeight());

      const block = await client.block(3);
      expect(block.block.header.height).toBe(3);
      expect(block.block.txs).toHaveLength(rollup.chain.getBlock(3)!.txs.length);
      const results = await client.blockResults(3);
      expect(results.results).toHaveLength(block.block.txs.length);
      expect(results.results[0]!.gasUsed).toBe(BigInt(rollup.chain.getBlock(3)!.txs[0]!.result.gas_used));

      const validators = await client.validators({ height: 3 });
      expect(validators.total).toBe(1);
      const search = await client.txSearch({ query: 'tx.height=3' });
      expect(search.totalCount).toBe(block.block.txs.length);
      const tx = await client.tx({ hash: search.txs[0]!.hash });
      expect(tx.height).toBe(3);
      const chainInfo = await client.blockchain(1, 3);
      expect(chainInfo.blockMetas).toHaveLength(3);
      const commit = await client.commit(3);
      expect(commit.header.height).toBe(3);
      const abci = await client.abciInfo();
      expect(abci.lastBlockHeight).toBe(rollup.chain.latestHeight());

      const sent = await client.broadcastTxSync({ tx: bankSend(4) });
      expect(sent.code).toBe(0);
      await expect(client.block(10_000)).rejects.toThrow(
        /must be less than or equal to the current blockchain height/,
      );
    } finally {
      client.disconnect();
    }
  });
});

describe('faults', () => {
  it('answers 503 or drops the connection at the configured rates, reproducibly for a seed', async () => {
    servers.setFaults({ errorRate: 1 });
    expect((await get('/health')).status).toBe(503);
    servers.setFaults({ errorRate: 0, dropRate: 1 });
    await expect(fetch(`${rpc}/health`)).rejects.toThrow();

    const statuses = async () => {
      servers.setFaults({ errorRate: 0.5, dropRate: 0, seed: 'replay' });
      const seen: number[] = [];
      for (let i = 0; i < 16; i += 1) seen.push((await get('/health')).status);
      return seen;
    };
    const first = await statuses();
    expect(first).toContain(503);
    expect(first).toContain(200);
    expect(await statuses()).toEqual(first);

    servers.setFaults({ errorRate: 0, delayRate: 1, delayMs: 120 });
    const start = Date.now();
    expect((await get('/health')).status).toBe(200);
    expect(Date.now() - start).toBeGreaterThanOrEqual(100);
    servers.setFaults({ delayRate: 0 });
  });
});
