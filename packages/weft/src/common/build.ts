import { execFileSync } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What `/status` reports of the running code. */
export interface BuildInfo {
  /** `v` + package.json's version. */
  version: string;
  /** The git commit the code was built from, or `unknown`. */
  commitHash: string;
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
  const given = env.WEFT_COMMIT_HASH?.trim();
  if (given) return given;
  try {
    const [top, head] = execFileSync('git', ['rev-parse', '--show-toplevel', 'HEAD'], {
      cwd: root,
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 2000,
    })
      .trim()
      .split('\n');
    if (!top || !head || !ownTops(root).includes(realpathSync(top))) return 'unknown';
    return /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(head) ? head : 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The folders whose checkout is the package's own: its folder, and its workspace's when in packages/. */
function ownTops(root: string): string[] {
  const real = realpathSync(root);
  return basename(dirname(real)) === 'packages' ? [real, dirname(dirname(real))] : [real];
}

let cached: BuildInfo | undefined;

/** The running code's build, read once per process. */
export function buildInfo(): BuildInfo {
  cached ??= { version: packageVersion(), commitHash: commitHash() };
  return cached;
}
