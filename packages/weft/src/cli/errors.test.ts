import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { sourceCli } from './test-support/source-cli.js';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'weft-errors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `weft <args>`, expected to fail: its exit code and its last two lines of stderr. */
async function failing(args: string[]): Promise<{ code: number; lines: string[]; stderr: string }> {
  try {
    await run(process.execPath, sourceCli(args), { timeout: 60_000, env: cleanEnv() });
  } catch (err) {
    const e = err as { code: number; stderr: string };
    return { code: e.code, lines: e.stderr.trimEnd().split('\n').slice(-2), stderr: e.stderr };
  }
  throw new Error(`weft ${args.join(' ')} did not fail`);
}

/** The environment without the settings a developer's shell may hold. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of [
    'DB_DSN',
    'PORT',
    'REGISTRY',
    'CHAIN_ID',
    'VM_TYPE',
    'RPC_URL',
    'REST_URL',
    'LOG_LEVEL',
  ])
    delete env[name];
  return env;
}

/** A port this test holds, so that weft finds it taken. */
async function takenPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, server };
}

describe('weft errors: one line, then a hint', () => {
  it('an unknown flag or a bad value points at the command help', async () => {
    const unknown = await failing(['api', '--colour', 'blue']);
    expect(unknown.code).toBe(1);
    expect(unknown.lines).toEqual([
      'weft: invalid configuration: --colour: unknown flag',
      '  hint: `weft api --help` lists the settings of weft api',
    ]);
    const bad = await failing(['devnet', '--block-time', 'soon']);
    expect(bad.lines).toEqual([
      'weft: invalid configuration: --block-time: "soon" is not a duration (e.g. 500ms, 2s, 1m)',
      '  hint: `weft devnet --help` lists the settings of weft devnet',
    ]);
    const required = await failing(['indexer']);
    expect(required.lines).toEqual([
      'weft: invalid configuration: CHAIN_ID: required',
      '  hint: `weft indexer --help` lists the settings of weft indexer',
    ]);
  });

  it('a taken port is named with the setting that chose it', async () => {
    const { port, server } = await takenPort();
    try {
      const result = await failing([
        'api',
        '--port',
        String(port),
        '--data-dir',
        'memory://',
        '--chain-id',
        'errors-1',
        '--vm-type',
        'move',
        '--log-level',
        'error',
      ]);
      expect(result.code).toBe(1);
      expect(result.lines).toEqual([
        `weft: port ${port} on 127.0.0.1 is already in use (set by --port / PORT)`,
        '  hint: stop what listens there, or give --port / PORT another port (0 picks a free one)',
      ]);
      expect(result.stderr).not.toMatch(/^\s+at /m);
    } finally {
      server.close();
    }
  });

  it('PostgreSQL refusing connections names DB_DSN and the embedded store', async () => {
    // Port 1 on loopback: nothing listens there.
    const result = await failing([
      'api',
      '--db-dsn',
      'postgres://weft@127.0.0.1:1/weft',
      '--log-level',
      'error',
    ]);
    expect(result.lines).toEqual([
      'weft: database unavailable: PostgreSQL at 127.0.0.1:1 (DB_DSN) refuses connections (ECONNREFUSED)',
      '  hint: start PostgreSQL there, or leave DB_DSN empty to use the embedded store (PGlite) in --data-dir',
    ]);
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });

  it('a registry folder that does not exist', async () => {
    const missing = join(dir, 'no-registry');
    const result = await failing(['router', '--registry', missing]);
    expect(result.lines).toEqual([
      `weft: invalid configuration: REGISTRY: the registry folder ${missing} does not exist`,
      '  hint: set --registry / REGISTRY to an initia-registry style folder or URL: `weft devnet --registry <folder>` writes one for its chains',
    ]);
  });

  it('a node URL where nothing answers stops the indexer, naming the URL and the setting', async () => {
    const result = await failing([
      'indexer',
      '--chain-id',
      'errors-1',
      '--vm-type',
      'move',
      '--rpc-url',
      'http://127.0.0.1:1',
      '--rest-url',
      'http://127.0.0.1:1',
      '--data-dir',
      'memory://',
      '--log-level',
      'error',
    ]);
    expect(result.lines).toEqual([
      'weft: nothing answers at http://127.0.0.1:1 (RPC_URL): connection refused (ECONNREFUSED)',
      '  hint: start the node, or set --rpc-url / RPC_URL to the URL of one that answers',
    ]);
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });
});
