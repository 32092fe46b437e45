import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Devnet, DevnetChain } from 'weft-devnet/devnet.js';
import { startNodeServers } from 'weft-devnet/servers/index.js';
import { testDevnet } from 'weft-devnet/test-support/devnet.js';
import { FutureHeightError, NodeQueryError, PrunedHeightError } from './endpoints.js';
import { createRestClient } from './rest-client.js';

let devnet: Devnet;
const chainOf = (vm: string) => devnet.chains.find((c) => c.vm === vm)!;
const rest = (chain: DevnetChain, pageLimit?: number) =>
  createRestClient([chain.urls.rest], { timeoutMs: 5000, pageLimit });

/** The first event of a type (in tx results) with all its attributes as a map. */
function findEvent(chain: DevnetChain, type: string, match: (attrs: Map<string, string>) => boolean) {
  for (let h = 1; h <= chain.chain.latestHeight(); h += 1) {
    for (const tx of chain.chain.getBlock(h)!.txs) {
      for (const event of tx.result.events) {
        if (event.type !== type) continue;
        const attrs = new Map((event.attributes ?? []).map((a) => [a.key, a.value]));
        if (match(attrs)) return { height: h, attrs };
      }
    }
  }
  throw new Error(`no ${type} event`);
}

beforeAll(async () => {
  devnet = await testDevnet({
    seed: 'rest-client',
    vms: ['evm', 'move', 'wasm'],
    accounts: 4,
    txsPerBlock: 12,
  });
  await devnet.fastForward(15);
});

afterAll(() => devnet.close());

describe('Cosmos REST client', () => {
  it('reads the head and the node version', async () => {
    const client = rest(chainOf('move'));
    expect(await client.latestHeight()).toBe(15);
    const info = await client.nodeInfo();
    expect(info.network).toBe('weft-move-1');
    expect(info.appVersion).toMatch(/^v\d+\.\d+\.\d+/);
  });

  it('pages a block’s txs by key, and by offset when the node gives no next_key', async () => {
    const chain = chainOf('wasm');
    const height = [...Array(15).keys()]
      .map((i) => i + 1)
      .find((h) => chain.chain.getBlock(h)!.txs.length >= 7)!;
    const expected = chain.chain.getBlock(height)!.txs.map((t) => JSON.parse(JSON.stringify(t.restTx)));
    expect(await rest(chain, 3).txsOfBlock(height)).toEqual(expected);

    const nullKey = await startNodeServers(chain.chain, { nullNextKey: true });
    try {
      const client = createRestClient([nullKey.urls.rest], { timeoutMs: 5000, pageLimit: 3 });
      expect(await client.txsOfBlock(height, { expectedCount: expected.length })).toEqual(expected);
    } finally {
      await nullKey.close();
    }
  });

  it('says "not yet" for a block beyond the head', async () => {
    await expect(rest(chainOf('move')).txsOfBlock(99)).rejects.toBeInstanceOf(FutureHeightError);
  });

  it('lists accounts and balances at a height', async () => {
    const chain = chainOf('move');
    const client = rest(chain, 2);
    const accounts = await client.accounts(10);
    const expected = chain.chain.accounts(10).map((a) => a.address);
    expect(accounts.map((a) => a.address).sort()).toEqual([...expected].sort());
    expect(accounts.some((a) => a.module)).toBe(true);
    const holder = chain.accounts[0]!.address;
    const balances = await client.balances(holder, 10);
    expect(balances).toEqual((await chain.chain.balances(holder, 10)).filter((c) => c.amount !== '0'));
  });

  it('answers the EVM queries: denom to contract, and calls at a height (reverts included)', async () => {
    const chain = chainOf('evm');
    const client = rest(chain);
    const token = await client.contractByDenom(chain.chain.info.denom);
    expect(token).toMatch(/^0x[0-9a-f]{40}$/);
    expect(await client.contractByDenom('nosuchdenom')).toBeUndefined();
    // ERC20 `decimals()`.
    const decimals = await client.evmCall(token!, '0x313ce567', 10);
    expect(decimals.error).toBe('');
    expect(BigInt(decimals.response)).toBeGreaterThan(0n);
    const reverted = await client.evmCall(token!, '0xdeadbeef', 10);
    expect(reverted.error).not.toBe('');
    expect(reverted.response).toBe('');
  });

  it('reads Move resources and CosmWasm contracts at a height', async () => {
    const move = chainOf('move');
    const created = findEvent(
      move,
      'move',
      (a) => a.get('type_tag') === '0x1::collection::CreateCollectionEvent',
    );
    const { collection } = JSON.parse(created.attrs.get('data')!) as { collection: string };
    const resource = await rest(move).moveResource(collection, '0x1::collection::Collection', created.height);
    expect(JSON.parse(resource.move_resource).type).toBe('0x1::collection::Collection');
    await expect(rest(move).moveResource(collection, '0x1::nft::Nft', created.height)).rejects.toBeInstanceOf(
      NodeQueryError,
    );

    const wasm = chainOf('wasm');
    const instantiated = findEvent(wasm, 'wasm', (a) => a.has('_contract_address') && a.has('minter'));
    const contract = instantiated.attrs.get('_contract_address')!;
    const info = await rest(wasm).wasmContractInfo(contract, instantiated.height);
    expect(typeof info.creator).toBe('string');
    const data = (await rest(wasm).wasmSmart(contract, { contract_info: {} }, instantiated.height)) as {
      name: string;
    };
    expect(typeof data.name).toBe('string');
    const bad = await rest(wasm)
      .wasmSmart(contract, { no_such_query: {} }, instantiated.height)
      .catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(NodeQueryError);
  });

  it('reads the sequencer and says "pruned" for state the node no longer keeps', async () => {
    const chain = chainOf('wasm');
    const client = rest(chain);
    const valoper = chain.chain.validator().operatorAddress;
    expect((await client.validator(valoper)).operator_address).toBe(valoper);
    chain.chain.prune(5);
    await expect(client.balances(chain.accounts[0]!.address, 2)).rejects.toBeInstanceOf(PrunedHeightError);
    await expect(client.txsOfBlock(3)).rejects.toBeInstanceOf(PrunedHeightError);
  });
});
