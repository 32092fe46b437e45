import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet } from 'weft-devnet/devnet.js';
import { silentLogger } from '../../common/logger.js';
import { type Db, openDb } from '../../store/db.js';
import { migrate } from '../../store/migrate.js';
import { testBackends, useTestDb } from '../../store/test-support/backends.js';
import { makeBlock, syntheticChain } from '../../store/test-support/chain.js';
import { type BlockWriter, createBlockWriter } from '../../store/writer.js';
import { type ApiServer, createApiServer } from '../server.js';

/** `/status` over a store whose extensions trail the blocks: the lags tell by how much. */

const EVM = { chainId: 'status-1', vm: 'evm' as const, bech32Prefix: 'init', internalTx: true };
const NO_CACHE = { enabled: false, size: 0, listTtlMs: 0, itemTtlMs: 0 };

let db: Db;
let writer: BlockWriter;
let api: ApiServer;

beforeAll(async () => {
  db = await openDb({ dataDir: 'memory://' });
  await migrate(db);
  writer = createBlockWriter(db, EVM);
  // Blocks 1–8 carry txs, 9 and 10 are empty.
  await writer.writeBlocks([
    ...syntheticChain({ blocks: 8, txsPerBlock: 1, accountsPerTx: 1, accounts: 3, seed: 1 }),
    makeBlock(9),
    makeBlock(10),
  ]);
  api = await createApiServer({ db, chain: EVM, cache: NO_CACHE });
});

afterAll(async () => {
  await api?.close();
  await db?.close();
});

const status = async (server = api) => (await server.app.inject('/status')).json();
const noCalls = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => ({ height: from + i, calls: [] }));

describe('/status', () => {
  it('shows how far each extension is behind the indexed blocks', async () => {
    // Nothing traced yet: the height is left out as rollytics does, the lag is the whole chain.
    let body = await status();
    expect(body).toMatchObject({ height: 10, internal_tx_lag: 10 });
    expect(body).not.toHaveProperty('internal_tx_height');
    expect(body).not.toHaveProperty('rich_list_lag');

    await writer.writeInternalTxs(noCalls(1, 5));
    await writer.richList.initialize(4, []);
    body = await status();
    expect(body).toMatchObject({
      height: 10,
      internal_tx_height: 5,
      internal_tx_lag: 5,
      rich_list_height: 4,
      rich_list_lag: 6,
    });

    // Traced up to the last block with txs: caught up, as rollytics counts it.
    await writer.writeInternalTxs(noCalls(6, 8));
    await writer.richList.apply(10, []);
    body = await status();
    expect(body).toMatchObject({
      height: 10,
      internal_tx_height: 10,
      internal_tx_lag: 0,
      rich_list_height: 10,
      rich_list_lag: 0,
    });
    // rollytics' fields come first, in its order.
    expect(Object.keys(body)).toEqual([
      'version',
      'commit_hash',
      'chain_id',
      'height',
      'internal_tx_height',
      'rich_list_height',
      'internal_tx_lag',
      'rich_list_lag',
    ]);
  });

  it('has no lags where the extensions do not exist', async () => {
    const server = await createApiServer({
      db,
      chain: { ...EVM, vm: 'move', internalTx: false },
      cache: NO_CACHE,
    });
    try {
      const body = await status(server);
      expect(body.height).toBe(10);
      for (const key of ['internal_tx_height', 'internal_tx_lag', 'rich_list_height', 'rich_list_lag']) {
        expect(body).not.toHaveProperty(key);
      }
    } finally {
      await server.close();
    }
  });
});

describe('/status with the chain node', () => {
  it("adds the chain's height from its REST node and how far the index lags, and leaves both out when the node does not answer", async () => {
    const devnet = await startDevnet({
      seed: 'status',
      vms: ['move'],
      blockTimeMs: 1000,
      accounts: 2,
      txsPerBlock: 0,
      host: '127.0.0.1',
      portBase: 0,
      logger: silentLogger(),
    });
    const rollup = devnet.chains[0]!;
    const live = await createApiServer({ db, chain: EVM, cache: NO_CACHE, restUrls: [rollup.urls.rest] });
    try {
      await devnet.fastForward(14);
      const body = await status(live);
      expect(body).toMatchObject({ height: 10, chain_height: 14, lag: 4 });
      expect(Object.keys(body).slice(-2)).toEqual(['chain_height', 'lag']);
    } finally {
      await live.close();
      await devnet.close();
    }
    // The node is gone: the index's own fields still answer.
    const orphan = await createApiServer({ db, chain: EVM, cache: NO_CACHE, restUrls: [rollup.urls.rest] });
    try {
      const body = await status(orphan);
      expect(body.height).toBe(10);
      expect(body).not.toHaveProperty('chain_height');
      expect(body).not.toHaveProperty('lag');
    } finally {
      await orphan.close();
    }
  }, 60_000);
});

describe('/status under a low statement timeout (PostgreSQL)', async () => {
  const backends = await testBackends();
  const testDb = useTestDb('postgres');
  it.runIf(backends.includes('postgres'))(
    'answers while its tables are held past the timeout that cuts the other reads',
    async () => {
      const schema = 'status_timeout';
      const seed = await testDb.root().withSchema(schema);
      const bounded = await openDb({ dsn: testDb.dsn(), schema, poolSize: 2, statementTimeoutMs: 25 });
      const server = await createApiServer({ db: bounded, chain: EVM, cache: NO_CACHE });
      try {
        await migrate(seed);
        await createBlockWriter(seed, EVM).writeBlocks(
          syntheticChain({ blocks: 3, txsPerBlock: 1, accountsPerTx: 1, accounts: 2, seed: 2 }),
        );
        // Another session holds every table /status and the tx list read for 300 ms, past the 25 ms.
        const held = seed.transaction(async (tx) => {
          await tx.query('LOCK TABLE progress, block, tx IN ACCESS EXCLUSIVE MODE');
          await tx.query('SELECT pg_sleep(0.3)');
        });
        await new Promise((resolve) => setTimeout(resolve, 50));
        const [statusAnswer, listAnswer] = await Promise.all([
          server.app.inject('/status'),
          server.app.inject('/indexer/tx/v1/txs?pagination.limit=1'),
        ]);
        await held;
        expect([statusAnswer.statusCode, statusAnswer.json().height]).toEqual([200, 3]);
        // The client-shaped read is still cut, and the connection keeps its timeout afterwards.
        expect([listAnswer.statusCode, listAnswer.json().code]).toEqual([503, 8]);
        for (let i = 0; i < 2; i++) {
          expect(await bounded.query('SHOW statement_timeout')).toEqual([{ statement_timeout: '25ms' }]);
        }
      } finally {
        await server.close();
        await bounded.close();
        await seed.close();
      }
    },
  );
});
