import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Devnet, DevnetChain } from 'weft-devnet/devnet.js';
import type { VmType } from 'weft-devnet/types.js';
import { toBech32 } from '../../chain/address.js';
import { createRestClient, type RestClient } from '../../chain/rest-client.js';
import { createLogger } from '../../common/logger.js';
import type { Backend, Db } from '../../store/db.js';
import { useTestDb } from '../../store/test-support/backends.js';
import { resolveChain } from '../chain-context.js';
import { createProposerDirectory } from '../proposers.js';
import { type ApiServer, createApiServer } from '../server.js';
import { type ApiClient, createApiClient, type Query } from './api-client.js';
import { describeNftReads } from './api-suite-nft.js';
import { describeVmReads } from './api-suite-vm.js';
import { indexChain, producedDevnet } from './indexed-devnet.js';

/**
 * The end-to-end suite of one VM: a devnet chain indexed by the real indexer, on each back end,
 * read through every endpoint. Lists are walked whole (by key and by offset, both orders) and
 * compared with the chain and with counts taken from the store's base tables.
 */

const BLOCKS = 24;
const LIMIT = 7;

const byKey = (items: any[], key: (item: any) => string) => items.map(key);

/** What a group of the API suite's tests reads: set in the suite's `beforeAll`, so read it inside a test. */
export interface SuiteReads {
  readonly vm: VmType;
  readonly chain: DevnetChain;
  readonly db: Db;
  readonly client: ApiClient;
  /** Walks a list by key in both orders and by offset; all three agree; returns the descending items. */
  walkAll(
    template: string,
    params: Record<string, string | number>,
    query: Query,
    itemsKey: string,
    id: (item: any) => string,
  ): Promise<any[]>;
  /** The `n` of a `SELECT count(…) AS n` on the store, as a string. */
  count(sql: string, params?: unknown[]): Promise<string>;
  /** The bech32 addresses of the chain's accounts. */
  accountsOfChain(): string[];
}

export function describeApiSuite(vm: VmType, backends: Backend[]): void {
  let devnet: Devnet;
  let chain: DevnetChain;
  beforeAll(async () => {
    ({ devnet, chain } = await producedDevnet(vm, BLOCKS));
  });
  afterAll(async () => {
    await devnet?.close();
  });

  for (const backend of backends) {
    describe(`${vm} on ${backend}`, () => {
      const testDb = useTestDb(backend);
      let db: Db;
      let api: ApiServer;
      let client: ApiClient;
      beforeAll(async () => {
        db = await testDb.fresh();
        await indexChain(chain, db);
        const context = await resolveChain(db, { internalTx: true });
        api = await createApiServer({
          db,
          chain: context,
          restUrls: [chain.urls.rest],
          // Errors only: a 500 in a test shows its cause.
          logger: createLogger({ level: 'error', format: 'pretty', name: 'api' }),
          cache: { enabled: false, size: 0, listTtlMs: 1000, itemTtlMs: 10_000 },
        });
        client = createApiClient(api.app);
      });
      afterAll(async () => {
        await api?.close();
      });

      const count = async (sql: string, params: unknown[] = []) =>
        String((await db.query<{ n: string }>(sql, params))[0]!.n);
      const accountsOfChain = () => chain.accounts.map((a) => a.address);

      /** Walks a list by key in both orders and by offset; all three agree; returns the descending items. */
      const walkAll = async (
        template: string,
        params: Record<string, string | number>,
        query: Query,
        itemsKey: string,
        id: (item: any) => string,
      ) => {
        const q = { ...query, 'pagination.limit': LIMIT };
        const down = await client.walk(template, params, q, itemsKey);
        const up = await client.walk(template, params, { ...q, 'pagination.reverse': false }, itemsKey);
        const offsets = await client.walkOffsets(template, params, q, itemsKey);
        const ids = byKey(down.items, id);
        expect(new Set(ids).size).toBe(ids.length);
        expect(byKey(up.items, id)).toEqual([...ids].reverse());
        expect(byKey(offsets.items, id)).toEqual(ids);
        expect(down.total).toBe(String(ids.length));
        expect(up.total).toBe(down.total);
        return down.items;
      };

      const reads: SuiteReads = {
        vm,
        get chain() {
          return chain;
        },
        get db() {
          return db;
        },
        get client() {
          return client;
        },
        walkAll,
        count,
        accountsOfChain,
      };

      it('answers /status with the indexed heights', async () => {
        const { body } = await client.get('/status');
        const head = chain.chain.latestHeight();
        expect(body).toMatchObject({
          chain_id: chain.chain.info.chainId,
          height: head,
          commit_hash: expect.any(String),
        });
        expect(body.version).toMatch(/^v\d+\.\d+\.\d+/);
        if (vm === 'evm') {
          expect(body.internal_tx_height).toBe(head);
          expect(body.rich_list_height).toBe(head);
          expect(body.internal_tx_lag).toBe(0);
          expect(body.rich_list_lag).toBe(0);
        } else {
          expect(body).not.toHaveProperty('internal_tx_height');
          expect(body).not.toHaveProperty('internal_tx_lag');
        }
      });

      it('lists every block and finds each by height', async () => {
        const head = chain.chain.latestHeight();
        const blocks = await walkAll('/indexer/block/v1/blocks', {}, {}, 'blocks', (b) => b.height);
        expect(blocks.map((b) => Number(b.height))).toEqual(Array.from({ length: head }, (_, i) => head - i));
        const validator = chain.chain.validator();
        for (const block of blocks.slice(0, 5)) {
          const record = chain.chain.getBlock(Number(block.height))!;
          expect(block.hash).toBe(String((record.block.block_id as { hash: string }).hash).toUpperCase());
          expect(block.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
          expect(Number(block.tx_count)).toBe(record.txs.length);
          // The proposer's valoper comes from its consensus address (as rollytics reads it), which on a
          // rollup launched by OPinit's tools is its operator's: the chain's REST names it.
          const proposer = toBech32(
            `${chain.chain.info.bech32Prefix}valoper`,
            Buffer.from(String(record.block.block.header.proposer_address), 'hex'),
          );
          expect(block.proposer).toEqual({
            moniker: validator.moniker,
            identity: '',
            operator_address: proposer,
          });
          expect(proposer).toBe(validator.operatorAddress);
          const one = await client.get('/indexer/block/v1/blocks/{height}', { height: block.height });
          expect(one.body.block).toEqual(block);
        }
        await client.get('/indexer/block/v1/blocks/{height}', { height: head + 1 }, {}, 404);
        const avg = await client.get('/indexer/block/v1/avg_blocktime');
        expect(avg.body.avg_block_time).toBeCloseTo(1, 1);
      });

      it('names proposers through the chain REST and falls back to the address when it cannot', async () => {
        const validator = chain.chain.validator();
        const logger = createLogger({ level: 'silent', format: 'json' });
        const rest = createRestClient([chain.urls.rest], { timeoutMs: 2000 });
        const directory = createProposerDirectory({ rest, cacheSize: 10, logger });
        const stranger = toBech32(`${chain.chain.info.bech32Prefix}valoper`, new Uint8Array(20).fill(9));
        const found = await directory.lookup([validator.operatorAddress, stranger]);
        expect(found.get(validator.operatorAddress)).toEqual({
          moniker: validator.moniker,
          identity: '',
          operator_address: validator.operatorAddress,
        });
        expect(found.get(stranger)).toEqual({ moniker: '', identity: '', operator_address: stranger });
        /** A directory over `base` that counts its validator look-ups; a failure is retried after 1 ms. */
        const counting = (base: RestClient) => {
          let calls = 0;
          const directory = createProposerDirectory({
            rest: {
              ...base,
              validator: (valoper, signal) => {
                calls += 1;
                return base.validator(valoper, signal);
              },
            },
            cacheSize: 10,
            retryAfterMs: 1,
            logger,
          });
          return { directory, calls: () => calls };
        };
        // Block lists read at once that name proposers not yet known ask the node once per proposer.
        const counted = counting(rest);
        await Promise.all(
          Array.from({ length: 20 }, () => counted.directory.lookup([validator.operatorAddress, stranger])),
        );
        expect(counted.calls()).toBe(2);
        // The node's "not found" is an answer, kept past a failure's retry: the stranger is not asked again.
        await new Promise((resolve) => setTimeout(resolve, 20));
        expect((await counted.directory.lookup([stranger])).get(stranger)!.moniker).toBe('');
        expect(counted.calls()).toBe(2);
        const dead = counting(createRestClient(['http://127.0.0.1:9'], { timeoutMs: 500 }));
        const deadFound = await dead.directory.lookup([validator.operatorAddress]);
        expect(deadFound.get(validator.operatorAddress)!.moniker).toBe('');
        // A node that did not answer is asked again once the retry delay is over.
        await new Promise((resolve) => setTimeout(resolve, 20));
        await dead.directory.lookup([validator.operatorAddress]);
        expect(dead.calls()).toBe(2);
      });

      it('lists every tx, in block order, with an exact total', async () => {
        const head = chain.chain.latestHeight();
        const expected: string[] = [];
        for (let h = head; h >= 1; h -= 1)
          expected.push(
            ...chain.chain
              .getBlock(h)!
              .txs.map((t) => t.hash)
              .reverse(),
          );
        const txs = await walkAll('/indexer/tx/v1/txs', {}, {}, 'txs', (t) => t.txhash);
        expect(txs.map((t) => t.txhash)).toEqual(expected);
        for (const tx of txs.filter((_, i) => i % 17 === 0)) {
          for (const hash of [tx.txhash, tx.txhash.toLowerCase(), `0x${tx.txhash}`]) {
            expect((await client.get('/indexer/tx/v1/txs/{tx_hash}', { tx_hash: hash })).body.tx).toEqual(tx);
          }
        }
        await client.get('/indexer/tx/v1/txs/{tx_hash}', { tx_hash: 'ab'.repeat(32) }, {}, 404);
      });

      it('lists the txs of a height in block order', async () => {
        for (const height of [1, 2, Math.floor(BLOCKS / 2), chain.chain.latestHeight()]) {
          const record = chain.chain.getBlock(height)!;
          const { body } = await client.get(
            '/indexer/tx/v1/txs/by_height/{height}',
            { height },
            { 'pagination.reverse': false },
          );
          expect(body.txs.map((t: any) => t.txhash)).toEqual(record.txs.map((t) => t.hash));
          expect(body.pagination.total).toBe(String(record.txs.length));
          await walkAll('/indexer/tx/v1/txs/by_height/{height}', { height }, {}, 'txs', (t) => t.txhash);
        }
      });

      it('filters txs by msg type, repeated or comma-separated, with or without "/"', async () => {
        const all = (await client.walk('/indexer/tx/v1/txs', {}, { 'pagination.limit': 1000 }, 'txs')).items;
        const typesOf = (tx: any) =>
          new Set<string>(tx.tx.body.messages.map((m: any) => m['@type'].slice(1)));
        const types = [...new Set(all.flatMap((t) => [...typesOf(t)]))].sort();
        expect(types.length).toBeGreaterThan(1);
        for (const type of types) {
          const expected = all.filter((t) => typesOf(t).has(type)).map((t) => t.txhash);
          const listed = await walkAll('/indexer/tx/v1/txs', {}, { msgs: type }, 'txs', (t) => t.txhash);
          expect(listed.map((t) => t.txhash)).toEqual(expected);
          const slashed = await client.get(
            '/indexer/tx/v1/txs',
            {},
            { msgs: `/${type}`, 'pagination.limit': 1000 },
          );
          expect(slashed.body.pagination.total).toBe(String(expected.length));
        }
        const [a, b] = [types[0]!, types[types.length - 1]!];
        const union = all.filter((t) => typesOf(t).has(a) || typesOf(t).has(b)).map((t) => t.txhash);
        for (const msgs of [`${a},${b}`, [a, b], [`/${a}`, `${b},nope.v1.MsgNothing`]]) {
          const { body } = await client.get('/indexer/tx/v1/txs', {}, { msgs, 'pagination.limit': 1000 });
          expect(body.txs.map((t: any) => t.txhash)).toEqual(union);
          expect(body.pagination.total).toBe(String(union.length));
        }
        const none = await client.get('/indexer/tx/v1/txs', {}, { msgs: 'nope.v1.MsgNothing' });
        expect(none.body).toEqual({
          txs: [],
          pagination: { previous_key: null, next_key: null, total: '0' },
        });
        const height = all[0].height;
        const atHeight = all.filter((t) => t.height === height && typesOf(t).has(a)).map((t) => t.txhash);
        const { body } = await client.get('/indexer/tx/v1/txs/by_height/{height}', { height }, { msgs: a });
        expect(body.txs.map((t: any) => t.txhash)).toEqual(atHeight);
      });

      it('lists the txs of every account, as signer and by msg type, with exact totals', async () => {
        const all = (await client.walk('/indexer/tx/v1/txs', {}, { 'pagination.limit': 1000 }, 'txs')).items;
        for (const account of chain.accounts) {
          const id = `(SELECT id FROM account WHERE address = decode($1, 'hex'))`;
          const hex = account.hexAddress.slice(2);
          const touching = await walkAll(
            '/indexer/tx/v1/txs/by_account/{account}',
            { account: account.address },
            {},
            'txs',
            (t) => t.txhash,
          );
          expect(String(touching.length)).toBe(
            await count(`SELECT count(*) AS n FROM tx_account WHERE account_id = ${id}`, [hex]),
          );
          const signed = await walkAll(
            '/indexer/tx/v1/txs/by_account/{account}',
            { account: account.address },
            { is_signer: true },
            'txs',
            (t) => t.txhash,
          );
          const signedHere = all.filter(
            (t) =>
              t.tx.auth_info.signer_infos[0]?.public_key?.key ===
              Buffer.from(account.publicKey).toString('base64'),
          );
          expect(signed.map((t) => t.txhash)).toEqual(signedHere.map((t) => t.txhash));
          expect(signed.every((t) => touching.some((u) => u.txhash === t.txhash))).toBe(true);
          for (const form of [account.hexAddress, hex.toUpperCase()]) {
            const { body } = await client.get(
              '/indexer/tx/v1/txs/by_account/{account}',
              { account: form },
              { 'pagination.limit': 1000 },
            );
            expect(body.txs.map((t: any) => t.txhash)).toEqual(touching.map((t) => t.txhash));
          }
          const type = signedHere[0]?.tx.body.messages[0]['@type'].slice(1);
          if (type) {
            const typed = (t: any) => t.tx.body.messages.some((m: any) => m['@type'] === `/${type}`);
            const mine = await walkAll(
              '/indexer/tx/v1/txs/by_account/{account}',
              { account: account.address },
              { msgs: type },
              'txs',
              (t) => t.txhash,
            );
            expect(mine.map((t) => t.txhash)).toEqual(touching.filter(typed).map((t) => t.txhash));
            const mineSigned = await walkAll(
              '/indexer/tx/v1/txs/by_account/{account}',
              { account: account.address },
              { msgs: type, is_signer: true },
              'txs',
              (t) => t.txhash,
            );
            expect(mineSigned.map((t) => t.txhash)).toEqual(signed.filter(typed).map((t) => t.txhash));
          }
        }
        const stranger = toBech32(chain.chain.info.bech32Prefix, new Uint8Array(20).fill(7));
        const { body } = await client.get('/indexer/tx/v1/txs/by_account/{account}', { account: stranger });
        expect(body).toEqual({ txs: [], pagination: { previous_key: null, next_key: null, total: '0' } });
      });

      describeNftReads(reads);
      describeVmReads(reads);
    });
  }
}
