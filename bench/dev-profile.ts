import { readdirSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where `weft dev`'s CPU goes, read from the `--cpu-prof` profiles of one run (one file per thread): the
 * main thread's samples by the part of the stack they ran in, the store threads' as one part. Each part's
 * time is in CPU seconds within a window of the run (seconds since the process started).
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A sample belongs to the first part one of its stack's frames is in, in this order. */
const PARTS: Array<[name: string, frame: RegExp]> = [
  ['devnet_signing', /devnet\/dist\/(tx\/sign|tx\/verify|evm\/sender-recovery|keys)\.js$/],
  ['devnet_traffic', /devnet\/dist\/traffic\//],
  ['devnet_relayers', /devnet\/dist\/relayers\//],
  ['indexers', /weft\/dist\/indexer\//],
  ['router', /weft\/dist\/router\//],
  ['apis', /weft\/dist\/api\//],
  ['dashboard', /weft\/dist\/dashboard\//],
  ['store_calls', /weft\/dist\/store\//],
  ['devnet_chains', /devnet\/dist\//],
  ['module_loading', /^node:internal\/modules\//],
];

/**
 * A sample with none of those frames (code resumed after an `await`) goes by its own frame: EVM
 * execution is the devnet's, HTTP clients' and servers' work is `http`.
 */
const LEAF_PARTS: Array<[name: string, frame: RegExp]> = [
  ['devnet_chains', /@ethereumjs\//],
  ['http', /undici|fastify|find-my-way|avvio|node:_http|node:net|node:internal\/(streams|webstreams)\//],
];

export interface Window {
  from: number;
  to: number;
}

/** CPU seconds per part in each window; `stores` is the store threads', the rest the main thread's. */
export function cpuByPart(dir: string, windows: Window[]): Array<Record<string, number>> {
  const files = readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'));
  // CPU.<date>.<time>.<pid>.<thread id>.<sequence>.cpuprofile: thread 0 is the main thread.
  const main = files.find((name) => name.split('.')[4] === '0');
  if (!main) throw new Error(`no main-thread profile in ${dir}`);
  const profiles = files.map((name) => ({
    main: name === main,
    profile: JSON.parse(readFileSync(join(dir, name), 'utf8')) as CpuProfile,
  }));
  const origin = profiles.find((p) => p.main)!.profile.startTime;
  const totals = windows.map(() => new Map<string, number>());
  for (const { main: isMain, profile } of profiles) {
    const part = isMain ? partOfNode(profile) : storeThreadPart(profile);
    let at = profile.startTime;
    profile.samples.forEach((node, i) => {
      at += profile.timeDeltas[i]!;
      const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
      const name = part(node);
      if (name === 'idle') return;
      const seconds = (at - origin) / 1e6;
      windows.forEach((window, w) => {
        if (seconds < window.from || seconds >= window.to) return;
        totals[w]!.set(name, (totals[w]!.get(name) ?? 0) + ms / 1000);
      });
    });
  }
  return totals.map((total) =>
    Object.fromEntries(
      [...total]
        .sort((a, b) => b[1] - a[1])
        .map(([name, seconds]) => [name, Math.round(seconds * 100) / 100]),
    ),
  );
}

/** A chunk of `weft dev`'s bundle (scripts/bundle-dev.mjs). */
const BUNDLE_CHUNK = /\/dist\/bundle\/[^/]+\.js$/;

/**
 * A frame's file as the parts name it. In the bundle, the file the frame's code was compiled from, read
 * through the chunk's source map and named as its compiled module (`weft/dist/indexer/….js`, not
 * `src/….ts`), so a part is the same code bundled or not.
 */
function frameFile(frame: ProfileNode['callFrame'], maps: Map<string, SourceMap | null>): string {
  const { url } = frame;
  if (!BUNDLE_CHUNK.test(url)) return url;
  let map = maps.get(url);
  if (map === undefined) {
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${fileURLToPath(url)}.map`, 'utf8')));
    } catch {
      map = null;
    }
    maps.set(url, map);
  }
  const entry = map?.findEntry(frame.lineNumber, frame.columnNumber);
  if (!entry || !('originalSource' in entry)) return url;
  return new URL(entry.originalSource, url).href.replace(
    /\/packages\/(weft|devnet)\/src\/(.*)\.ts$/,
    '/packages/$1/dist/$2.js',
  );
}

/** The part of each node of a main-thread profile (memoized: a node's part depends on its stack only). */
function partOfNode(profile: CpuProfile): (id: number) => string {
  const maps = new Map<string, SourceMap | null>();
  const byId = new Map(
    profile.nodes.map((node) => [
      node.id,
      { ...node, callFrame: { ...node.callFrame, url: frameFile(node.callFrame, maps) } },
    ]),
  );
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const memo = new Map<number, string>();
  const inStack = (id: number): string => {
    const known = memo.get(id);
    if (known !== undefined) return known;
    const { url } = byId.get(id)!.callFrame;
    const own = PARTS.find(([, frame]) => frame.test(url))?.[0];
    const above = parent.get(id);
    const found = ranked(own, above === undefined ? undefined : inStack(above)) ?? '';
    memo.set(id, found);
    return found;
  };
  return (id) => {
    const { functionName, url } = byId.get(id)!.callFrame;
    if (functionName === '(idle)') return 'idle';
    if (functionName === '(garbage collector)') return 'gc';
    return inStack(id) || LEAF_PARTS.find(([, frame]) => frame.test(url))?.[0] || 'other';
  };
}

/**
 * A store thread's samples are all `stores`, but for its idle time: a worker thread does not tell the
 * profiler when it waits, so its waits are `(program)` samples.
 */
function storeThreadPart(profile: CpuProfile): (id: number) => string {
  const idle = new Set(
    profile.nodes
      .filter(
        ({ callFrame }) => callFrame.functionName === '(idle)' || callFrame.functionName === '(program)',
      )
      .map((node) => node.id),
  );
  return (id) => (idle.has(id) ? 'idle' : 'stores');
}

/** Of two parts, the one earlier in `PARTS`. */
function ranked(a: string | undefined, b: string | undefined): string | undefined {
  if (!a || !b) return a || b;
  const rank = (name: string) => PARTS.findIndex(([part]) => part === name);
  return rank(a) <= rank(b) ? a : b;
}
