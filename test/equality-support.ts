import { expect, it } from 'vitest';
import { fromBech32 } from 'weft/chain/address.js';
import { silentLogger } from 'weft/common/logger.js';
import type { Db } from 'weft/store/db.js';
import { decodeRecord } from 'weft/store/record-codec.js';
import type { DevnetChain } from 'weft-devnet/devnet.js';
import type { BlockRecord } from 'weft-devnet/node.js';
import { configFor, reached, startIndexer, waitFor } from './indexer-support.js';

/**
 * The indexer's database against what the devnet says it produced: every block, tx, receipt, internal
 * call, live NFT and rich-list holder. The devnet side is read from its block records and answered by its
 * node extensions, never from the indexer's own decoding.
 */

const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const OWNER_OF = '0x6352211e';
const BALANCE_OF = '0x70a08231';
const FIRST_TRACEABLE = 2;

/** Addresses compared as lowercase hex without leading zeros (the store pads 20- and 32-byte forms alike). */
const addressKey = (hex: string) => hex.toLowerCase().replace(/^0x/, '').replace(/^0+/, '');
const bytesKey = (bytes: Uint8Array) => addressKey(Buffer.from(bytes).toString('hex'));
const bech32Key = (address: string) => bytesKey(fromBech32(address).bytes);
const word = (hex: string) => addressKey(hex).padStart(64, '0');

export function* successfulEvents(record: BlockRecord) {
  for (const tx of record.txs) {
    if (tx.result.code !== 0) continue;
    for (const e of tx.result.events) {
      yield {
        type: e.type,
        attrs: new Map((e.attributes ?? []).map((a) => [a.key, a.value])),
        list: e.attributes ?? [],
      };
    }
  }
}

/** Counts the frames of a callTracer result, the root included. */
const frames = (frame: Record<string, unknown>): number =>
  1 + ((frame.calls as Array<Record<string, unknown>> | undefined) ?? []).reduce((n, c) => n + frames(c), 0);

/** Live NFTs as `collection|token|owner`, from the committed events' candidates and the node's answers. */
async function devnetNfts(chain: DevnetChain, records: BlockRecord[]): Promise<Set<string>> {
  const node = chain.chain;
  const live = new Set<string>();
  if (chain.vm === 'evm') {
    const tokens = new Set<string>();
    for (const record of records)
      for (const e of successfulEvents(record)) {
        if (e.type !== 'evm') continue;
        for (const { key, value } of e.list) {
          if (key !== 'log') continue;
          const log = JSON.parse(value) as { address: string; topics?: string[] };
          if (log.topics?.length === 4 && log.topics[0] === TRANSFER_TOPIC)
            tokens.add(`${log.address.toLowerCase()}|${log.topics[3]}`);
        }
      }
    for (const token of tokens) {
      const [collection, id] = token.split('|') as [string, string];
      const answer = await node.evm!.call({ to: collection, data: `${OWNER_OF}${word(id)}` });
      if (answer.error) continue;
      live.add(`${addressKey(collection)}|${BigInt(id)}|${addressKey(answer.returnData.slice(-40))}`);
    }
  } else if (chain.vm === 'move') {
    const objects = new Set<string>();
    for (const record of records)
      for (const e of successfulEvents(record)) {
        if (e.type !== 'move' || e.attrs.get('type_tag') !== '0x1::collection::MintEvent') continue;
        objects.add((JSON.parse(e.attrs.get('data')!) as { nft: string }).nft);
      }
    for (const object of objects) {
      const nft = node.move!.resource(object, '0x1::nft::Nft');
      if (!nft) continue;
      const core = node.move!.resource(object, '0x1::object::ObjectCore')!;
      const data = JSON.parse(nft.move_resource).data as { collection: { inner: string }; token_id: string };
      const owner = (JSON.parse(core.move_resource).data as { owner: string }).owner;
      live.add(`${addressKey(data.collection.inner)}|${data.token_id}|${addressKey(owner)}`);
    }
  } else {
    const contracts = new Set<string>();
    for (const record of records)
      for (const e of successfulEvents(record)) {
        const contract = e.attrs.get('_contract_address');
        if (e.type === 'wasm' && contract && e.attrs.get('action') === 'mint') contracts.add(contract);
      }
    for (const contract of contracts) {
      let after: string | undefined;
      for (;;) {
        const page = node.wasm!.smartQuery(contract, {
          all_tokens: { limit: 100, ...(after === undefined ? {} : { start_after: after }) },
        }) as { tokens: string[] };
        for (const id of page.tokens) {
          const { owner } = node.wasm!.smartQuery(contract, { owner_of: { token_id: id } }) as {
            owner: string;
          };
          live.add(`${bech32Key(contract)}|${id}|${bech32Key(owner)}`);
        }
        if (page.tokens.length < 100) break;
        after = page.tokens.at(-1);
      }
    }
  }
  return live;
}

async function dbNfts(db: Db): Promise<Set<string>> {
  const rows = await db.query<{ addr: Buffer; token_id: string; owner: Buffer }>(
    `SELECT c.addr, n.token_id, a.address AS owner
       FROM nft n JOIN nft_collection c ON c.id = n.collection_id JOIN account a ON a.id = n.owner_id`,
  );
  return new Set(rows.map((r) => `${bytesKey(r.addr)}|${r.token_id}|${bytesKey(r.owner)}`));
}

const sorted = <T>(values: Iterable<T>) => [...values].sort();

/** A chain indexed from height 1 to `height` into `db`, with the devnet's records of those heights. */
export interface IndexedChain {
  chain: DevnetChain;
  height: number;
  records: BlockRecord[];
  db: Db;
}

/** Indexes `chain` (already at `height` or beyond) from genesis to `height` into `db`, as `weft indexer` does. */
export async function indexChain(chain: DevnetChain, height: number, db: Db): Promise<IndexedChain> {
  const records = Array.from({ length: height }, (_, i) => chain.chain.getBlock(i + 1)!);
  const config = configFor(chain, { batchSize: 100 });
  const running = startIndexer(config, db, silentLogger());
  try {
    await waitFor(
      `the catch-up of ${chain.chain.info.chainId}`,
      () => reached(running, config, height),
      80_000,
    );
  } finally {
    await running.stop();
  }
  return { chain, height, records, db };
}

/** How much the run must have produced for the comparison to mean something. */
export interface EqualityFloors {
  txs: number;
  evmReceipts: number;
  nfts: number;
}

/** The tests that the database of `indexed()` equals the devnet; declared in the calling describe block. */
export function itEqualsTheDevnet(indexed: () => IndexedChain, floors: EqualityFloors) {
  const vm = () => indexed().chain.vm;

  it('has every block with its hash and tx count', async () => {
    const { db, records } = indexed();
    const rows = await db.query<{ height: string; hash: Buffer; tx_count: number }>(
      'SELECT height, hash, tx_count FROM block ORDER BY height',
    );
    expect(
      rows.map((r) => [Number(r.height), r.hash.toString('hex').toUpperCase(), Number(r.tx_count)]),
    ).toEqual(records.map((r) => [r.height, r.block.block_id.hash, r.txs.length]));
  });

  it('has every tx with its hash, height and code', async () => {
    const { db, records } = indexed();
    const stored = await db.query<{ hash: Buffer; height: string; record: Uint8Array }>(
      'SELECT hash, height, record FROM tx ORDER BY sequence',
    );
    const rows = stored.map((r) => ({ ...r, code: JSON.parse(decodeRecord(r.record)).code as number }));
    const expected = records.flatMap((r) => r.txs.map((tx) => [tx.hash, r.height, tx.result.code]));
    expect(expected.length).toBeGreaterThan(floors.txs);
    expect(expected.some(([, , code]) => code !== 0)).toBe(true);
    expect(rows.map((r) => [r.hash.toString('hex').toUpperCase(), Number(r.height), Number(r.code)])).toEqual(
      expected,
    );
  });

  it('has every receipt and every internal call (evm)', async (context) => {
    if (vm() !== 'evm') return context.skip();
    const { db, records } = indexed();
    const receipts = records.flatMap((r) =>
      r.evm!.receipts.map((x) => String(x.transactionHash).toLowerCase()),
    );
    const evmTxs = await db.query<{ hash: Buffer }>('SELECT hash FROM evm_tx ORDER BY sequence');
    expect(receipts.length).toBeGreaterThan(floors.evmReceipts);
    expect(evmTxs.map((r) => `0x${r.hash.toString('hex')}`)).toEqual(receipts);

    // The node refuses to trace genesis (height 1), as minievm does: its calls are not served, nor indexed.
    const traced = records.filter((r) => r.height >= FIRST_TRACEABLE);
    const expected = new Map<string, number>();
    for (const r of traced)
      for (const t of r.evm!.traces)
        if (!t.error && t.result) expected.set(t.txHash.toLowerCase(), frames(t.result));
    const total = [...expected.values()].reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(expected.size);
    const rows = await db.query<{ hash: Buffer; n: string }>(
      `SELECT e.hash, count(*) AS n FROM evm_internal_tx i JOIN evm_tx e ON e.sequence = i.evm_tx_sequence
        GROUP BY e.hash`,
    );
    const stored = new Map(rows.map((r) => [`0x${r.hash.toString('hex')}`, Number(r.n)]));
    expect(sorted(stored)).toEqual(sorted(expected));
    const [internal] = await db.query<{ n: string }>('SELECT count(*) AS n FROM evm_internal_tx');
    expect(Number(internal!.n)).toBe(total);
  });

  it('has exactly the live NFTs with their owners', async () => {
    const { chain, db, records } = indexed();
    const expected = await devnetNfts(chain, records);
    expect(expected.size).toBeGreaterThan(floors.nfts);
    expect(sorted(await dbNfts(db))).toEqual(sorted(expected));
  });

  it('has every rich-list holder at its balanceOf (evm)', async (context) => {
    if (vm() !== 'evm') return context.skip();
    const { chain, db, height } = indexed();
    const rows = await db.query<{ denom: string; address: Buffer; amount: string }>(
      `SELECT d.name AS denom, a.address, r.amount::text AS amount
         FROM rich_list r JOIN denom d ON d.id = r.denom_id JOIN account a ON a.id = r.account_id`,
    );
    expect(new Set(rows.map((r) => r.denom)).size).toBeGreaterThan(1);
    const contractOf = (denom: string) =>
      denom.startsWith('0x') ? denom : chain.chain.evm!.contractByDenom(denom)!;
    const balanceOf = async (denom: string, holder: string) => {
      const answer = await chain.chain.evm!.call(
        { to: contractOf(denom), data: `${BALANCE_OF}${word(holder)}` },
        height,
      );
      expect(answer.error).toBeUndefined();
      return BigInt(answer.returnData).toString();
    };
    const mismatches: string[] = [];
    for (const row of rows) {
      const holder = row.address.toString('hex');
      const balance = await balanceOf(row.denom, holder);
      if (balance !== row.amount) mismatches.push(`${row.denom} ${holder}: ${row.amount} ≠ ${balance}`);
    }
    // And no test account holding a listed token is missing from its list.
    const listed = new Set(rows.map((r) => `${r.denom}|${bytesKey(r.address)}`));
    for (const denom of new Set(rows.map((r) => r.denom)))
      for (const account of chain.accounts) {
        const balance = await balanceOf(denom, account.hexAddress);
        if (balance !== '0' && !listed.has(`${denom}|${addressKey(account.hexAddress)}`))
          mismatches.push(`${denom} ${account.hexAddress}: missing, holds ${balance}`);
      }
    expect(mismatches).toEqual([]);
  });
}
