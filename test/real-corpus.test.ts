import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlockBundle, MetaAnswer } from 'weft/indexer/bundle.js';
import { decodeBlock, metaRequests } from 'weft/indexer/decode/index.js';
import { readHeight, readManifest } from 'weft/record/format.js';
import {
  COUNTS_END,
  COUNTS_START,
  type CorpusTx,
  chainFolders,
  countsTable,
  loadCorpus,
  REAL_DIR,
  readSources,
} from './real-support/corpus.js';
import { type DerivedRecording, deriveRecordings } from './real-support/derive.js';
import { reencodeTx } from './real-support/raw-tx.js';

// The corpus of real chain data (test/fixtures/real): provenance, re-encoding, counts and the recordings
// derived from it.

let corpus: CorpusTx[];
let root: string;
let recordings: DerivedRecording[];

beforeAll(async () => {
  corpus = await loadCorpus();
  root = mkdtempSync(join(tmpdir(), 'weft-real-'));
  recordings = deriveRecordings(corpus, root);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('provenance', () => {
  it('names, for every vendored file, its repository, commit and path, and the bytes are unchanged', () => {
    for (const chain of chainFolders()) {
      const sources = readSources(chain);
      expect(sources.chain_id).toBe(chain);
      expect(sources.chain_id_evidence.length).toBeGreaterThan(20);
      // A source file holding txs of two chains is vendored once, in the first chain's folder.
      const listed = new Set(sources.files.map((f) => f.file).filter((f) => !f.startsWith('../')));
      const present = new Set(readdirSync(join(REAL_DIR, chain)).filter((name) => name !== 'sources.json'));
      expect([...present].sort()).toEqual([...listed].sort());
      for (const file of sources.files) {
        expect(file.repository).toMatch(/^[\w.-]+\/[\w.-]+$/);
        expect(file.commit).toMatch(/^[0-9a-f]{40}$/);
        expect(file.path.endsWith(basename(file.file))).toBe(true);
        const bytes = readFileSync(join(REAL_DIR, chain, file.file));
        expect(createHash('sha256').update(bytes).digest('hex'), file.file).toBe(file.sha256);
        expect(file.txs.length, file.file).toBeGreaterThan(0);
      }
    }
  });

  it('holds each real tx once', () => {
    const hashes = corpus.map((tx) => tx.response.txhash);
    expect(new Set(hashes).size).toBe(hashes.length);
  });
});

describe('re-encoding', () => {
  it('gives each tx its recorded hash, unless the sources mark it synthetic with a reason', () => {
    const outcomes = corpus.map((tx) => {
      const { matches } = reencodeTx(tx.response.tx as never, tx.response.txhash);
      return { tx: `${tx.chainId} ${tx.response.txhash}`, matches, synthetic: tx.source.synthetic };
    });
    for (const o of outcomes) {
      if (o.matches) expect(o.synthetic, o.tx).toBeUndefined();
      else expect(o.synthetic?.length ?? 0, o.tx).toBeGreaterThan(20);
    }
    expect(outcomes.filter((o) => o.matches).length).toBeGreaterThanOrEqual(50);
  });
});

describe('README', () => {
  it('tabulates the txs the corpus holds per chain and msg type', () => {
    const readme = readFileSync(join(REAL_DIR, 'README.md'), 'utf8');
    const start = readme.indexOf(COUNTS_START);
    const end = readme.indexOf(COUNTS_END);
    expect(start).toBeGreaterThan(-1);
    expect(readme.slice(start + COUNTS_START.length, end).trim()).toBe(countsTable(corpus));
  });
});

describe('derived recordings', () => {
  it('mark every height derived, and synthetic the heights whose txs did not re-encode', () => {
    for (const { dir, manifest } of recordings) {
      expect(readManifest(dir)).toEqual(manifest);
      expect(manifest.derived).toEqual(manifest.heights);
      const synthetic = corpus
        .filter((tx) => tx.chainId === manifest.chain_id && tx.source.synthetic)
        .map((tx) => Number(tx.response.height));
      expect(manifest.synthetic).toEqual([...new Set(synthetic)].sort((a, b) => a - b));
    }
  });

  it('decode with the indexer, NFT metadata answered "not recorded"', () => {
    let decoded = 0;
    for (const { dir, manifest } of recordings) {
      for (const height of manifest.heights) {
        const answers = new Map(
          readHeight(dir, height).exchanges.map((e) => [e.path, JSON.parse(e.response) as any]),
        );
        const block = answers.get(`/block?height=${height}`).result;
        const blockResults = answers.get(`/block_results?height=${height}`).result;
        const restTxs = answers.get(`/cosmos/tx/v1beta1/txs/block/${height}?pagination.limit=100`).txs;
        const evmReceipts = answers.get('')?.result;
        const options = { vm: manifest.vm_type, bech32Prefix: 'init', chainId: manifest.chain_id };
        const meta = new Map<string, MetaAnswer>(
          metaRequests(block, blockResults, options).map((r) => [
            r.key,
            { ok: false, error: 'not recorded' },
          ]),
        );
        const bundle: BlockBundle = {
          height,
          block,
          blockResults,
          restTxs,
          meta,
          ...(evmReceipts ? { evmReceipts } : {}),
        };
        const indexed = decodeBlock(bundle, options);
        expect(indexed.txs.length).toBe(block.block.data.txs.length);
        decoded += indexed.txs.length;
      }
    }
    expect(decoded).toBe(corpus.length);
  });

  it('derive minievm receipts from the evm events of cosmos txs', () => {
    const evm = recordings.filter((r) => r.manifest.vm_type === 'evm');
    const receipts = evm.flatMap(({ dir, manifest }) =>
      manifest.heights.flatMap((h) =>
        readHeight(dir, h).exchanges.flatMap((e) =>
          e.surface === 'json_rpc' ? JSON.parse(e.response).result : [],
        ),
      ),
    );
    expect(receipts.length).toBeGreaterThan(0);
    for (const receipt of receipts) {
      expect(receipt.logs.length).toBeGreaterThan(0);
      expect(receipt.logsBloom).toMatch(/^0x[0-9a-f]{512}$/);
    }
  });
});
