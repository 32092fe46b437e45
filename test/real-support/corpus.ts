import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The corpus of real chain data in test/fixtures/real: one folder per chain, its files vendored unchanged
 * from public repositories, and a sources.json naming each file's origin and the txs it holds.
 */

export const REAL_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'real');

export interface SourceTx {
  /** Path of the tx_response inside the module: export name, then keys. */
  export: string[];
  txhash: string;
  /** Why the re-encoded tx does not hash to `txhash`; absent when it does. */
  synthetic?: string;
}

export interface SourceFile {
  file: string;
  repository: string;
  commit: string;
  path: string;
  sha256: string;
  txs: SourceTx[];
}

export interface ChainSources {
  chain_id: string;
  vm: 'evm' | 'move' | 'wasm';
  chain_id_evidence: string;
  files: SourceFile[];
}

/** A REST `tx_response` (cosmos.base.abci.v1beta1.TxResponse as the gateway renders it). */
export interface TxResponse {
  height: string;
  txhash: string;
  codespace: string;
  code: number;
  data: string;
  raw_log: string;
  logs: unknown[];
  info: string;
  gas_wanted: string;
  gas_used: string;
  tx: { '@type': string; body: { messages: Array<Record<string, any>> } & Record<string, any> } & Record<
    string,
    any
  >;
  timestamp: string;
  events: Array<{ type: string; attributes: Array<{ key: string; value: string; index?: boolean }> }>;
}

export interface CorpusTx {
  chainId: string;
  vm: ChainSources['vm'];
  file: string;
  source: SourceTx;
  response: TxResponse;
}

export function chainFolders(): string[] {
  return readdirSync(REAL_DIR)
    .filter((name) => statSync(join(REAL_DIR, name)).isDirectory())
    .sort();
}

export function readSources(chain: string): ChainSources {
  return JSON.parse(readFileSync(join(REAL_DIR, chain, 'sources.json'), 'utf8')) as ChainSources;
}

/** Every tx the sources name, read from the vendored modules (TypeScript object literals). */
export async function loadCorpus(): Promise<CorpusTx[]> {
  const out: CorpusTx[] = [];
  for (const chain of chainFolders()) {
    const sources = readSources(chain);
    for (const file of sources.files) {
      const module = (await import(pathToFileURL(join(REAL_DIR, chain, file.file)).href)) as Record<
        string,
        any
      >;
      for (const source of file.txs) {
        const response = source.export.reduce<any>((value, key) => value?.[key], module) as TxResponse;
        if (response?.txhash !== source.txhash) {
          throw new Error(`${chain}/${file.file}: ${source.export.join('.')} is not tx ${source.txhash}`);
        }
        out.push({ chainId: sources.chain_id, vm: sources.vm, file: file.file, source, response });
      }
    }
  }
  return out;
}

/** The msg types of a tx; a msg an authz `MsgExec` carries is named `MsgExec > inner`. */
export function msgTypes(response: TxResponse): string[] {
  return response.tx.body.messages.flatMap((msg) => {
    const type = String(msg['@type']);
    const inner = Array.isArray(msg.msgs) ? (msg.msgs as Array<Record<string, unknown>>) : [];
    return [type, ...inner.map((m) => `${type} > ${String(m['@type'])}`)];
  });
}

/** The README's counts: txs per chain, then per msg type (a tx counts once per type it holds). */
export function countsTable(corpus: CorpusTx[]): string {
  const rows = new Map<string, number>();
  const bump = (key: string) => rows.set(key, (rows.get(key) ?? 0) + 1);
  for (const tx of corpus) {
    bump(`${tx.chainId}\t(all txs)`);
    for (const type of new Set(msgTypes(tx.response))) bump(`${tx.chainId}\t${type}`);
  }
  const lines = [...rows.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, n]) => {
      const [chain, type] = key.split('\t');
      return `| ${chain} | ${type === '(all txs)' ? '**all txs**' : `\`${type}\``} | ${n} |`;
    });
  return ['| chain | msg type | txs |', '| --- | --- | --- |', ...lines].join('\n');
}

export const COUNTS_START = '<!-- counts:start (npx tsx test/real-support/corpus.ts) -->';
export const COUNTS_END = '<!-- counts:end -->';

// `npx tsx test/real-support/corpus.ts` prints the table for the README.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(countsTable(await loadCorpus()));
}
