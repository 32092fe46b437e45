import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { sourceCli } from 'weft/cli/test-support/source-cli.js';

/** `weft api` as a process of its own, for the tests that load it from outside. */

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** A loopback port nothing listens on now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

export interface ApiProcess {
  child: ChildProcess;
  url: string;
  output: string[];
  stop(): Promise<void>;
}

/**
 * Starts `weft api` on a free loopback port over the store at `dsn` (`env` adds settings, DB_SCHEMA
 * among them), with the node flags of the npm scripts, and waits for its `/status`.
 */
export async function startApiProcess(dsn: string, env: Record<string, string>): Promise<ApiProcess> {
  const port = await freePort();
  const output: string[] = [];
  const child = spawn(process.execPath, sourceCli(['api']), {
    cwd: ROOT,
    env: { ...process.env, DB_DSN: dsn, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => output.push(d.toString()));
  child.stderr!.on('data', (d: Buffer) => output.push(d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`weft api exited: ${output.join('')}`);
    const ok = await fetch(`${url}/status`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`weft api did not answer: ${output.join('')}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    child,
    url,
    output,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}
