import { createHash } from 'node:crypto';
import pg from 'pg';
import { toBech32 } from 'weft/chain/address.js';
import { type Db, openDb } from 'weft/store/db.js';
import { migrate } from 'weft/store/migrate.js';
import type { IndexedBlock, IndexedEvmTx, IndexedTx, NftChange } from 'weft/store/records.js';
import { createBlockWriter } from 'weft/store/writer.js';

/**
 * The store of `npm run bench -- api`: devnet-shaped blocks generated from their heights (bank sends,
 * EVM calls, NFT mints over a skewed account population), written through the real writer.
 */

export const CHAIN_ID = 'bench-evm-1';
export const PREFIX = 'init';
const TXS_PER_BLOCK = 50;
const ACCOUNTS = 20_000;
export const CONTRACT = `0x${'e2'.repeat(20)}`;
const COLLECTIONS = 50;

// Accounts 1 (≈100,000 txs), 2–11 (≈10,000 each), 12–111 (≈1,000 each); the rest ≈130 each.
export const HOT = 1;
export const WARM = Array.from({ length: 10 }, (_, i) => 2 + i);
export const MILD = Array.from({ length: 100 }, (_, i) => 12 + i);

export function accountBytes(n: number): Uint8Array {
  const bytes = new Uint8Array(20);
  bytes[0] = 0x22;
  new DataView(bytes.buffer).setUint32(16, n);
  return bytes;
}

const hash32 = (label: string) => new Uint8Array(createHash('sha256').update(label).digest());
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

export function createRandom(seed: number) {
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
export function generateBlocks(from: number, to: number): IndexedBlock[] {
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
export async function benchStore(settings: {
  dsn: string;
  txs: number;
  rebuild: boolean;
  poolSize: number;
}): Promise<{ db: Db; database: string; buildSeconds: number | null }> {
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
    if (row && Number(row.height) === blocks) return { db, database, buildSeconds: null };
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
  return { db, database, buildSeconds: (performance.now() - started) / 1000 };
}
