import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createByteLru } from 'weft/common/lru.js';
import type { BlockRecord } from './node.js';

/** Where a chain keeps its committed blocks: in memory, or one JSON file per height in a state dir. */
export interface BlockStore {
  put(record: BlockRecord): void;
  get(height: number): BlockRecord | undefined;
  /** Highest stored height (0 when empty). */
  readonly latest: number;
  /** Every stored record in height order, for rebuilding state at start. */
  replay(): Iterable<BlockRecord>;
}

export function createMemoryBlockStore(): BlockStore {
  const records: BlockRecord[] = [];
  return {
    put(record) {
      records[record.height] = record;
    },
    get: (height) => records[height],
    get latest() {
      return records.length === 0 ? 0 : records.length - 1;
    },
    *replay() {
      for (const record of records) if (record) yield record;
    },
  };
}

/**
 * Bytes of block JSON a file block store keeps parsed: the newest blocks, the ones the indexers, the
 * relayers and the tracker read. A block of the dev stack's traffic is 150–350 kB of JSON, more once
 * parsed: at 64 MB a chain, the six chains of `weft dev` grew its heap by about 2 MB a second for
 * minutes (measured); 8 MB keeps a chain's last 25–50 blocks.
 */
export const BLOCK_CACHE_BYTES = 8 * 1024 * 1024;

/**
 * A cache in front of files, bounded by the blocks' JSON size; the newest blocks (the ones clients
 * ask for most) stay parsed.
 */
export function createFileBlockStore(dir: string, cacheBytes = BLOCK_CACHE_BYTES): BlockStore {
  const blocksDir = join(dir, 'blocks');
  mkdirSync(blocksDir, { recursive: true });
  const file = (height: number) => join(blocksDir, `${String(height).padStart(10, '0')}.json`);
  const cache = createByteLru<number, BlockRecord>({ maxBytes: cacheBytes });
  /** `bytes`: the length of the JSON the record was written or read as. */
  const remember = (record: BlockRecord, bytes: number) => cache.set(record.height, record, { size: bytes });
  const heights = readdirSync(blocksDir)
    .filter((name) => /^\d{10}\.json$/.test(name))
    .map((name) => Number(name.slice(0, 10)))
    .sort((a, b) => a - b);
  let latest = heights.length === 0 ? 0 : heights[heights.length - 1]!;

  const read = (height: number): { record: BlockRecord; bytes: number } | undefined => {
    try {
      const text = readFileSync(file(height), 'utf8');
      return { record: JSON.parse(text) as BlockRecord, bytes: text.length };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  };

  return {
    put(record) {
      // Write then rename, so a crash never leaves a half-written block behind.
      const tmp = `${file(record.height)}.tmp`;
      const text = JSON.stringify(record);
      writeFileSync(tmp, text);
      renameSync(tmp, file(record.height));
      latest = Math.max(latest, record.height);
      remember(record, text.length);
    },
    get(height) {
      const hit = cache.get(height);
      if (hit) return hit;
      if (height < 1 || height > latest) return undefined;
      const stored = read(height);
      if (stored) remember(stored.record, stored.bytes);
      return stored?.record;
    },
    get latest() {
      return latest;
    },
    *replay() {
      for (const height of heights) {
        const stored = read(height);
        if (stored) yield stored.record;
      }
    },
  };
}
