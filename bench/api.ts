import { createHash } from 'node:crypto';
import pg from 'pg';
import { encodeKey } from '../src/api/pagination.js';
import { createApiServer } from '../src/api/server.js';
import { toBech32 } from '../src/chain/address.js';
import { loadSettings, parse } from '../src/common/config.js';
import { type Db, openDb } from '../src/store/db.js';
import { migrate } from '../src/store/migrate.js';
import type { IndexedBlock, IndexedEvmTx, IndexedTx, NftChange } from '../src/store/records.js';
import { createBlockWriter } from '../src/store/writer.js';
import { type LoadResult, runLoad, startLoadWorker } from './load.js';

/**
 * Read API throughput: a store of (default) 1,000,000 txs written through the real writer from
 * devnet-shaped blocks, served by one API process, loaded by autocannon in a child process at 32
 * connections over at least 1,000 distinct accounts, hashes and cursors. Every figure is also
 * given as a ratio to a trivial JSON route on the same server (the framework's ceiling). The
 * response cache is off unless `--cache` is given, so the figures are those of the store path.
 *
 * The database (`weft_bench_api_<txs>`) is kept and reused when complete; `--rebuild` makes it anew.
 */

const CHAIN_ID = 'bench-evm-1';
const PREFIX = 'init';
const TXS_PER_BLOCK = 50;
const ACCOUNTS = 20_000;
const CONTRACT = `0x${'e2'.repeat(20)}`;
const COLLECTIONS = 50;

// Accounts 1 (≈100,000 txs), 2–11 (≈10,000 each), 12–111 (≈1,000 each); the rest ≈130 each.
const HOT = 1;
const WARM = Array.from({ length: 10 }, (_, i) => 2 + i);
const MILD = Array.from({ length: 100 }, (_, i) => 12 + i);

function accountBytes(n: number): Uint8Array {
  const bytes = new Uint8Array(20);
  bytes[0] = 0x22;
  new DataView(bytes.buffer).setUint32(16, n);
  return bytes;
}

const hash32 = (label: string) => new Uint8Array(createHash('sha256').update(label).digest());
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

function createRandom(seed: number) {
  let state = seed >>> 0 || 1;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 2 ** 32;
  };
}

const GENESIS_MS = Date.UTC(2026, 0, 1);
const blockTime = (height: number) =>
  new Date(GENESIS_MS + height * 500).toISOString().replace('Z', '123456Z');

const MSG_TYPES = [
  'cosmos.bank.v1beta1.MsgSend',
  'minievm.evm.v1.MsgCall',
  'cosmos.bank.v1beta1.MsgMultiSend',
  'ibc.applications.transfer.v1.MsgTransfer',
];

/** A Cosmos tx record of the shape (and about the size) the decoder writes for a bank send. */
function txRecord(
  hash: Uint8Array,
  height: number,
  msgType: string,
  from: string,
  to: string,
  sequence: number,
) {
  const amount = String(1000 + (sequence % 9000));
  const attr = (key: string, value: string) => ({ key, value, index: true });
  return {
    txhash: hex(hash).toUpperCase(),
    height: String(height),
    codespace: '',
    code: 0,
    data: '12260A242F636F736D6F732E62616E6B2E763162657461312E4D736753656E64526573706F6E7365',
    raw_log: '',
    logs: [],
    info: '',
    gas_wanted: '200000',
    gas_used: String(80_000 + (sequence % 5000)),
    tx: {
      body: {
        messages: [
          { '@type': `/${msgType}`, from_address: from, to_address: to, amount: [{ denom: 'GAS', amount }] },
        ],
        memo: '',
        timeout_height: '0',
        extension_options: [],
        non_critical_extension_options: [],
      },
      auth_info: {
        signer_infos: [
          {
            public_key: {
              '@type': '/initia.crypto.v1beta1.ethsecp256k1.PubKey',
              key: Buffer.from(hash).toString('base64').slice(0, 44),
            },
            mode_info: { single: { mode: 'SIGN_MODE_DIRECT' } },
            sequence: String(sequence % 1000),
          },
        ],
        fee: { amount: [{ denom: 'GAS', amount: '3000' }], gas_limit: '200000', payer: '', granter: '' },
        tip: null,
      },
      signatures: [Buffer.concat([hash, hash]).toString('base64')],
    },
    timestamp: blockTime(height).replace('123456Z', '123456789Z'),
    events: [
      {
        type: 'coin_spent',
        attributes: [attr('spender', from), attr('amount', '3000GAS'), attr('msg_index', '0')],
      },
      {
        type: 'coin_received',
        attributes: [
          attr('receiver', 'init17xpfvakm2amg962yls6f84z3kell8c5l70rnql'),
          attr('amount', '3000GAS'),
        ],
      },
      { type: 'tx', attributes: [attr('fee', '3000GAS'), attr('fee_payer', from)] },
      { type: 'tx', attributes: [attr('acc_seq', `${from}/${sequence % 1000}`)] },
      {
        type: 'message',
        attributes: [
          attr('action', `/${msgType}`),
          attr('sender', from),
          attr('module', 'bank'),
          attr('msg_index', '0'),
        ],
      },
      {
        type: 'transfer',
        attributes: [
          attr('recipient', to),
          attr('sender', from),
          attr('amount', `${amount}GAS`),
          attr('msg_index', '0'),
        ],
      },
    ],
  };
}

function evmTx(
  hash: Uint8Array,
  height: number,
  index: number,
  from: Uint8Array,
  to: Uint8Array,
): IndexedEvmTx {
  const h = (n: number) => `0x${n.toString(16)}`;
  const blockHash = `0x${hex(hash32(`block:${height}`))}`;
  return {
    hash,
    index,
    signer: from,
    accounts: [
      { address: from, signer: true },
      { address: to, signer: false },
    ],
    record: {
      blockHash,
      blockNumber: h(height),
      contractAddress: null,
      cumulativeGasUsed: h(21_000 * (index + 1)),
      effectiveGasPrice: '0x0',
      from: `0x${hex(from)}`,
      gasUsed: '0x5208',
      logs: [],
      logsBloom: `0x${'0'.repeat(512)}`,
      status: '0x1',
      to: `0x${hex(to)}`,
      transactionHash: `0x${hex(hash)}`,
      transactionIndex: h(index),
      type: '0x2',
    },
  };
}

/** Blocks [from, to], deterministic from their heights. */
function generateBlocks(from: number, to: number): IndexedBlock[] {
  const blocks: IndexedBlock[] = [];
  for (let height = from; height <= to; height += 1) {
    const random = createRandom(height * 7919);
    const uniform = () => 1 + Math.floor(random() * ACCOUNTS);
    const txs: IndexedTx[] = [];
    const evmTxs: IndexedEvmTx[] = [];
    for (let index = 0; index < TXS_PER_BLOCK; index += 1) {
      const sequence = (height - 1) * TXS_PER_BLOCK + index + 1;
      const signer = uniform();
      const a = sequence % 10 === 0 ? HOT : uniform();
      const b =
        sequence % 10 === 1
          ? WARM[Math.floor(sequence / 10) % 10]!
          : sequence % 10 === 2
            ? MILD[Math.floor(sequence / 10) % 100]!
            : uniform();
      const [signerBytes, aBytes, bBytes] = [accountBytes(signer), accountBytes(a), accountBytes(b)];
      const hash = hash32(`tx:${sequence}`);
      const msgType =
        MSG_TYPES[sequence % 5 === 0 ? 1 : sequence % 7 === 0 ? 2 : sequence % 11 === 0 ? 3 : 0]!;
      txs.push({
        hash,
        index,
        code: 0,
        signer: signerBytes,
        msgTypes: [msgType],
        accounts: [
          { address: signerBytes, signer: true },
          { address: aBytes, signer: false },
          { address: bBytes, signer: false },
        ],
        record: txRecord(
          hash,
          height,
          msgType,
          toBech32(PREFIX, signerBytes),
          toBech32(PREFIX, bBytes),
          sequence,
        ),
        nfts: [],
      });
      if (msgType === 'minievm.evm.v1.MsgCall')
        evmTxs.push(evmTx(hash32(`eth:${sequence}`), height, evmTxs.length, signerBytes, bBytes));
    }
    const nftChanges: NftChange[] = [];
    if (height <= COLLECTIONS) {
      nftChanges.push({
        kind: 'collection',
        collection: accountBytes(1_000_000 + height),
        name: `Bench Collection ${height}`,
        creator: accountBytes(uniform()),
        txIndex: 0,
      });
    }
    for (let k = 0; k < 2; k += 1) {
      const collection = accountBytes(1_000_000 + 1 + ((height + k) % Math.min(height, COLLECTIONS)));
      const owner = k === 0 && height % 5 === 0 ? HOT : 1 + ((height * 2 + k) % 2000);
      nftChanges.push({
        kind: 'mint',
        nft: { collection, tokenId: String(height * 2 + k) },
        owner: accountBytes(owner),
        uri: `ipfs://bench/${height}/${k}`,
        txIndex: k,
      });
    }
    const fee = String(3000 * txs.length);
    blocks.push({
      height,
      hash: hash32(`block:${height}`),
      time: blockTime(height),
      proposer: 'initvaloper1qypqxpq9qcrsszg2pvxq6rs0zqg3yyc5lzv7xu',
      gasUsed: 4_000_000n,
      gasWanted: 10_000_000n,
      txCount: txs.length,
      totalFee: [{ denom: 'GAS', amount: fee }],
      txs,
      evmTxs,
      nftChanges,
      nftOrigins: [],
    });
  }
  return blocks;
}

async function admin(dsn: string, sql: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: dsn });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

/** Opens the bench database, building it first unless a complete one is there. */
async function benchStore(settings: {
  dsn: string;
  txs: number;
  rebuild: boolean;
  poolSize: number;
}): Promise<{ db: Db; buildSeconds: number | null }> {
  const blocks = Math.ceil(settings.txs / TXS_PER_BLOCK);
  const database = `weft_bench_api_${settings.txs}`;
  const exists =
    (await admin(settings.dsn, `SELECT 1 FROM pg_database WHERE datname = '${database}'`)).length > 0;
  const url = new URL(settings.dsn);
  url.pathname = `/${database}`;
  if (exists && !settings.rebuild) {
    const db = await openDb({ dsn: url.toString(), poolSize: settings.poolSize });
    // A store built by an older weft gets the newer migrations, as `weft indexer` would apply them.
    await migrate(db);
    const [row] = await db
      .query<{ height: string }>(`SELECT height FROM progress WHERE name = 'rich_list'`)
      .catch(() => []);
    if (row && Number(row.height) === blocks) return { db, buildSeconds: null };
    await db.close();
  }
  if (exists) await admin(settings.dsn, `DROP DATABASE ${database} WITH (FORCE)`);
  await admin(settings.dsn, `CREATE DATABASE ${database}`);
  const db = await openDb({ dsn: url.toString(), poolSize: settings.poolSize });
  await migrate(db);
  const writer = createBlockWriter(db, { chainId: CHAIN_ID, vm: 'evm', bech32Prefix: PREFIX });
  const started = performance.now();
  const batch = 100;
  for (let from = 1; from <= blocks; from += batch) {
    await writer.writeBlocks(generateBlocks(from, Math.min(blocks, from + batch - 1)));
    if ((from - 1) % 2000 === 0)
      process.stderr.write(`bench api: wrote ${from - 1 + batch} of ${blocks} blocks\n`);
  }
  const random = createRandom(99);
  const balances = Array.from({ length: ACCOUNTS }, (_, i) => ({
    account: accountBytes(i + 1),
    denom: CONTRACT,
    amount: BigInt(Math.floor(random() * 1e12)) * 1_000_000n + BigInt(i),
  }));
  await writer.richList.initialize(blocks, balances);
  // The state autovacuum reaches on insert-only tables: statistics, and visibility maps that let
  // the edge tables answer from their indexes alone.
  await db.exec('VACUUM ANALYZE');
  return { db, buildSeconds: (performance.now() - started) / 1000 };
}

export async function run(argv: string[]) {
  const settings = loadSettings(
    {
      txs: { flag: 'txs', description: 'txs in the store', parse: parse.int(10_000), default: 1_000_000 },
      seconds: { flag: 'seconds', description: 'load per scenario', parse: parse.int(1), default: 5 },
      connections: {
        flag: 'connections',
        description: 'autocannon connections',
        parse: parse.int(1),
        default: 32,
      },
      cache: {
        flag: 'cache',
        description: 'response cache on',
        parse: parse.bool,
        default: false,
        boolean: true,
      },
      poolSize: {
        flag: 'pool-size',
        description: 'PostgreSQL connections of the API (DB_POOL_SIZE; weft api’s default is 10)',
        parse: parse.int(1, 1000),
        default: 10,
      },
      recordCache: {
        flag: 'record-cache',
        description: 'megabytes of the API’s tx record cache (0: off; the API’s default is 64)',
        parse: parse.int(0),
        default: 64,
      },
      rebuild: {
        flag: 'rebuild',
        description: 'build the store anew',
        parse: parse.bool,
        default: false,
        boolean: true,
      },
      only: {
        flag: 'only',
        description: 'run only the scenarios whose name contains this text (and the ceiling)',
        parse: parse.string,
        default: '',
      },
      dsn: {
        flag: 'dsn',
        description: 'PostgreSQL server (the bench database is made on it)',
        parse: parse.string,
        default: 'postgres://postgres@127.0.0.1:5432/postgres',
      },
    },
    { argv, env: {} },
  );
  const { db, buildSeconds } = await benchStore(settings);
  let pageBody = '';
  const api = await createApiServer({
    db,
    chain: { chainId: CHAIN_ID, vm: 'evm', bech32Prefix: PREFIX, internalTx: true },
    cache: {
      enabled: settings.cache,
      size: 10_000,
      listTtlMs: 1000,
      itemTtlMs: 10_000,
      recordMb: settings.recordCache,
    },
    configure: (app) => {
      app.get('/bench/ping', async () => ({ pong: true }));
      // A by-account page's bytes with no store work: what sending them costs this server and the
      // load generator, the bound the by-account figures can approach.
      app.get('/bench/page', async (_request, reply) => reply.type('application/json').send(pageBody));
    },
  });
  const base = await api.listen('127.0.0.1', 0);
  const child = startLoadWorker();
  try {
    const bech = (n: number) => toBech32(PREFIX, accountBytes(n));
    const ordinary = Array.from({ length: 889 }, (_, i) => 200 + i * 19);
    const accounts = [HOT, ...WARM, ...MILD, ...ordinary].map(bech);
    pageBody = (await api.app.inject(`/indexer/tx/v1/txs/by_account/${accounts[0]}?pagination.limit=10`))
      .body;
    const hashes = (
      await db.query<{ hash: Buffer }>('SELECT hash FROM tx WHERE sequence % 997 = 0 LIMIT 1000')
    ).map((r) => r.hash.toString('hex'));
    const [{ n: blockCount }] = (await db.query<{ n: string }>(
      `SELECT n FROM counter WHERE name = 'block'`,
    )) as [{ n: string }];
    const blockKeys = Array.from({ length: 1000 }, (_, i) =>
      encodeKey({ height: Math.floor(((i + 1) * Number(blockCount)) / 1001) }),
    );
    const holderKeys = (
      await db.query<{ amount: string; account_id: string }>(
        `SELECT amount, account_id FROM (
           SELECT r.amount, r.account_id, row_number() OVER (ORDER BY r.amount DESC, r.account_id) AS n
           FROM rich_list r WHERE r.denom_id = (SELECT id FROM denom WHERE name = $1)) ranked
         WHERE n % 17 = 0 LIMIT 1000`,
        [CONTRACT],
      )
    ).map((r) => encodeKey({ amount: r.amount, accountId: Number(r.account_id) }));
    const nftOwners = [HOT, ...Array.from({ length: 999 }, (_, i) => 1 + i * 2)].map(bech);
    // Page 1,000 (rows 9,990–9,999) of the accounts with at least 10,000 txs, by key (a smaller
    // store walks as deep as its warm accounts allow).
    const deep = [HOT, ...WARM];
    const deepPage = Math.max(2, Math.min(1000, Math.floor(settings.txs / 1000)));
    const page1000 = [];
    for (const n of deep) {
      const [row] = await db.query<{ sequence: string }>(
        `SELECT e.sequence FROM tx_account e WHERE e.account_id = (SELECT id FROM account WHERE address = $1)
         ORDER BY e.sequence DESC OFFSET ${(deepPage - 1) * 10 - 1} LIMIT 1`,
        [accountBytes(n)],
      );
      page1000.push(
        `/indexer/tx/v1/txs/by_account/${bech(n)}?pagination.limit=10&pagination.key=${encodeURIComponent(encodeKey({ sequence: Number(row!.sequence) }))}`,
      );
    }

    const scenarios: Array<[string, string[]]> = [
      ['ceiling: trivial JSON route', ['/bench/ping']],
      ['reference: a by-account page (limit 10) as a static string', ['/bench/page']],
      ['/status', ['/status']],
      ['/indexer/tx/v1/txs?pagination.limit=10', ['/indexer/tx/v1/txs?pagination.limit=10']],
      [
        'txs by account, limit 10, count_total=true',
        accounts.map((a) => `/indexer/tx/v1/txs/by_account/${a}?pagination.limit=10`),
      ],
      [
        'txs by account, limit 10, count_total=false',
        accounts.map(
          (a) => `/indexer/tx/v1/txs/by_account/${a}?pagination.limit=10&pagination.count_total=false`,
        ),
      ],
      [
        'txs by account, limit 100',
        accounts.map((a) => `/indexer/tx/v1/txs/by_account/${a}?pagination.limit=100`),
      ],
      ['tx by hash', hashes.map((h) => `/indexer/tx/v1/txs/${h}`)],
      [
        'blocks, limit 10',
        blockKeys.map(
          (k) => `/indexer/block/v1/blocks?pagination.limit=10&pagination.key=${encodeURIComponent(k)}`,
        ),
      ],
      [
        'NFT tokens by account, limit 10',
        nftOwners.map((a) => `/indexer/nft/v1/tokens/by_account/${a}?pagination.limit=10`),
      ],
      [
        'rich list, limit 10',
        holderKeys.map(
          (k) =>
            `/indexer/richlist/v1/${CONTRACT}?pagination.limit=10&pagination.key=${encodeURIComponent(k)}`,
        ),
      ],
      [
        'cursor walk page 1 (accounts with ≥ 10,000 txs)',
        deep.map((n) => `/indexer/tx/v1/txs/by_account/${bech(n)}?pagination.limit=10`),
      ],
      ['cursor walk page 1,000 (same accounts)', page1000],
      // The count_total pair again, in the other order: their comparison is of both runs each, so
      // neither gains from its place in the sequence (a warmer cache, a quieter machine).
      [
        'txs by account, limit 10, count_total=false (2nd run)',
        accounts.map(
          (a) => `/indexer/tx/v1/txs/by_account/${a}?pagination.limit=10&pagination.count_total=false`,
        ),
      ],
      [
        'txs by account, limit 10, count_total=true (2nd run)',
        accounts.map((a) => `/indexer/tx/v1/txs/by_account/${a}?pagination.limit=10`),
      ],
    ];
    const results: Record<string, LoadResult & { distinct_urls: number; ratio_to_ceiling?: number }> = {};
    // A short warm-up so the first scenario does not pay for JIT and connections.
    await runLoad(child, {
      base,
      paths: accounts.map((a) => `/indexer/tx/v1/txs/by_account/${a}?pagination.limit=10`),
      connections: settings.connections,
      seconds: 2,
    });
    for (const [name, paths] of scenarios) {
      if (settings.only && !name.includes(settings.only) && !/^(ceiling|reference)/.test(name)) continue;
      const result = await runLoad(child, {
        base,
        paths,
        connections: settings.connections,
        seconds: settings.seconds,
      });
      results[name] = { ...result, distinct_urls: new Set(paths).size };
    }
    const ceiling = results['ceiling: trivial JSON route']!.requests_per_s;
    for (const result of Object.values(results))
      result.ratio_to_ceiling = Number((result.requests_per_s / ceiling).toFixed(3));
    const goals = settings.only ? undefined : goalsOf(results);
    return {
      txs: settings.txs,
      deep_page: deepPage,
      store: 'postgres',
      build_seconds: buildSeconds === null ? 'reused' : Number(buildSeconds.toFixed(1)),
      connections: settings.connections,
      seconds_per_scenario: settings.seconds,
      response_cache: settings.cache,
      record_cache_mb: settings.recordCache,
      pool_size: settings.poolSize,
      results,
      goals,
    };
  } finally {
    child.kill();
    await api.close();
    await db.close();
  }
}

type Results = Record<string, LoadResult & { ratio_to_ceiling?: number }>;

function goalsOf(results: Results) {
  const withTotal = results['txs by account, limit 10, count_total=true']!;
  const page1 = results['cursor walk page 1 (accounts with ≥ 10,000 txs)']!;
  const pageDeep = results['cursor walk page 1,000 (same accounts)']!;
  const reference = results['reference: a by-account page (limit 10) as a static string']!;
  const meanOfRuns = (name: string) => (results[name]!.mean_ms + results[`${name} (2nd run)`]!.mean_ms) / 2;
  const totalMean = meanOfRuns('txs by account, limit 10, count_total=true');
  const noTotalMean = meanOfRuns('txs by account, limit 10, count_total=false');
  return {
    by_account_with_totals_ratio_to_ceiling: withTotal.ratio_to_ceiling,
    static_page_ratio_to_ceiling: reference.ratio_to_ceiling,
    by_account_with_totals_over_static_page: Number(
      (withTotal.requests_per_s / reference.requests_per_s).toFixed(3),
    ),
    by_account_with_totals_ratio_ok: (withTotal.ratio_to_ceiling ?? 0) >= 0.2,
    by_account_with_totals_p99_ms: withTotal.p99_ms,
    by_account_with_totals_p99_ok: withTotal.p99_ms < 20,
    count_total_true_over_false_mean_latency: Number((totalMean / noTotalMean).toFixed(3)),
    count_total_ok: totalMean < 1.2 * noTotalMean,
    page_1000_over_page_1_p99: Number((pageDeep.p99_ms / Math.max(page1.p99_ms, 1)).toFixed(3)),
    page_1000_ok: pageDeep.p99_ms <= 1.5 * Math.max(page1.p99_ms, 1),
  };
}
