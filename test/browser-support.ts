import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';

/** Debian's Chromium, which the browser tests drive (Playwright's own browser download is not used). */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Where the browser tests leave their screenshots (git ignores it). */
export const ARTIFACTS = join(process.cwd(), 'test-results');

/**
 * Installs Debian's `chromium` package when it is missing, as the tests' own set-up, so that the
 * test command passes on a fresh machine. Needs root and apt; says what to do otherwise.
 */
export function ensureChromium(): void {
  if (existsSync(CHROMIUM)) return;
  if (process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) {
    throw new Error(
      `${CHROMIUM} is missing: install Debian's chromium package (apt-get install chromium) or set CHROMIUM_PATH`,
    );
  }
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (!existsSync(CHROMIUM)) throw new Error(`apt-get installed chromium but ${CHROMIUM} is still missing`);
}

/** Headless Chromium with no traffic of its own (no background networking, updates or sync). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

/** Saves a full-page screenshot of `page` as `<folder>/<name>.png` under the artefacts. */
export async function screenshot(page: Page, folder: string, name: string): Promise<void> {
  const dir = join(ARTIFACTS, folder);
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
}
