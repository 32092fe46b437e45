import {
  type Abi,
  createPublicClient,
  createWalletClient,
  defineChain,
  encodeFunctionData,
  http,
  type PublicClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlockRecord } from '../node.js';
import { createEvmTestbed, type EvmTestbed } from '../test-support/evm-testbed.js';
import { type NodeServers, startNodeServers } from './index.js';

let tb: EvmTestbed;
let servers: NodeServers;
let url: string;
let client: PublicClient;
let nester: `0x${string}`;
let ethTxHash: string;
let deployBlock: BlockRecord;
let callBlock: BlockRecord;

const nesterAbi = () => tb.evm.artifacts.Nester.abi as Abi;

async function rpc(method: string, params: unknown[] = []) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { result?: any; error?: { code: number; message: string; data?: string } };
}

async function raw(body: string, contentType = 'application/json') {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': contentType }, body });
  return { status: res.status, text: await res.text() };
}

beforeAll(async () => {
  tb = await createEvmTestbed({ accounts: 4, seed: 'json-rpc-test' });
  const [alice, bob] = tb.accounts as [EvmTestbed['accounts'][0], EvmTestbed['accounts'][0]];
  await tb.produce(); // height 1: nothing to trace there
  expect((await tb.sendCosmos(alice, [tb.createMsg(alice, 'Nester')], 3_000_000n)).code).toBe(0);
  deployBlock = await tb.produce();
  const created = deployBlock.txs[0]!.result.events.find((e) => e.type === 'create')!;
  nester = created.attributes!.find((a) => a.key === 'contract')!.value as `0x${string}`;
  const sent = await tb.sendEth(bob, {
    to: nester,
    data: encodeFunctionData({ abi: nesterAbi(), functionName: 'nest', args: [7n] }),
  });
  ethTxHash = sent.hash;
  await tb.sendCosmos(alice, [tb.callMsg(alice, nester, 'Nester', 'nestWithInnerRevert')]);
  callBlock = await tb.produce();
  servers = await startNodeServers(tb.chain, {});
  url = servers.urls.jsonRpc!;
  client = createPublicClient({ transport: http(url) });
});

afterAll(async () => {
  await servers?.close();
});

describe('EVM JSON-RPC: chain and blocks', () => {
  it('states the chain and its head', async () => {
    expect((await rpc('eth_chainId')).result).toBe(`0x${tb.evm.evmChainId.toString(16)}`);
    expect(await client.getChainId()).toBe(Number(tb.evm.evmChainId));
    expect((await rpc('net_version')).result).toBe('1');
    expect((await rpc('web3_clientVersion')).result).toMatch(/^0\.38\./);
    expect(await client.getBlockNumber()).toBe(3n);
  });

  it('serves blocks by number, tag and hash, with hashes or full txs, and null past the head', async () => {
    const evm = callBlock.evm!;
    const text = await raw(
      JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'eth_getBlockByNumber', params: ['0x3', false] }),
    );
    expect(text.text).toBe(`{"jsonrpc":"2.0","id":7,"result":${JSON.stringify(evm.block)}}`);
    const full = await rpc('eth_getBlockByNumber', ['latest', true]);
    expect(full.result.transactions).toEqual(evm.transactions);
    expect((await rpc('eth_getBlockByHash', [evm.block.hash, false])).result).toEqual(evm.block);
    expect((await rpc('eth_getBlockByNumber', ['0x63', false])).result).toBeNull();
    expect((await rpc('eth_getBlockByHash', [`0x${'11'.repeat(32)}`, false])).result).toBeNull();
    expect((await rpc('eth_getBlockTransactionCountByNumber', ['0x3'])).result).toBe(
      `0x${evm.transactions.length.toString(16)}`,
    );

    // Not with includeTransactions: viem rejects the chainId minievm gives the fake txs of Cosmos txs.
    const block = await client.getBlock({ blockNumber: 3n });
    expect(block.hash).toBe(evm.block.hash);
    expect(block.transactions).toContain(ethTxHash);
    await expect(client.getBlock({ blockNumber: 99n })).rejects.toThrow(/could not be found/);
  });

  it('serves receipts and txs, by block and by hash', async () => {
    const evm = callBlock.evm!;
    expect((await rpc('eth_getBlockReceipts', ['0x3'])).result).toEqual(evm.receipts);
    expect((await rpc('eth_getBlockReceipts', [{ blockHash: evm.block.hash }])).result).toEqual(evm.receipts);
    expect((await rpc('eth_getBlockReceipts', ['0x63'])).result).toBeNull();
    const receipt = evm.receipts.find((r) => r.transactionHash === ethTxHash);
    expect((await rpc('eth_getTransactionReceipt', [ethTxHash])).result).toEqual(receipt);
    expect((await rpc('eth_getTransactionReceipt', [`0x${'22'.repeat(32)}`])).result).toBeNull();

    const viemReceipt = await client.getTransactionReceipt({ hash: ethTxHash as `0x${string}` });
    expect(viemReceipt.status).toBe('success');
    expect(viemReceipt.blockNumber).toBe(3n);
    const tx = await client.getTransaction({ hash: ethTxHash as `0x${string}` });
    expect(tx.to?.toLowerCase()).toBe(nester.toLowerCase());
    expect((await rpc('eth_getTransactionByBlockNumberAndIndex', ['0x3', '0x0'])).result).toEqual(
      evm.transactions[0],
    );
  });

  it('filters logs by range, address and topics', async () => {
    const all = (await rpc('eth_getLogs', [{ fromBlock: '0x1', toBlock: 'latest' }])).result as any[];
    const expected = [1, 2, 3].flatMap((h) =>
      tb.chain.getBlock(h)!.evm!.receipts.flatMap((r: any) => r.logs),
    );
    expect(all).toEqual(expected);
    expect(all.length).toBeGreaterThan(0);
    const first = all[0];
    const byAddress = (await rpc('eth_getLogs', [{ fromBlock: '0x1', address: [first.address] }]))
      .result as any[];
    expect(byAddress.every((l) => l.address.toLowerCase() === first.address.toLowerCase())).toBe(true);
    const byTopic = (await rpc('eth_getLogs', [{ fromBlock: '0x1', topics: [first.topics[0]] }]))
      .result as any[];
    expect(byTopic.every((l) => l.topics[0] === first.topics[0])).toBe(true);
    expect((await rpc('eth_getLogs', [{ fromBlock: '0x3', toBlock: '0x1' }])).error?.message).toBe(
      'invalid block range params',
    );
    const viaViem = await client.getLogs({ fromBlock: 1n, toBlock: 3n });
    expect(viaViem).toHaveLength(all.length);
  });
});

describe('EVM JSON-RPC: traces', () => {
  it('serves callTracer traces of blocks and txs, as minievm checks them', async () => {
    const traces = callBlock.evm!.traces;
    expect(traces.length).toBeGreaterThan(0);
    const tracer = { tracer: 'callTracer' };
    expect((await rpc('debug_traceBlockByNumber', ['0x3', tracer])).result).toEqual(traces);
    expect((await rpc('debug_traceBlockByHash', [callBlock.evm!.block.hash, tracer])).result).toEqual(traces);
    const mine = traces.find((t) => t.txHash === ethTxHash)!;
    expect((await rpc('debug_traceTransaction', [ethTxHash, tracer])).result).toEqual(mine.result);
    expect(mine.result!.calls).toBeDefined();
    const top = await rpc('debug_traceTransaction', [
      ethTxHash,
      { tracer: 'callTracer', tracerConfig: { onlyTopCall: true } },
    ]);
    expect(top.result.calls).toBeUndefined();
    expect(top.result.to).toBe(mine.result!.to);

    expect((await rpc('debug_traceBlockByNumber', ['0x1', tracer])).error).toEqual({
      code: -32000,
      message: 'genesis is not traceable',
    });
    expect((await rpc('debug_traceBlockByNumber', ['0x4', tracer])).error?.message).toBe(
      'block #4 not found',
    );
    expect((await rpc('debug_traceBlockByNumber', ['0x9', tracer])).error?.message).toBe(
      'requested height is greater than the latest block height',
    );
    expect((await rpc('debug_traceBlockByNumber', ['0x3'])).error?.code).toBe(-32000);
  });
});

describe('EVM JSON-RPC: state and sending', () => {
  it('reads balances, nonces and code at a block', async () => {
    const [alice] = tb.accounts;
    const balance = await client.getBalance({ address: alice!.hexAddress as `0x${string}` });
    expect(balance).toBe(await tb.node.balance(alice!.hexAddress));
    expect(await client.getTransactionCount({ address: alice!.hexAddress as `0x${string}` })).toBe(
      Number(tb.chain.account(alice!.address)!.sequence),
    );
    expect((await client.getCode({ address: nester }))?.length).toBeGreaterThan(2);
    expect((await rpc('eth_getCode', [nester, '0x1'])).result).toBe('0x');
    expect((await rpc('eth_getBalance', [alice!.hexAddress, '0x63'])).error).toEqual({
      code: -32000,
      message: 'requested height is greater than the latest block height',
    });
  });

  it('calls contracts, and answers reverts as geth does (code 3 with the revert data)', async () => {
    // nest(7) wrote 7 through the DELEGATECALL into the leaf's slot 0, which is Nester's `pokes`.
    const read = await client.readContract({ address: nester, abi: nesterAbi(), functionName: 'pokes' });
    expect(read).toBe(7n);
    const reverted = await rpc('eth_call', [
      { to: nester, data: encodeFunctionData({ abi: nesterAbi(), functionName: 'nestAndRevert' }) },
      'latest',
    ]);
    expect(reverted.error).toMatchObject({ code: 3, message: 'execution reverted: nester failed' });
    expect(reverted.error!.data).toMatch(/^0x08c379a0/);
    await expect(
      client.simulateContract({ address: nester, abi: nesterAbi(), functionName: 'nestAndRevert' }),
    ).rejects.toThrow(/nester failed/);
    expect((await rpc('eth_estimateGas', [{ to: nester }])).error?.message).toBe(
      'from address cannot be empty in the estimated gas',
    );
  });

  it('accepts a signed tx from viem and serves its receipt once it is in a block', async () => {
    const [, , carol] = tb.accounts;
    const account = privateKeyToAccount(carol!.privateKey as `0x${string}`);
    const chain = defineChain({
      id: Number(tb.evm.evmChainId),
      name: 'devnet',
      nativeCurrency: { name: 'GAS', symbol: 'GAS', decimals: 18 },
      rpcUrls: { default: { http: [url] } },
    });
    const wallet = createWalletClient({ account, chain, transport: http(url) });
    const hash = await wallet.sendTransaction({
      to: nester,
      data: encodeFunctionData({ abi: nesterAbi(), functionName: 'nest', args: [9n] }),
    });
    await tb.produce();
    const receipt = await client.getTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    const cosmosHash = (await rpc('cosmos_cosmosTxHashByTxHash', [hash])).result as string;
    expect(cosmosHash).toMatch(/^[0-9a-f]{64}$/);
    expect((await rpc('cosmos_txHashByCosmosTxHash', [cosmosHash])).result).toBe(hash);
    expect((await rpc('cosmos_txHashByCosmosTxHash', ['00'.repeat(32)])).result).toBe(`0x${'0'.repeat(64)}`);
    const rejected = await rpc('eth_sendRawTransaction', ['0x1234']);
    expect(rejected.error?.code).toBe(-32000);
  });
});

describe('EVM JSON-RPC: protocol', () => {
  it('answers protocol errors with geth codes and texts', async () => {
    expect((await rpc('eth_foo')).error).toEqual({
      code: -32601,
      message: 'the method eth_foo does not exist/is not available',
    });
    expect((await rpc('eth_getBlockByNumber', ['3', false])).error).toEqual({
      code: -32602,
      message: 'invalid argument 0: hex string without 0x prefix',
    });
    expect((await rpc('eth_getBlockByNumber', ['0x3'])).error?.message).toBe(
      'missing value for required argument 1',
    );
    expect(await raw('{"jsonrpc"')).toEqual({
      status: 200,
      text: '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}',
    });
    expect((await raw('[]')).text).toBe(
      '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"empty batch"}}',
    );
    expect((await raw('{}', 'text/plain')).status).toBe(415);
  });

  it('answers batches in order and skips notifications', async () => {
    const batch = await raw(
      JSON.stringify([
        { jsonrpc: '2.0', id: 0, method: 'eth_blockNumber' },
        { jsonrpc: '2.0', method: 'eth_blockNumber' },
        { jsonrpc: '2.0', id: 'b', method: 'eth_getBlockReceipts', params: ['0x2'] },
      ]),
    );
    const answers = JSON.parse(batch.text);
    expect(answers.map((a: any) => a.id)).toEqual([0, 'b']);
    expect(answers[1].result).toEqual(deployBlock.evm!.receipts);
  });

  it('treats pruned heights as gone', async () => {
    servers.setFaults({ pruneBelow: 3 });
    try {
      expect((await rpc('eth_getBlockByNumber', ['0x2', false])).result).toBeNull();
      expect((await rpc('eth_getBlockByNumber', ['0x3', false])).result).not.toBeNull();
      expect(
        (await rpc('debug_traceBlockByNumber', ['0x3', { tracer: 'callTracer' }])).error?.message,
      ).toMatch(/^failed to load state at height 2/);
      expect((await rpc('eth_getBalance', [nester, '0x2'])).error?.message).toMatch(
        /^failed to load state at height 2/,
      );
    } finally {
      servers.setFaults({ pruneBelow: undefined });
    }
  });
});

describe('minievm REST', () => {
  const restGet = async (path: string) => {
    const res = await fetch(`${servers.urls.rest}${path}`);
    return { status: res.status, body: (await res.json()) as any };
  };

  it('calls contracts with the query server texts, and maps denoms to ERC20s', async () => {
    const call = async (functionName: string) => {
      const res = await fetch(`${servers.urls.rest}/minievm/evm/v1/call`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-cosmos-block-height': '3' },
        body: JSON.stringify({
          sender: tb.accounts[0]!.address,
          contract_addr: nester,
          input: encodeFunctionData({ abi: nesterAbi(), functionName }),
          value: '0',
        }),
      });
      return (await res.json()) as Record<string, unknown>;
    };
    const ok = await call('pokes');
    expect(ok).toMatchObject({ response: `0x${'0'.repeat(63)}7`, logs: [], trace_output: '', error: '' });
    expect(BigInt(ok.used_gas as string)).toBeGreaterThan(0n);
    expect((await call('nestAndRevert')).error).toBe('revert: nester failed: Reverted');

    const byDenom = await restGet('/minievm/evm/v1/contracts/by_denom?denom=GAS');
    expect(byDenom.body.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect((await restGet(`/minievm/evm/v1/denoms/${byDenom.body.address}`)).body).toEqual({ denom: 'GAS' });
    expect((await restGet('/minievm/evm/v1/contracts/by_denom?denom=nope')).status).toBe(404);
    expect((await restGet(`/minievm/evm/v1/codes/${nester}`)).body.code.length).toBeGreaterThan(2);
  });
});
