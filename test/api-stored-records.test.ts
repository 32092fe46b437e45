import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CACHE } from 'weft/api/config.js';
import type { ApiServer } from 'weft/api/server.js';
import { syntheticApi } from 'weft/api/test-support/synthetic-store.js';
import type { Db } from 'weft/store/db.js';
import { readVarint, varintLength, writeVarint } from 'weft/store/formats/varint.js';
import { decodeRecord } from 'weft/store/record-codec.js';

/**
 * The API splices stored records into its answers, inflating each where the answer is written: the
 * answers are the stored texts byte for byte, and a stored value that does not decode is a clear error
 * of the store for the answers that hold it, never a truncated or garbled page.
 */

let db: Db;
let api: ApiServer;
let close: (() => Promise<void>) | undefined;
beforeAll(async () => {
  // No response or record cache: every answer here is assembled from the records the store holds then
  // (records never change in a store; this test changes them under the server).
  ({ db, api, close } = await syntheticApi({ cache: { ...DEFAULT_CACHE, enabled: false, recordMb: 0 } }));
});
afterAll(() => close?.());

const stored = async () =>
  (
    await db.query<{ sequence: string; hash: Buffer; record: Buffer }>(
      'SELECT sequence, hash, record FROM tx ORDER BY sequence DESC',
    )
  ).map((r) => ({
    sequence: Number(r.sequence),
    hash: r.hash.toString('hex'),
    record: Buffer.from(r.record),
  }));

const PAGE = '/indexer/tx/v1/txs?pagination.limit=10';
const NEXT_PAGE = '/indexer/tx/v1/txs?pagination.limit=10&pagination.offset=10';

describe('stored records in answers', () => {
  it('answers the stored texts byte for byte, in a page and by hash', async () => {
    const records = await stored();
    const page = await api.app.inject(PAGE);
    expect(page.statusCode).toBe(200);
    const texts = records.slice(0, 10).map((r) => decodeRecord(r.record));
    expect(page.body.startsWith(`{"txs":[${texts.join(',')}],"pagination":{`)).toBe(true);
    expect(JSON.parse(page.body).txs).toHaveLength(10);
    const one = await api.app.inject(`/indexer/tx/v1/txs/${records[3]!.hash}`);
    expect([one.statusCode, one.body.startsWith(`{"tx":${texts[3]}`)]).toEqual([200, true]);
    expect(JSON.parse(one.body).tx).toEqual(JSON.parse(texts[3]!));
  });

  it('answers a 500 naming the store’s value for a record that does not decode, and the other pages as before', async () => {
    const records = await stored();
    const victim = records[2]!;
    const { value: length, next } = readVarint(victim.record, 1, 'record');
    const head = victim.record.subarray(0, next);
    const stream = victim.record.subarray(next);
    const lying = Buffer.alloc(1 + varintLength(length + 1));
    lying[0] = 2;
    writeVarint(lying, 1, length + 1);
    const cases: Array<[string, Buffer, string, RegExp]> = [
      // Format 2's head, then bytes that are no deflate stream.
      [
        'garbage stream',
        Buffer.concat([head, Buffer.from([0xff, 0xff, 0xff, 0xff])]),
        'WEFT_ERR_STORE_VALUE_MALFORMED',
        /stored record does not inflate/,
      ],
      // The stream cut short.
      [
        'cut short',
        victim.record.subarray(0, victim.record.length - 4),
        'WEFT_ERR_STORE_VALUE_MALFORMED',
        /stored record does not inflate/,
      ],
      // A header one byte longer than the text.
      ['lying header', Buffer.concat([lying, stream]), 'WEFT_ERR_STORE_VALUE_MALFORMED', /header says/],
      ['unknown format', Buffer.from([9, 1, 2, 3]), 'WEFT_ERR_STORE_FORMAT_UNKNOWN', /unknown format 9/],
    ];
    try {
      for (const [label, value, _code, message] of cases) {
        await db.query('UPDATE tx SET record = $1 WHERE sequence = $2', [value, victim.sequence]);
        for (const url of [PAGE, `/indexer/tx/v1/txs/${victim.hash}`]) {
          const answer = await api.app.inject(url);
          expect([label, url, answer.statusCode, answer.headers['content-type']]).toEqual([
            label,
            url,
            500,
            'application/json; charset=utf-8',
          ]);
          expect(JSON.parse(answer.body).message, label).toMatch(message);
        }
        // Pages without it answer in full, before and after the failed ones.
        const next = await api.app.inject(NEXT_PAGE);
        expect([label, next.statusCode, JSON.parse(next.body).txs.length]).toEqual([label, 200, 10]);
      }
    } finally {
      await db.query('UPDATE tx SET record = $1 WHERE sequence = $2', [victim.record, victim.sequence]);
    }
    const again = await api.app.inject(PAGE);
    expect([again.statusCode, JSON.parse(again.body).txs.length]).toEqual([200, 10]);
  });
});
