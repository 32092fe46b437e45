import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';

/**
 * A recording of a chain's nodes: what `weft record` writes and `weft replay` serves.
 *
 *   DIR/manifest.json            what was recorded, from where, by which weft
 *   DIR/heights/<height>.json.gz every exchange the indexer made for that height (gzip of HeightFile)
 *   DIR/lookups.json.gz          exchanges tied to no height (node info, denoms, validators, …)
 *
 * Each exchange keeps the node's answer byte for byte (`response`, its status and content type); only a
 * JSON-RPC answer's `id` is rewritten on replay, to the id the client sent.
 */

export const RECORDING_FORMAT = 'weft-recording/1';

/** The node surfaces a recording holds, as the devnet serves them. */
export type Surface = 'rpc' | 'rest' | 'json_rpc';

export interface Exchange {
  surface: Surface;
  method: 'GET' | 'POST';
  /** Path and query as the client sent them (`/block?height=5`, `/cosmos/tx/v1beta1/txs/block/5`). */
  path: string;
  /** The request body of a POST, as sent. */
  body?: string;
  /** REST: the `x-cosmos-block-height` header the query was asked at. */
  height?: number;
  /** The node's answer: HTTP status, content type and body text, unchanged. */
  status: number;
  contentType?: string;
  response: string;
}

export interface RecordingManifest {
  format: typeof RECORDING_FORMAT;
  chain_id: string;
  vm_type: 'evm' | 'move' | 'wasm';
  /** The node URLs recorded from (empty for a recording derived from tx-level data). */
  nodes: { rpc: string[]; rest: string[]; json_rpc: string[] };
  from: number;
  to: number;
  /** Heights recorded so far, ascending (a resumed recording adds to it). */
  heights: number[];
  /** Heights built around recorded tx-level data rather than recorded whole; see the corpus README. */
  derived?: number[];
  /** Heights whose raw txs could not be re-encoded to the recorded hash. */
  synthetic?: number[];
  weft_version: string;
  weft_commit: string;
  /** ISO time the recording started, and last wrote a height. */
  recorded_at: string;
  updated_at: string;
}

export interface HeightFile {
  height: number;
  exchanges: Exchange[];
}

const MANIFEST = 'manifest.json';
const LOOKUPS = 'lookups.json.gz';
const heightPath = (dir: string, height: number) => join(dir, 'heights', `${height}.json.gz`);

/**
 * The key a request is found by on replay: surface, method, path, the height a REST query was asked at
 * and, for a POST, the body with a JSON-RPC `id` left out (clients number their calls; the node's answer
 * does not depend on it). A JSON-RPC path of `/` is the endpoint itself, as ``.
 */
export function exchangeKey(e: Pick<Exchange, 'surface' | 'method' | 'path' | 'body' | 'height'>): string {
  const path = e.surface === 'json_rpc' && e.path === '/' ? '' : e.path;
  const body = e.method === 'POST' ? canonicalBody(e.body ?? '') : '';
  return `${e.surface} ${e.method} ${path} @${e.height ?? ''} ${body}`;
}

function canonicalBody(body: string): string {
  try {
    const parsed = JSON.parse(body) as unknown;
    const strip = (call: unknown) =>
      call && typeof call === 'object' && !Array.isArray(call)
        ? { ...(call as Record<string, unknown>), id: undefined }
        : call;
    return JSON.stringify(Array.isArray(parsed) ? parsed.map(strip) : strip(parsed));
  } catch {
    return body;
  }
}

function writeAtomically(path: string, data: Buffer | string): void {
  const temp = `${path}.partial`;
  writeFileSync(temp, data);
  renameSync(temp, path);
}

export function writeManifest(dir: string, manifest: RecordingManifest): void {
  mkdirSync(dir, { recursive: true });
  writeAtomically(join(dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
}

export function readManifest(dir: string, file = join(dir, MANIFEST)): RecordingManifest | undefined {
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as RecordingManifest;
}

/** Writes one height's exchanges; the file appears whole or not at all (a resumed recording skips it). */
export function writeHeight(dir: string, file: HeightFile): void {
  mkdirSync(join(dir, 'heights'), { recursive: true });
  writeAtomically(heightPath(dir, file.height), gzipSync(JSON.stringify(file)));
}

export function hasHeight(dir: string, height: number): boolean {
  return existsSync(heightPath(dir, height));
}

export function readHeight(dir: string, height: number): HeightFile {
  return JSON.parse(gunzipSync(readFileSync(heightPath(dir, height))).toString('utf8')) as HeightFile;
}

/** Heights with a file in DIR/heights, ascending. */
export function recordedHeights(dir: string): number[] {
  const folder = join(dir, 'heights');
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .flatMap((name) => /^(\d+)\.json\.gz$/.exec(name)?.[1] ?? [])
    .map(Number)
    .sort((a, b) => a - b);
}

export function writeLookups(dir: string, exchanges: Exchange[]): void {
  mkdirSync(dir, { recursive: true });
  writeAtomically(join(dir, LOOKUPS), gzipSync(JSON.stringify(exchanges)));
}

export function readLookups(dir: string): Exchange[] {
  const file = join(dir, LOOKUPS);
  if (!existsSync(file)) return [];
  return JSON.parse(gunzipSync(readFileSync(file)).toString('utf8')) as Exchange[];
}
