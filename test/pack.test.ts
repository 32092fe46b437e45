import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDb } from 'weft/store/test-support/backends.js';
import type { Devnet } from 'weft-devnet/devnet.js';
import { testDevnet } from 'weft-devnet/test-support/devnet.js';
import { until } from 'weft-devnet/test-support/until.js';
import { freePort } from './api-process-support.js';

/**
 * The product as an operator installs it: `npm pack` of packages/weft (its prepack compiles it), the
 * tarball installed into an empty folder with `--omit=dev`, and that install's `weft indexer`, `weft api`,
 * `weft router` and `weft dashboard` run against the devnet. Without the devnet package, `weft devnet`
 * says in one line how to install it; with it (packed too, and installed beside the product in a folder
 * of its own), `weft dev` runs from the devnet package's bundle of its entry.
 */

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const pg = useTestDb('postgres');
const dir = mkdtempSync(join(tmpdir(), 'weft-pack-'));
const app = join(dir, 'app');
const weft = join(app, 'node_modules', '.bin', 'weft');
const children: Array<ReturnType<typeof spawn>> = [];
let devnet: Devnet;
let registry: string;
let tarball: string;

/** `npm pack` of a workspace package (its prepack compiles it): the tarball's path. */
async function pack(workspace: string): Promise<string> {
  const packed = await run('npm', ['pack', '--workspace', workspace, '--pack-destination', dir], {
    cwd: ROOT,
    maxBuffer: 1 << 24,
  });
  return join(dir, packed.stdout.trim().split('\n').pop()!);
}

/** A new folder `folder`, a package of its own named `name`, with `tarballs` installed without dev dependencies. */
async function installInto(folder: string, name: string, tarballs: string[]): Promise<void> {
  mkdirSync(folder);
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name, private: true }));
  await run('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline', ...tarballs], {
    cwd: folder,
    maxBuffer: 1 << 24,
  });
}

beforeAll(async () => {
  tarball = await pack('weft');
  await installInto(app, 'operator', [tarball]);
  devnet = await testDevnet({ seed: 'pack', vms: ['evm'], accounts: 4, txsPerBlock: 3 });
  registry = join(dir, 'registry');
  devnet.writeRegistry(registry);
  await devnet.fastForward(12);
}, 300_000);

afterAll(async () => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  await devnet?.close();
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

/** Starts the installed `weft <args>` and answers its output so far, as it grows. */
function start(args: string[], env: Record<string, string>, bin = weft): { output: string[] } {
  const child = spawn(bin, args, {
    cwd: app,
    env: { PATH: process.env.PATH, LOG_FORMAT: 'json', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const output: string[] = [];
  child.stdout!.on('data', (d: Buffer) => output.push(d.toString()));
  child.stderr!.on('data', (d: Buffer) => output.push(d.toString()));
  child.once('exit', (code) => output.push(`exited with ${code}`));
  return { output };
}

async function json(url: string): Promise<any> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return response.json();
}

describe('the packed product, installed without dev dependencies', () => {
  it('installs the product alone: no devnet, compiler, simulator or TypeScript loader', () => {
    const installed = readdirSync(join(app, 'node_modules'));
    expect(installed).toContain('weft');
    for (const absent of ['weft-devnet', 'solc', 'tsx', 'typescript', 'vitest'])
      expect(installed).not.toContain(absent);
    expect(existsSync(join(app, 'node_modules', '@ethereumjs'))).toBe(false);
    expect(existsSync(join(app, 'node_modules', 'weft', 'dist', 'cli', 'main.js'))).toBe(true);
    expect(existsSync(join(app, 'node_modules', 'weft', 'src'))).toBe(false);
  });

  it('runs weft indexer and weft api on PostgreSQL, weft router on the registry, weft dashboard over both', async () => {
    const chain = devnet.chains[0]!;
    const chainId = chain.chain.info.chainId;
    // An indexer and its API are two processes: they share a PostgreSQL schema (PGlite is one process's).
    const store = { DB_DSN: pg.dsn()!, DB_SCHEMA: 'packed' };
    const indexer = start(['indexer'], {
      ...store,
      CHAIN_ID: chainId,
      VM_TYPE: 'evm',
      RPC_URL: chain.urls.rpc,
      REST_URL: chain.urls.rest,
      JSON_RPC_URL: chain.urls.jsonRpc!,
      POLL_INTERVAL: '200ms',
    });

    const apiPort = await freePort();
    const api = start(['api'], {
      ...store,
      CHAIN_ID: chainId,
      VM_TYPE: 'evm',
      HOST: '127.0.0.1',
      PORT: String(apiPort),
    });
    const apiUrl = `http://127.0.0.1:${apiPort}`;
    const txs = await until(
      'the installed indexer and API to serve the devnet txs',
      async () => {
        const page = await json(`${apiUrl}/indexer/tx/v1/txs?pagination.limit=5`).catch(() => undefined);
        return page?.txs.length > 0 && page;
      },
      60_000,
    ).catch((err) => {
      throw new Error(`${err}\nindexer: ${indexer.output.join('')}\napi: ${api.output.join('')}`);
    });
    expect(txs.txs[0].tx.body).toBeDefined();
    expect((await json(`${apiUrl}/status`)).chain_id).toBe(chainId);

    const router = start(['router', '--registry', registry, '--host', '127.0.0.1', '--port', '0'], store);
    const routerUrl = await until(
      'the installed router to serve',
      () => /"url":"(http:\/\/[^"]+)"/.exec(router.output.join(''))?.[1],
      30_000,
    );
    const chains = await json(`${routerUrl}/v2/info/chains`);
    expect(chains.chains.map((c: { chain_id: string }) => c.chain_id)).toContain(chainId);

    const dashboardPort = await freePort();
    start(['dashboard'], {
      HOST: '127.0.0.1',
      PORT: String(dashboardPort),
      ROUTER_URL: routerUrl,
      INDEXER_APIS: `${chainId}=${apiUrl}`,
    });
    const page = await until(
      'the installed dashboard to serve',
      () =>
        fetch(`http://127.0.0.1:${dashboardPort}/`).then(
          async (r) => r.ok && r.text(),
          () => false,
        ),
      30_000,
    );
    expect(page).toContain('<html');
  }, 120_000);

  it('weft dev runs from the installed devnet package (its bundle), serves, and stops cleanly', async () => {
    const withDevnet = join(dir, 'with-devnet');
    await installInto(withDevnet, 'developer', [tarball, await pack('weft-devnet')]);
    const installed = join(withDevnet, 'node_modules', 'weft-devnet', 'dist');
    expect(existsSync(join(installed, 'bundle', 'dev.js'))).toBe(true);
    // The command's own compiled module goes: the stack below runs from the bundle or not at all.
    rmSync(join(installed, 'cli', 'dev.js'));

    const state = join(dir, 'dev');
    const manifestPath = join(state, 'manifest.json');
    const ports = ['--port-base', '--api-port-base', '--router-port', '--dashboard-port', '--registry-port'];
    const dev = start(
      [
        'dev',
        ...['--vms', 'evm', '--seed', 'pack', '--block-time', '200ms', '--txs-per-block', '2'],
        ...ports.flatMap((flag) => [flag, '0']),
        ...['--state-dir', join(state, 'chains'), '--data-dir', join(state, 'store')],
        ...['--registry', join(state, 'registry'), '--manifest', manifestPath],
      ],
      {},
      join(withDevnet, 'node_modules', '.bin', 'weft'),
    );
    // The table's last row comes after the manifest is written.
    await until(
      'the installed weft dev to serve',
      () => {
        const output = dev.output.join('');
        if (output.includes('exited with')) throw new Error(`weft dev stopped:\n${output}`);
        return /^control\s+url=http:\/\/127\.0\.0\.1:\d+ /m.test(output);
      },
      120_000,
    );
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    const indexed = (manifest.chains as Array<{ chain_id: string; indexer_api: string | null }>).filter(
      (c) => c.indexer_api !== null,
    );
    expect(indexed.length).toBeGreaterThan(1);
    const { chain_id: chainId, indexer_api: apiUrl } = indexed[0]!;
    await until(
      'the stack to index a tx',
      async () => (await json(`${apiUrl}/indexer/tx/v1/txs?pagination.limit=1`)).txs.length > 0,
      60_000,
      { retryErrors: true },
    );
    expect((await json(`${apiUrl}/status`)).chain_id).toBe(chainId);
    const chains = await json(`${manifest.router}/v2/info/chains`);
    expect(chains.chains.map((c: { chain_id: string }) => c.chain_id)).toContain(chainId);
    // Some 30 blocks of traffic and relaying (a block every 200 ms), then not one error in the log: a
    // package the bundle loads unlike Node shows here first.
    const from = (await json(`${apiUrl}/status`)).height;
    await until('30 more blocks', async () => (await json(`${apiUrl}/status`)).height >= from + 30, 60_000);
    const errors = dev.output
      .join('')
      .split('\n')
      .filter((line) => /^error |"level":50/.test(line));
    expect(errors).toEqual([]);

    const child = children.at(-1)!;
    child.kill('SIGTERM');
    const [code, signal] = await once(child, 'exit');
    expect({ code, signal }, dev.output.join('')).toEqual({ code: 0, signal: null });
  }, 240_000);

  it('weft devnet says in one line how to install the devnet package', async () => {
    const failed = await run(weft, ['devnet'], { cwd: app }).then(
      () => undefined,
      (err: { code: number; stderr: string }) => err,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr.trim()).toBe(
      'weft: weft devnet runs on the devnet package, which is not installed: npm install weft-devnet',
    );
  });
});
