import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitHash, commitHashSoon, packageVersion } from './build.js';

/** The build info of `/status`: the version from package.json, the commit from the build or from git. */

const git = (cwd: string, ...args: string[]) =>
  execFileSync(
    'git',
    ['-c', 'user.name=weft', '-c', 'user.email=weft@example.invalid', '-c', 'commit.gpgsign=false', ...args],
    {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  ).trim();

describe('build info', () => {
  let dir: string;
  let repo: string;
  let head: string;
  const env = { PATH: process.env.PATH };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'weft-build-'));
    repo = join(dir, 'repo');
    mkdirSync(join(repo, 'nested'), { recursive: true });
    git(repo, 'init', '-q');
    writeFileSync(join(repo, 'file'), 'one\n');
    git(repo, 'add', 'file');
    git(repo, 'commit', '-q', '-m', 'one');
    head = git(repo, 'rev-parse', 'HEAD');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the version from package.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(packageVersion()).toBe(`v${pkg.version}`);
  });

  it("reads the running package's hash without blocking, once", async () => {
    const soon = commitHashSoon();
    expect(soon).toBeInstanceOf(Promise);
    expect(commitHashSoon()).toBe(soon);
    expect(await soon).toBe(commitHash());
  });

  it('takes WEFT_COMMIT_HASH when the build sets it', () => {
    expect(commitHash({ ...env, WEFT_COMMIT_HASH: 'abc123' }, repo)).toBe('abc123');
    expect(commitHash({ ...env, WEFT_COMMIT_HASH: ' ' }, repo)).toBe(head);
  });

  it("reads the checkout's HEAD without it, and follows a new commit", () => {
    expect(head).toMatch(/^[0-9a-f]{40}$/);
    expect(commitHash(env, repo)).toBe(head);
    writeFileSync(join(repo, 'file'), 'two\n');
    git(repo, 'commit', '-q', '-a', '-m', 'two');
    const next = git(repo, 'rev-parse', 'HEAD');
    expect(next).not.toBe(head);
    expect(commitHash(env, repo)).toBe(next);
    head = next;
  });

  it('says unknown outside a checkout, inside a checkout it is not the top of, or without git', () => {
    const plain = join(dir, 'plain');
    mkdirSync(plain);
    expect(commitHash(env, plain)).toBe('unknown');
    expect(commitHash(env, join(repo, 'nested'))).toBe('unknown');
    expect(commitHash({ PATH: '' }, repo)).toBe('unknown');
    expect(commitHash(env, join(dir, 'missing'))).toBe('unknown');
    // A package of the checkout's workspace is the checkout's own; one in another folder is not.
    mkdirSync(join(repo, 'packages', 'weft'), { recursive: true });
    mkdirSync(join(repo, 'vendor', 'weft'), { recursive: true });
    expect(commitHash(env, join(repo, 'packages', 'weft'))).toBe(head);
    expect(commitHash(env, join(repo, 'vendor', 'weft'))).toBe('unknown');
  });
});
