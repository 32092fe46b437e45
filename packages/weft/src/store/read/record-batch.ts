/**
 * A page's stored records as one value: the statement concatenates them, each as its sequence (int8),
 * its length (int4) and its stored bytes, and sends the whole as one base64 text. A row per record cost
 * the API more than inflating the records: PostgreSQL sends `bytea` as hex text, which node-postgres
 * (text results only) decodes per field into a string and then a buffer, with a row object around each.
 * One base64 field is one string and one native decode: on the API bench's 100-record page, 210 µs of
 * the API's CPU for the statement's result against 660–990 with a row per record (bench store, one
 * process reading pages at 16 at a time); PostgreSQL's CPU is the same either way.
 *
 * A page of keys alone (its records in the record cache) comes the same way, as the sequences end to end:
 * 50–80 µs less of the API's CPU a 100-key page than a row per key.
 *
 * PostgreSQL's base64 breaks its lines every 76 characters; Node's decoder skips the line breaks.
 */

/**
 * SQL of the column: the records of the rows `from` yields (a FROM clause giving the alias `t` a
 * `sequence` and a `record`), in the order `order` (SQL, e.g. `t.sequence DESC`); NULL when it yields none.
 */
export function recordBatchSql(from: string, order: string): string {
  return `(SELECT encode(string_agg(int8send(t.sequence) || int4send(length(t.record)) || t.record, ''::bytea
      ORDER BY ${order}), 'base64') ${from})`;
}

export interface BatchRecord {
  sequence: number;
  /** The record as stored: a view of the batch's buffer. */
  stored: Buffer;
}

/** An `int8send` sequence at `at`: sequences are assigned from 1 up and stay far below 2^53. */
const readSequence = (batch: Buffer, at: number) =>
  batch.readUInt32BE(at) * 2 ** 32 + batch.readUInt32BE(at + 4);

/** The records of a batch column's value (null: none), in the statement's order. */
export function readRecordBatch(value: string | null): BatchRecord[] {
  if (value === null) return [];
  const batch = Buffer.from(value, 'base64');
  const records: BatchRecord[] = [];
  let at = 0;
  while (at < batch.length) {
    if (at + 12 > batch.length) throw new Error(`a record batch ends within a record's head at byte ${at}`);
    const sequence = readSequence(batch, at);
    const length = batch.readUInt32BE(at + 8);
    at += 12;
    if (at + length > batch.length) throw new Error(`a record batch ends within record ${sequence}`);
    records.push({ sequence, stored: batch.subarray(at, at + length) });
    at += length;
  }
  return records;
}

/** SQL of the column: the `sequence`s of the rows `from` yields (alias `t`), in the order `order`; NULL when none. */
export function sequenceBatchSql(from: string, order: string): string {
  return `(SELECT encode(string_agg(int8send(t.sequence), ''::bytea ORDER BY ${order}), 'base64') ${from})`;
}

/** The sequences of a sequence batch column's value (null: none), in the statement's order. */
export function readSequenceBatch(value: string | null): number[] {
  if (value === null) return [];
  const batch = Buffer.from(value, 'base64');
  if (batch.length % 8 !== 0) throw new Error(`a sequence batch of ${batch.length} bytes is cut short`);
  const sequences = new Array<number>(batch.length / 8);
  for (let i = 0; i < sequences.length; i++) sequences[i] = readSequence(batch, i * 8);
  return sequences;
}
