import { execFile, execFileSync } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What `/status` reports of the running code. */
export interface BuildInfo {
  /** `v` + package.json's version. */
  version: string;
  /** The git commit the code was built from, or `unknown`; possibly still being read (`commitHashSoon`). */
  commitHash: string | Promise<string>;
}

const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return `v${pkg.version}`;
}

/**
 * `WEFT_COMMIT_HASH` when the build sets it (an image built without `.git`); otherwise the HEAD of the
 * git checkout whose top folder is `root` (or the workspace whose packages/ holds it), or `unknown` without
 * git or a checkout. A checkout that merely encloses `root` (the package installed in another project) is
 * not ours, so it does not count.
 */
export function commitHash(env: NodeJS.ProcessEnv = process.env, root: string = PACKAGE_ROOT): string {
  const given = givenHash(env);
  if (given) return given;
  try {
    return headOf(execFileSync('git', GIT_ARGS, gitOptions(env, root)), root);
  } catch {
    return 'unknown';
  }
}

/**
 * `commitHash()` without waiting for git: it runs beside the caller (a server starting need not stop for
 * it, 0.1 s at the dev stack's start), once per process.
 */
export function commitHashSoon(): Promise<string> {
  soon ??= new Promise((resolve) => {
    const given = givenHash(process.env);
    if (given) return resolve(given);
    execFile('git', GIT_ARGS, gitOptions(process.env, PACKAGE_ROOT), (err, stdout) => {
      try {
        resolve(err ? 'unknown' : headOf(stdout, PACKAGE_ROOT));
      } catch {
        resolve('unknown');
      }
    });
  });
  return soon;
}
let soon: Promise<string> | undefined;

/** The hash the build set (`WEFT_COMMIT_HASH`), if it set one. */
const givenHash = (env: NodeJS.ProcessEnv) => env.WEFT_COMMIT_HASH?.trim() || undefined;

const GIT_ARGS = ['rev-parse', '--show-toplevel', 'HEAD'];

const gitOptions = (env: NodeJS.ProcessEnv, root: string) => ({
  cwd: root,
  env,
  encoding: 'utf8' as const,
  stdio: ['ignore', 'pipe', 'ignore'] as Array<'ignore' | 'pipe'>,
  timeout: 2000,
});

/** The HEAD `git rev-parse --show-toplevel HEAD` printed, if its checkout is the package's own. */
function headOf(output: string, root: string): string {
  const [top, head] = output.trim().split('\n');
  if (!top || !head || !ownTops(root).includes(realpathSync(top))) return 'unknown';
  return /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(head) ? head : 'unknown';
}

/** The folders whose checkout is the package's own: its folder, and its workspace's when in packages/. */
function ownTops(root: string): string[] {
  const real = realpathSync(root);
  return basename(dirname(real)) === 'packages' ? [real, dirname(dirname(real))] : [real];
}
