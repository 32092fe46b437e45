import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadApiConfig } from 'weft/api/config.js';
import { startApi } from 'weft/cli/api.js';
import { silentLogger } from 'weft/common/logger.js';
import { createShutdown } from 'weft/common/shutdown.js';
import type { Db } from 'weft/store/db.js';
import type { Devnet } from '../devnet.js';
import { testDevnet } from '../test-support/devnet.js';
import { openDevStores } from './store.js';

const dir = mkdtempSync(join(tmpdir(), 'weft-dev-store-'));
const shutdown = createShutdown();
afterAll(async () => {
  await shutdown.kill();
  rmSync(dir, { recursive: true, force: true });
});

describe('the dev stack’s stores', () => {
  it('answers a chain’s API while another chain’s write transaction is open', async () => {
    const devnet: Devnet = await testDevnet({
      seed: 'dev-store',
      vms: ['evm', 'move'],
      accounts: 2,
      txsPerBlock: 0,
    });
    shutdown.add(() => devnet.close());
    const stores = await openDevStores(
      join(dir, 'store'),
      devnet.chains.map((chain) => chain.chain.info.chainId),
      silentLogger(),
      (store) => shutdown.add(() => store.db.close()),
    );
    const [a, b] = stores.chains.map((store) => store.db) as [Db, Db];
    const chainB = devnet.chains[1]!.chain.info;
    const config = loadApiConfig({
      argv: [],
      env: {
        HOST: '127.0.0.1',
        PORT: '0',
        CHAIN_ID: chainB.chainId,
        VM_TYPE: 'move',
        BECH32_PREFIX: chainB.bech32Prefix,
        REST_URL: devnet.chains[1]!.urls.rest,
        LOG_LEVEL: 'silent',
      },
    });
    const { url } = await startApi(config, { logger: silentLogger(), shutdown, db: b });

    const events: string[] = [];
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let holding!: () => void;
    const held = new Promise<void>((resolve) => {
      holding = resolve;
    });
    const writing = a.transaction(async (tx) => {
      await tx.exec('CREATE TABLE held (n int4)');
      await tx.query('INSERT INTO held VALUES ($1)', [1]);
      holding();
      await released;
      events.push('A committed');
    });
    await held;
    const readOfA = a.query('SELECT sum(n)::int4 AS n FROM held').then((rows) => {
      events.push('A read');
      return rows;
    });
    try {
      for (const path of ['/status', '/indexer/tx/v1/txs?pagination.limit=10']) {
        // Bounded only so that a read stuck behind A's transaction fails here instead of hanging.
        const response = await fetch(`${url}${path}`, { signal: AbortSignal.timeout(60_000) });
        expect(response.status, path).toBe(200);
        events.push(`B ${path.split('?')[0]}`);
      }
    } finally {
      release();
    }
    await writing;
    expect(await readOfA).toEqual([{ n: 1 }]);
    // B's reads answered while A's transaction held A's store; A's own read waited for its commit.
    expect(events).toEqual(['B /status', 'B /indexer/tx/v1/txs', 'A committed', 'A read']);
  });
});
