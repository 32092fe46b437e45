import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { sourceCli } from 'weft/cli/test-support/source-cli.js';
import { until } from '../../test-support/until.js';

/** `weft dev` as `npm start` runs it, through the CLI entry point. */
export const devCli = (args: string[]) => sourceCli(['dev', ...args]);

/** Spawns `weft dev` with `args`, collecting what it prints; `children` gets it, to be killed at the end. */
export function startDev(args: string[], children: ChildProcess[]) {
  const child = spawn(process.execPath, devCli(args), { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const out = { stdout: '', stderr: '' };
  child.stdout!.on('data', (chunk: Buffer) => {
    out.stdout += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    out.stderr += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, out, exited };
}

/**
 * Starts `weft dev` with `args` and waits until it has written its manifest at `manifestPath` (it
 * does once the whole stack serves); a stack that does not come up fails with what it printed.
 */
export async function startStack(args: string[], manifestPath: string, children: ChildProcess[]) {
  const started = startDev([...args, '--manifest', manifestPath], children);
  const manifest = await until(
    'the stack to serve',
    async () => (existsSync(manifestPath) ? JSON.parse(readFileSync(manifestPath, 'utf8')) : undefined),
    150_000,
    { retryErrors: true },
  ).catch((err) => {
    throw new Error(`${(err as Error).message}\n${started.out.stderr}`);
  });
  return { ...started, manifest: manifest as Record<string, any> };
}

/** Kills, by their handle, the `weft dev` processes a test started and that still run. */
export function killAll(children: ChildProcess[]): void {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

export async function json(url: string): Promise<any> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${await response.text()}`);
  return response.json();
}
