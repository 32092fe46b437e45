import { RESTClient } from '@initia/initia.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromBech32, toBech32, toHexAddress } from 'weft/chain/address.js';
import { encodeAny } from 'weft/chain/registry.js';
import { silentLogger } from 'weft/common/logger.js';
import { createRollup, type Rollup } from '../rollup.js';
import { createTestL1 } from '../test-support/l1.js';
import { signTx } from '../tx/sign.js';
import { gatewayBlock } from './gateway-json.js';
import { type NodeServers, startNodeServers } from './index.js';
import { createRestServer } from './rest.js';

let rollup: Rollup;
let servers: NodeServers;
let rest: string;

const get = async (path: string, height?: number) => {
  const res = await fetch(`${rest}${path}`, {
    headers: height === undefined ? {} : { 'x-cosmos-block-height': String(height) },
  });
  const text = await res.text();
  return { status: res.status, text, body: JSON.parse(text) };
};
const post = async (path: string, body: unknown) => {
  const res = await fetch(`${rest}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: JSON.parse(await res.text()) };
};
const b64 = (hex: string) => Buffer.from(hex, 'hex').toString('base64');

function bankSend(i: number, amount = '7', sequence?: bigint): string {
  const { chain, accounts } = rollup;
  const from = accounts[i]!;
  const account = chain.account(from.address)!;
  const raw = signTx({
    msgs: [
      encodeAny('/cosmos.bank.v1beta1.MsgSend', {
        fromAddress: from.address,
        toAddress: accounts[(i + 1) % accounts.length]!.address,
        amount: [{ denom: 'umin', amount }],
      }),
    ],
    fee: { amount: [{ denom: 'umin', amount: '30000' }], gasLimit: 200_000n },
    signer: from,
    chainId: chain.info.chainId,
    accountNumber: account.accountNumber,
    sequence: sequence ?? account.sequence,
  });
  return Buffer.from(raw).toString('base64');
}

beforeAll(async () => {
  rollup = await createRollup({
    vm: 'move',
    chainId: 'rest-test-1',
    seed: 'rest-test',
    accounts: 6,
    blockTimeMs: 1000,
    logger: silentLogger(),
  });
  for (let i = 0; i < 5; i += 1) {
    await rollup.traffic.fill(5);
    await rollup.chain.produceBlock();
  }
  servers = await startNodeServers(rollup.chain, {});
  rest = servers.urls.rest;
});

afterAll(async () => {
  await servers?.close();
});

describe('tendermint service', () => {
  it('reports the app version rollytics gates on and the network', async () => {
    const { body } = await get('/cosmos/base/tendermint/v1beta1/node_info');
    expect(body.default_node_info.network).toBe('rest-test-1');
    expect(body.application_version.version).toBe('v1.1.0');
    expect((await get('/cosmos/base/tendermint/v1beta1/syncing')).body).toEqual({ syncing: false });
  });

  it('renders blocks in proto JSON: base64 hashes, enum names, a bech32 proposer in sdk_block', async () => {
    const latest = await get('/cosmos/base/tendermint/v1beta1/blocks/latest');
    const record = rollup.chain.getBlock(rollup.chain.latestHeight())!;
    expect(latest.body.block.header.height).toBe(String(record.height));
    expect(latest.body.block_id).toEqual({
      hash: b64(record.block.block_id.hash as string),
      part_set_header: { total: 1, hash: b64(record.block.block_id.hash as string) },
    });
    expect(latest.body.block).toEqual(gatewayBlock(record.block.block));
    expect(latest.body.block.last_commit.signatures[0].block_id_flag).toBe('BLOCK_ID_FLAG_COMMIT');
    expect(latest.body.sdk_block.header.proposer_address).toMatch(/^initvalcons1/);

    const second = await get('/cosmos/base/tendermint/v1beta1/blocks/2');
    expect(second.body.block.header.height).toBe('2');
    expect(await get('/cosmos/base/tendermint/v1beta1/blocks/99')).toMatchObject({
      status: 400,
      text: '{"code":3,"message":"requested block height is bigger then the chain length","details":[]}',
    });
    const bad = await get('/cosmos/base/tendermint/v1beta1/blocks/x');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^type mismatch, parameter: height/);
  });
});

describe('tx service', () => {
  it('pages GetBlockWithTxs by limit and next_key, or by offset, with the block in proto JSON', async () => {
    const record = rollup.chain.getBlock(3)!;
    const total = record.txs.length;
    expect(total).toBeGreaterThan(2);
    const first = await get('/cosmos/tx/v1beta1/txs/block/3?pagination.limit=2');
    expect(Object.keys(first.body)).toEqual(['txs', 'block_id', 'block', 'pagination']);
    expect(first.body.txs).toEqual(record.txs.slice(0, 2).map((t) => t.restTx));
    expect(first.body.block).toEqual(gatewayBlock(record.block.block));
    expect(first.body.pagination.total).toBe(String(total));
    expect(first.body.pagination.next_key).not.toBeNull();

    const rest2 = await get(
      `/cosmos/tx/v1beta1/txs/block/3?pagination.limit=100&pagination.key=${encodeURIComponent(first.body.pagination.next_key)}`,
    );
    expect(rest2.body.txs).toEqual(record.txs.slice(2).map((t) => t.restTx));
    expect(rest2.body.pagination.next_key).toBeNull();

    const byOffset = await get('/cosmos/tx/v1beta1/txs/block/3?pagination.offset=1&pagination.limit=1');
    expect(byOffset.body.txs).toEqual([record.txs[1]!.restTx]);

    const sdkLike = createRestServer(rollup.chain, { nullNextKey: true });
    const quirky = await sdkLike.inject({ url: '/cosmos/tx/v1beta1/txs/block/3?pagination.limit=2' });
    expect(JSON.parse(quirky.body).pagination).toEqual({ next_key: null, total: String(total) });
    await sdkLike.close();

    const future = await get('/cosmos/tx/v1beta1/txs/block/99');
    expect(future.status).toBe(500);
    expect(future.body).toEqual({
      code: 2,
      message: `codespace sdk code 26: invalid height: requested height 99 but height must not be less than 1 or greater than the current height ${rollup.chain.latestHeight()}`,
      details: [],
    });
    const outOfRange = await get(`/cosmos/tx/v1beta1/txs/block/3?pagination.offset=${total}`);
    expect(outOfRange.status).toBe(400);
    expect(outOfRange.body.message).toMatch(
      /^codespace sdk code 18: invalid request: out of range: cannot paginate/,
    );
  });

  it('serves a tx by hash as {tx, tx_response} with the SDK encodings', async () => {
    const record = rollup.chain.getBlock(2)!;
    const tx = record.txs[0]!;
    const { status, body } = await get(`/cosmos/tx/v1beta1/txs/${tx.hash.toLowerCase()}`);
    expect(status).toBe(200);
    expect(body.tx).toEqual(tx.restTx);
    const data = tx.result.data ? Buffer.from(tx.result.data, 'base64').toString('hex').toUpperCase() : '';
    expect(body.tx_response).toMatchObject({
      height: '2',
      txhash: tx.hash,
      code: tx.result.code,
      data,
      raw_log: tx.result.log,
      logs: [],
      gas_wanted: tx.result.gas_wanted,
      gas_used: tx.result.gas_used,
      tx: { '@type': '/cosmos.tx.v1beta1.Tx', ...tx.restTx },
      timestamp: '2026-01-01T00:00:02Z',
    });
    expect(body.tx_response.events[0].attributes[0]).toHaveProperty('index');

    const missing = await get(`/cosmos/tx/v1beta1/txs/${'AB'.repeat(32)}`);
    expect(missing).toMatchObject({
      status: 404,
      body: { code: 5, message: `tx not found: ${'AB'.repeat(32)}`, details: [] },
    });
    expect((await get('/cosmos/tx/v1beta1/txs/xyz')).status).toBe(500);
  });

  it('searches txs with query= and the legacy events=', async () => {
    const expected = rollup.chain.getBlock(4)!.txs;
    const byHeight = await get('/cosmos/tx/v1beta1/txs?query=tx.height=4');
    expect(byHeight.body.total).toBe(String(expected.length));
    expect(byHeight.body.pagination).toBeNull();
    expect(byHeight.body.tx_responses.map((r: any) => r.txhash)).toEqual(expected.map((t) => t.hash));
    expect(byHeight.body.txs).toEqual(expected.map((t) => t.restTx));

    const sender = rollup.accounts[1]!.address;
    const legacy = await get(
      `/cosmos/tx/v1beta1/txs?events=message.sender=${sender}&events=tx.height=4&limit=1`,
    );
    const modern = await get(
      `/cosmos/tx/v1beta1/txs?query=${encodeURIComponent(`message.sender='${sender}' AND tx.height=4`)}&limit=1`,
    );
    expect(legacy.body).toEqual(modern.body);
    expect(legacy.body.tx_responses.length).toBeLessThanOrEqual(1);

    expect(await get('/cosmos/tx/v1beta1/txs')).toMatchObject({
      status: 400,
      body: { code: 3, message: 'query cannot be empty' },
    });
  });

  it('broadcasts {tx_bytes, mode} and simulates', async () => {
    const ok = await post('/cosmos/tx/v1beta1/txs', { tx_bytes: bankSend(5), mode: 'BROADCAST_MODE_SYNC' });
    expect(ok.status).toBe(200);
    expect(ok.body.tx_response).toMatchObject({
      height: '0',
      code: 0,
      codespace: '',
      raw_log: '',
      logs: [],
      tx: null,
    });
    expect(ok.body.tx_response.txhash).toMatch(/^[0-9A-F]{64}$/);

    const stale = await post('/cosmos/tx/v1beta1/txs', {
      tx_bytes: bankSend(5, '7', 0n),
      mode: 'BROADCAST_MODE_SYNC',
    });
    expect(stale.body.tx_response).toMatchObject({ code: 32, codespace: 'sdk' });
    const block = await post('/cosmos/tx/v1beta1/txs', {
      tx_bytes: bankSend(5),
      mode: 'BROADCAST_MODE_BLOCK',
    });
    expect(block).toMatchObject({
      status: 500,
      body: { code: 2, message: 'unsupported return type unspecified; supported types: sync, async' },
    });
    expect((await post('/cosmos/tx/v1beta1/txs', { mode: 'BROADCAST_MODE_SYNC' })).body.message).toBe(
      'invalid empty tx',
    );
    await rollup.chain.produceBlock();

    const simulated = await post('/cosmos/tx/v1beta1/simulate', { tx_bytes: bankSend(4) });
    expect(simulated.status).toBe(200);
    expect(BigInt(simulated.body.gas_info.gas_used)).toBeGreaterThan(0n);
    expect(simulated.body.result.events.length).toBeGreaterThan(0);
    const tooMuch = await post('/cosmos/tx/v1beta1/simulate', {
      tx_bytes: bankSend(4, '10000000000000000000'),
    });
    expect(tooMuch.status).toBe(500);
    expect(tooMuch.body.message).toMatch(
      /insufficient funds.* With gas wanted: '200000' and gas used: '\d+' $/,
    );
  });
});

describe('state queries', () => {
  it('pages accounts and finds one by bech32 or hex address', async () => {
    const all = await get('/cosmos/auth/v1beta1/accounts');
    const accounts = all.body.accounts;
    expect(all.body.pagination.total).toBe(String(accounts.length));
    expect(accounts.find((a: any) => a['@type'] === '/cosmos.auth.v1beta1.ModuleAccount')).toMatchObject({
      name: 'fee_collector',
      base_account: { pub_key: null, sequence: '0' },
    });
    const page = await get('/cosmos/auth/v1beta1/accounts?pagination.limit=2');
    expect(page.body.accounts).toEqual(accounts.slice(0, 2));
    const next = await get(
      `/cosmos/auth/v1beta1/accounts?pagination.limit=2&pagination.key=${encodeURIComponent(page.body.pagination.next_key)}`,
    );
    expect(next.body.accounts).toEqual(accounts.slice(2, 4));

    const alice = rollup.accounts[0]!;
    const byBech32 = await get(`/cosmos/auth/v1beta1/accounts/${alice.address}`);
    expect(byBech32.body.account).toMatchObject({
      '@type': '/cosmos.auth.v1beta1.BaseAccount',
      address: alice.address,
      pub_key: { '@type': '/cosmos.crypto.secp256k1.PubKey' },
      account_number: '0',
    });
    const byHex = await get(`/cosmos/auth/v1beta1/accounts/${toHexAddress(fromBech32(alice.address).bytes)}`);
    expect(byHex.body).toEqual(byBech32.body);
    const info = await get(`/cosmos/auth/v1beta1/account_info/${alice.address}`);
    const { '@type': _type, ...base } = byBech32.body.account;
    expect(info.body.info).toEqual(base);
    const modules = await get('/cosmos/auth/v1beta1/module_accounts');
    expect(modules.body.accounts.map((a: any) => a.name)).toEqual(['fee_collector']);

    const stranger = `init1${'q'.repeat(38)}`;
    const unknown = await get(`/cosmos/auth/v1beta1/accounts/${toHexAddress(new Uint8Array(20).fill(9))}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe(5);
    expect((await get(`/cosmos/auth/v1beta1/accounts/${stranger}`)).status).toBe(500);
  });

  it('reads balances at the x-cosmos-block-height height and refuses heights it cannot serve', async () => {
    const alice = rollup.accounts[0]!.address;
    const now = await get(`/cosmos/bank/v1beta1/balances/${alice}`);
    const atGenesisBlock = await get(`/cosmos/bank/v1beta1/balances/${alice}`, 1);
    expect(atGenesisBlock.body.balances[0].denom).toBe('umin');
    expect(now.body.balances[0].amount).toBe((await rollup.chain.balances(alice))[0]!.amount);
    expect(atGenesisBlock.body.balances[0].amount).toBe((await rollup.chain.balances(alice, 1))[0]!.amount);
    expect(now.body.balances[0].amount).not.toBe(atGenesisBlock.body.balances[0].amount);

    const byDenom = await get(`/cosmos/bank/v1beta1/balances/${alice}/by_denom?denom=umin`, 1);
    expect(byDenom.body).toEqual({ balance: atGenesisBlock.body.balances[0] });
    expect((await get(`/cosmos/bank/v1beta1/balances/${alice}/by_denom?denom=u`)).status).toBe(400);
    expect((await get(`/cosmos/bank/v1beta1/spendable_balances/${alice}`)).body.balances).toEqual(
      now.body.balances,
    );
    const supply = await get('/cosmos/bank/v1beta1/supply');
    expect(supply.body.supply[0].denom).toBe('umin');

    const future = await get(`/cosmos/bank/v1beta1/balances/${alice}`, 10_000);
    expect(future.status).toBe(500);
    expect(future.text).toBe(
      '{"code":2,"message":"codespace sdk code 26: invalid height: cannot query with height in the future; please provide a valid height","details":[]}',
    );
    servers.setFaults({ pruneBelow: 3 });
    try {
      const pruned = await get(`/cosmos/bank/v1beta1/balances/${alice}`, 2);
      expect(pruned.status).toBe(404);
      expect(pruned.body.message).toMatch(
        /^codespace sdk code 38: not found: failed to load state at height 2/,
      );
      const prunedBlock = await get('/cosmos/tx/v1beta1/txs/block/2');
      expect(prunedBlock.body).toMatchObject({
        code: 2,
        message: 'height 2 is not available, lowest height is 3',
      });
    } finally {
      servers.setFaults({ pruneBelow: undefined });
    }
  });

  it('names the sequencer through opchild, its operator the valoper of its consensus address', async () => {
    const validator = rollup.chain.validator();
    // As OPinit's launch tools write the genesis validator: a block's proposer address names it.
    expect(toBech32('initvaloper', Buffer.from(validator.consensusAddress, 'hex'))).toBe(
      validator.operatorAddress,
    );
    const one = await get(`/opinit/opchild/v1/validator/${validator.operatorAddress}`);
    expect(one.body.validator).toEqual({
      moniker: validator.moniker,
      operator_address: validator.operatorAddress,
      consensus_pubkey: { '@type': '/cosmos.crypto.ed25519.PubKey', key: validator.pubKeyBase64 },
      cons_power: '1',
    });
    expect((await get('/opinit/opchild/v1/validators')).body.validators).toEqual([one.body.validator]);
    const other = toBech32('initvaloper', new Uint8Array(20).fill(7));
    expect(await get(`/opinit/opchild/v1/validator/${other}`)).toMatchObject({
      status: 404,
      body: { code: 5, message: `validator ${other} not found` },
    });
    expect((await get('/opinit/opchild/v1/validator/initvaloper1broken')).status).toBe(500);
  });

  it("answers the L1's gas prices as initia's tx module does, and 501 on a rollup; the L1 has no opchild validators", async () => {
    const l1 = await createTestL1('rest-l1', undefined, 1);
    await l1.chain.produceBlock();
    const l1Servers = await startNodeServers(l1.chain, {});
    try {
      const at = async (path: string) => {
        const res = await fetch(`${l1Servers.urls.rest}${path}`);
        return { status: res.status, body: await res.json() };
      };
      expect(await at('/initia/tx/v1/gas_prices')).toEqual({
        status: 200,
        body: { gas_prices: [{ denom: 'uinit', amount: '0.015000000000000000' }] },
      });
      expect(await at('/initia/tx/v1/gas_prices/uinit')).toEqual({
        status: 200,
        body: { gas_price: { denom: 'uinit', amount: '0.015000000000000000' } },
      });
      expect(await at('/initia/tx/v1/gas_prices/uatom')).toMatchObject({ status: 404, body: { code: 5 } });
      const sequencer = l1.chain.validator().operatorAddress;
      for (const path of ['/opinit/opchild/v1/validators', `/opinit/opchild/v1/validator/${sequencer}`])
        expect(await at(path), path).toMatchObject({
          status: 501,
          body: { code: 12, message: 'Not Implemented' },
        });
    } finally {
      await l1Servers.close();
    }
    expect(await get('/initia/tx/v1/gas_prices')).toMatchObject({ status: 501 });
  });

  it('answers routes this chain does not serve with 501 Not Implemented', async () => {
    for (const path of [
      '/cosmos/staking/v1beta1/validators',
      '/minievm/evm/v1/contracts/by_denom?denom=GAS',
    ]) {
      expect(await get(path)).toMatchObject({
        status: 501,
        body: { code: 12, message: 'Not Implemented', details: [] },
      });
    }
  });
});

describe('@initia/initia.js RESTClient', () => {
  it('reads blocks, txs, accounts, balances and the sequencer', async () => {
    const client = new RESTClient(rest, { chainId: 'rest-test-1' });
    const alice = rollup.accounts[0]!.address;
    const block = await client.tendermint.blockInfo(2);
    expect(block.block.header.height).toBe('2');
    const tx = rollup.chain.getBlock(2)!.txs[0]!;
    const info = await client.tx.txInfo(tx.hash);
    expect(info.txhash).toBe(tx.hash);
    expect(info.height).toBe(2);
    const account = await client.auth.accountInfo(alice);
    expect(account.getAccountNumber()).toBe(0);
    const [balances] = await client.bank.balance(alice);
    expect(balances.get('umin')?.amount.toString()).toBe((await rollup.chain.balances(alice))[0]!.amount);
    const validator = await client.opchild.validator(rollup.chain.validator().operatorAddress);
    expect(validator.moniker).toBe(rollup.chain.validator().moniker);
    const search = await client.tx.search({ query: [{ key: 'tx.height', value: '2' }] });
    expect(search.txs.length).toBe(rollup.chain.getBlock(2)!.txs.length);
  });
});
