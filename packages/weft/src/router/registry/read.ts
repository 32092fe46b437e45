import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { errorMessage } from '../../common/errors.js';

/** A registry entry the loader skips: what it skipped and why, naming the file or entry it came from. */
export type RegistryWarn = (message: string) => void;

/** One parsed JSON document of the registry and where it came from (a path or a URL). */
export interface RawFile {
  source: string;
  json: any;
}

/** A chain.json with the assetlist.json beside it (absent: the chain lists no assets). */
export interface RawChain extends RawFile {
  assetList?: RawFile;
}

/** The files of an initia-registry style registry, parsed but not yet checked. */
export interface RawRegistry {
  chains: RawChain[];
  /** `_IBC/*.json`: channel pair files naming both ends. */
  ibcFiles: RawFile[];
  /** `profiles/*.json` or `profiles.json`: rollups, live or retired. */
  profiles: RawFile[];
}

/** The folders of a checkout of initia-registry; `profiles/` sits beside them. */
const NETWORK_FOLDERS = new Set(['mainnets', 'testnets', 'devnets']);

function readJsonFile(path: string, warn: RegistryWarn): any {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    warn(`${path}: cannot be read (${errorMessage(err)}): skipped`);
    return undefined;
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    warn(`${path}: not JSON (${errorMessage(err)}): skipped`);
    return undefined;
  }
}

const jsonFilesOf = (dir: string) =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((name) => name.endsWith('.json'))
        .sort()
        .map((name) => join(dir, name))
    : [];

function readFiles(paths: string[], warn: RegistryWarn): RawFile[] {
  return paths.flatMap((source) => {
    const json = readJsonFile(source, warn);
    return json === undefined ? [] : [{ source, json }];
  });
}

/** An array file (`chains.json`, `profiles.json`) as one entry per element, each named by its index. */
function readArrayFile(path: string, warn: RegistryWarn): RawFile[] {
  const json = readJsonFile(path, warn);
  if (json === undefined) return [];
  if (!Array.isArray(json)) {
    warn(`${path}: not a JSON array: skipped`);
    return [];
  }
  return json.map((entry, i) => ({ source: `${path}[${i}]`, json: entry }));
}

function assetListOf(path: string, warn: RegistryWarn): RawFile | undefined {
  if (!existsSync(path)) return undefined;
  const json = readJsonFile(path, warn);
  return json === undefined ? undefined : { source: path, json };
}

/**
 * A registry folder: `chains.json` (as registry.initia.xyz publishes it) or one `<chain>/chain.json` per
 * folder, each chain's `assetlist.json` beside it, `_IBC/*.json`, and the profiles: `profiles.json`, or
 * in a checkout of initia-registry the `profiles/` folder beside `mainnets/`. A file that is not JSON is
 * skipped with a warning.
 */
export function readFolder(dir: string, warn: RegistryWarn): RawRegistry {
  const aggregated = join(dir, 'chains.json');
  const chains: RawChain[] = existsSync(aggregated)
    ? readArrayFile(aggregated, warn).map((file) => ({
        ...file,
        assetList: assetListOf(join(dir, String(file.json?.chain_name), 'assetlist.json'), warn),
      }))
    : readdirSync(dir)
        .filter((name) => !name.startsWith('_') && !name.startsWith('.'))
        .sort()
        .filter((name) => existsSync(join(dir, name, 'chain.json')))
        .flatMap((name) =>
          readFiles([join(dir, name, 'chain.json')], warn).map((file) => ({
            ...file,
            assetList: assetListOf(join(dir, name, 'assetlist.json'), warn),
          })),
        );
  const profilesFile = join(dir, 'profiles.json');
  const profiles = existsSync(profilesFile)
    ? readArrayFile(profilesFile, warn)
    : NETWORK_FOLDERS.has(basename(dir))
      ? readFiles(jsonFilesOf(join(dir, '..', 'profiles')), warn)
      : [];
  return { chains, ibcFiles: readFiles(jsonFilesOf(join(dir, '_IBC')), warn), profiles };
}

async function fetchJson(url: string): Promise<any> {
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.json();
}

/**
 * A registry web service: `chains.json`, then each chain's asset list from where its
 * `metadata.assetlist` points (as registry.initia.xyz publishes it), else `<chain_name>/assetlist.json`
 * or `chains/<chain_name>/assetlist.json` beside `chains.json`; and `profiles.json` if it serves one.
 * A chain without an asset list has no assets.
 */
export async function readUrl(base: string): Promise<RawRegistry> {
  const root = base.replace(/\/+$/, '');
  const list = await fetchJson(`${root}/chains.json`);
  if (!Array.isArray(list)) throw new Error(`${root}/chains.json: not a JSON array`);
  const chains = await Promise.all(
    list.map(async (json: any, i): Promise<RawChain> => {
      const source = `${root}/chains.json[${i}]`;
      const given = typeof json?.metadata?.assetlist === 'string' ? [json.metadata.assetlist] : [];
      const places = [
        ...given,
        `${root}/${json?.chain_name}/assetlist.json`,
        `${root}/chains/${json?.chain_name}/assetlist.json`,
      ];
      for (const url of places) {
        const assets = await fetchJson(url).catch(() => undefined);
        if (assets) return { source, json, assetList: { source: url, json: assets } };
      }
      return { source, json };
    }),
  );
  const profiles = await fetchJson(`${root}/profiles.json`).catch(() => undefined);
  return {
    chains,
    ibcFiles: [],
    profiles: Array.isArray(profiles)
      ? profiles.map((json, i) => ({ source: `${root}/profiles.json[${i}]`, json }))
      : [],
  };
}
