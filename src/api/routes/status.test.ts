import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../common/logger.js';
import { startDevnet } from '../../devnet/devnet.js';
import { type Db, openDb } from '../../store/db.js';
import { migrate } from '../../store/migrate.js';
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
