import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Abi } from 'viem';

/**
 * The devnet's Solidity contracts, compiled with the `solc` npm package at run time. Artifacts are cached
 * on disk keyed by the hash of the sources and settings, so only the first start pays for the compiler.
 */

export type ContractName =
  | 'NativeERC20'
  | 'ERC20Factory'
  | 'CoinWrapper'
  | 'TestERC20'
  | 'TestERC721'
  | 'Nester'
  | 'Middle'
  | 'Leaf'
  | 'OmniEndpoint'
  | 'OmniOFT';

export interface ContractArtifact {
  abi: Abi;
  /** Creation code (constructor arguments are appended by the deployer). */
  bytecode: Uint8Array;
  deployedBytecode: Uint8Array;
}

export type ContractArtifacts = Record<ContractName, ContractArtifact>;

const SOURCES_DIR = join(dirname(fileURLToPath(import.meta.url)), 'contracts');
/** Other modules' contracts, compiled with these; their source names carry the folder's prefix. */
const MORE_SOURCES = [{ prefix: 'omnichain/', dir: join(SOURCES_DIR, '..', '..', 'omnichain', 'contracts') }];
const require = createRequire(import.meta.url);

const SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'cancun',
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
};

interface CachedArtifact {
  abi: Abi;
  bytecode: string;
  deployedBytecode: string;
}

let compiled: ContractArtifacts | undefined;

function cacheDir(): string {
  // The package's own node_modules: where `solc` was found.
  const solcEntry = require.resolve('solc');
  return join(
    solcEntry.slice(0, solcEntry.lastIndexOf('node_modules') + 'node_modules'.length),
    '.cache',
    'weft-solc',
  );
}

function readSources(): Record<string, { content: string }> {
  const sources: Record<string, { content: string }> = {};
  for (const file of readdirSync(SOURCES_DIR).sort()) {
    if (file.endsWith('.sol')) sources[file] = { content: readFileSync(join(SOURCES_DIR, file), 'utf8') };
  }
  for (const { prefix, dir } of MORE_SOURCES) {
    for (const file of readdirSync(dir).sort()) {
      if (file.endsWith('.sol')) sources[prefix + file] = { content: readFileSync(join(dir, file), 'utf8') };
    }
  }
  return sources;
}

function runSolc(sources: Record<string, { content: string }>): Record<string, CachedArtifact> {
  const solc = require('solc') as { compile(input: string): string; version(): string };
  const output = JSON.parse(
    solc.compile(JSON.stringify({ language: 'Solidity', sources, settings: SETTINGS })),
  );
  const errors = (output.errors ?? []).filter((e: { severity: string }) => e.severity === 'error');
  if (errors.length > 0) {
    throw new Error(
      `solc: ${errors.map((e: { formattedMessage: string }) => e.formattedMessage).join('\n')}`,
    );
  }
  const artifacts: Record<string, CachedArtifact> = {};
  for (const file of Object.keys(output.contracts)) {
    for (const [name, contract] of Object.entries<any>(output.contracts[file])) {
      artifacts[name] = {
        abi: contract.abi,
        bytecode: contract.evm.bytecode.object,
        deployedBytecode: contract.evm.deployedBytecode.object,
      };
    }
  }
  return artifacts;
}

/** Compiles (or loads from the cache) every contract under `contracts/`. */
export function contractArtifacts(): ContractArtifacts {
  if (compiled) return compiled;
  const sources = readSources();
  const key = createHash('sha256')
    .update(JSON.stringify({ sources, settings: SETTINGS, solc: require('solc/package.json').version }))
    .digest('hex');
  const file = join(cacheDir(), `${key}.json`);
  let raw: Record<string, CachedArtifact>;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    raw = runSolc(sources);
    try {
      mkdirSync(dirname(file), { recursive: true });
      // Write then rename, so a concurrent start never reads half a file.
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify(raw));
      renameSync(tmp, file);
    } catch {
      // A read-only install still works; it just compiles at every start.
    }
  }
  const artifacts = {} as ContractArtifacts;
  for (const [name, artifact] of Object.entries(raw)) {
    artifacts[name as ContractName] = {
      abi: artifact.abi,
      bytecode: Buffer.from(artifact.bytecode, 'hex'),
      deployedBytecode: Buffer.from(artifact.deployedBytecode, 'hex'),
    };
  }
  compiled = artifacts;
  return artifacts;
}
