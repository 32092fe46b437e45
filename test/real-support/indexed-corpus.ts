import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { TestDb } from 'weft/store/test-support/backends.js';
import { type CorpusTx, loadCorpus } from './corpus.js';
import { type DerivedRecording, deriveRecordings } from './derive.js';
import { type IndexedReplay, indexReplay } from './index-replay.js';
import { reencodeTx } from './raw-tx.js';

/**
 * The set-up the real-corpus indexer tests share: the corpus derived into replayable recordings (in a temp
 * dir removed after the file's tests), and each recording indexed through `weft replay` into a fresh
 * database of a test back end.
 */

export interface DerivedCorpus {
  corpus: CorpusTx[];
  recordings: DerivedRecording[];
  txsOf(chainId: string): CorpusTx[];
}

/** Call at a test file's top level (it registers the temp dir's removal). */
export async function deriveCorpus(): Promise<DerivedCorpus> {
  const corpus = await loadCorpus();
  const dir = mkdtempSync(join(tmpdir(), 'weft-real-'));
  const recordings = deriveRecordings(corpus, dir);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return { corpus, recordings, txsOf: (chainId) => corpus.filter((tx) => tx.chainId === chainId) };
}

/** Indexes each recording before the suite's tests, by chain id; closes them after. */
export function useIndexedReplays(
  testDb: TestDb,
  recordings: DerivedRecording[],
): Map<string, IndexedReplay> {
  const indexed = new Map<string, IndexedReplay>();
  beforeAll(async () => {
    for (const recording of recordings)
      indexed.set(recording.chainId, await indexReplay(recording, await testDb.fresh()));
  }, 240_000);
  afterAll(async () => {
    for (const one of indexed.values()) await one.close();
  });
  return indexed;
}

/** The hash the indexer knows a tx by: a synthetic tx's raw bytes do not hash to its recorded txhash. */
export const hashOf = (tx: CorpusTx): string =>
  tx.source.synthetic
    ? createHash('sha256')
        .update(reencodeTx(tx.response.tx as never, tx.response.txhash).raw)
        .digest('hex')
        .toUpperCase()
    : tx.response.txhash;
