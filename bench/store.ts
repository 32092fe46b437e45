import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { loadSettings, parse } from 'weft/common/config.js';
import { checkCounters } from 'weft/store/counter-check.js';
import { type Db, openDb } from 'weft/store/db.js';
import { migrate } from 'weft/store/migrate.js';
import type { IndexedBlock } from 'weft/store/records.js';
import { syntheticChain } from 'weft/store/test-support/chain.js';
import { createBlockWriter } from 'weft/store/writer.js';

/**
 * Store write speed: synthetic blocks (default 20 txs of 5 account edges each, ~1 KB records,
 * optional EVM receipts, NFT activity) written in pipeline-sized batches to each back end.
 * `client_cpu_ms_per_block` is this process's CPU per block (for PGlite, the database included);
 * `server_cpu_ms_per_block` is the PostgreSQL backends' CPU, read from /proc on this machine. CPU
 * figures hold when the box is busy with other work; wall-clock rates do not.
 */
export async function run(argv: string[]) {
  const settings = loadSettings(
    {
      blocks: { flag: 'blocks', description: 'blocks to write', parse: parse.int(1), default: 3000 },
      txsPerBlock: {
        flag: 'txs-per-block',
        description: 'cosmos txs per block',
        parse: parse.int(0),
        default: 20,
      },
      accountsPerTx: {
        flag: 'accounts-per-tx',
        description: 'edges besides the signer',
        parse: parse.int(0),
        default: 4,
      },
      accounts: { flag: 'accounts', description: 'account population', parse: parse.int(1), default: 20_000 },
      batch: {
        flag: 'batch',
        description: 'blocks per write transaction',
        parse: parse.int(1),
        default: 100,
      },
      evm: {
        flag: 'evm',
        description: 'add an EVM receipt per tx',
        parse: parse.bool,
        default: false,
        boolean: true,
      },
      nfts: {
        flag: 'nfts',
        description: 'add NFT activity',
        parse: parse.bool,
        default: true,
        boolean: true,
      },
      backends: {
        flag: 'backends',
        description: 'back ends to measure',
        parse: parse.listOf(parse.oneOf(['postgres', 'pglite'] as const)),
        default: ['postgres', 'pglite'] as Array<'postgres' | 'pglite'>,
      },
      dsn: {
        flag: 'dsn',
        description: 'PostgreSQL server (a throw-away database is created on it)',
        parse: parse.string,
        default: 'postgres://postgres@127.0.0.1:5432/postgres',
      },
      dataDir: {
        flag: 'data-dir',
        description: 'PGlite data folder',
        parse: parse.string,
        default: 'memory://',
      },
    },
    { argv, env: {} },
  );
  const generated = performance.now();
  const chain = syntheticChain({
    blocks: settings.blocks,
    txsPerBlock: settings.txsPerBlock,
    accountsPerTx: settings.accountsPerTx,
    accounts: settings.accounts,
    seed: 42,
    evm: settings.evm,
    nfts: settings.nfts,
    recordPadding: 'x'.repeat(700),
  });
  const generateMs = performance.now() - generated;
  const results = [];
  for (const backend of settings.backends) {
    results.push(await measure(backend, chain, settings));
  }
  return {
    blocks: settings.blocks,
    txs_per_block: settings.txsPerBlock,
    batch: settings.batch,
    generate_ms: Math.round(generateMs),
    results,
  };
}

async function measure(
  backend: 'postgres' | 'pglite',
  chain: IndexedBlock[],
  settings: { batch: number; dsn: string; dataDir: string },
) {
  const database = `weft_bench_${randomBytes(4).toString('hex')}`;
  let dsn: string | undefined;
  if (backend === 'postgres') {
    await admin(settings.dsn, `CREATE DATABASE ${database}`);
    const url = new URL(settings.dsn);
    url.pathname = `/${database}`;
    dsn = url.toString();
  }
  const db = await openDb(dsn ? { dsn } : { dataDir: settings.dataDir });
  try {
    await migrate(db);
    const writer = createBlockWriter(db, { chainId: 'bench-1', vm: 'evm', bech32Prefix: 'init' });
    const serverBefore = await serverCpuMs(db);
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (let i = 0; i < chain.length; i += settings.batch)
      await writer.writeBlocks(chain.slice(i, i + settings.batch));
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    const serverAfter = await serverCpuMs(db);
    const tables = await db.query<{ table: string }>(
      `SELECT tablename AS table FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'schema_migrations'`,
    );
    const rows: Record<string, number> = {};
    for (const { table } of tables) {
      rows[table] = Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`))[0]!.n);
    }
    const totalRows = Object.values(rows).reduce((sum, n) => sum + n, 0);
    const problems = await checkCounters(db);
    return {
      backend,
      seconds: Number(seconds.toFixed(2)),
      blocks_per_s: Math.round(chain.length / seconds),
      txs_per_s: Math.round((rows.tx ?? 0) / seconds),
      tx_account_edges_per_s: Math.round((rows.tx_account ?? 0) / seconds),
      rows_per_s: Math.round(totalRows / seconds),
      rows,
      client_cpu_ms_per_block: Number(((used.user + used.system) / 1000 / chain.length).toFixed(2)),
      server_cpu_ms_per_block:
        serverAfter === undefined
          ? undefined
          : Number(
              (
                [...serverAfter].reduce((sum, [pid, ms]) => sum + ms - (serverBefore?.get(pid) ?? 0), 0) /
                chain.length
              ).toFixed(2),
            ),
      counters_exact: problems.length === 0,
    };
  } finally {
    await db.close();
    if (dsn) await admin(settings.dsn, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  }
}

async function admin(dsn: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: dsn });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** CPU time of each PostgreSQL backend serving this database (loopback server only). */
async function serverCpuMs(db: Db): Promise<Map<number, number> | undefined> {
  if (db.backend !== 'postgres') return undefined;
  const rows = await db.query<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE datname = current_database()',
  );
  const ticks = new Map<number, number>();
  try {
    for (const { pid } of rows) {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks.set(pid, ((Number(fields[11]) + Number(fields[12])) * 1000) / 100);
    }
  } catch {
    return undefined;
  }
  return ticks;
}
