/// <reference lib="dom" />
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killAll, startStack } from 'weft-devnet/dev/test-support/dev-process.js';
import { ensureChromium, launchChromium, screenshot } from './browser-support.js';

// The dashboard as a person uses it: `weft dev` (what `npm start` runs) in a child process, Debian's
// Chromium driven by playwright-core, a click at a time. Screenshots go to test-results/dashboard.
const dir = mkdtempSync(join(tmpdir(), 'weft-dashboard-'));
const children: ChildProcess[] = [];
let browser: Browser | undefined;

beforeAll(() => ensureChromium(), 600_000);
afterAll(async () => {
  await browser?.close();
  killAll(children);
  rmSync(dir, { recursive: true, force: true });
});

const SHOTS = 'dashboard';
const TERMINAL = /STATE_COMPLETED_SUCCESS|STATE_COMPLETED_ERROR|STATE_ABANDONED/;

/** Waits until the page's `selector` text matches `pattern`, re-read as the page updates. */
async function textMatches(page: Page, selector: string, pattern: RegExp, timeoutMs = 30_000) {
  await page.waitForFunction(
    ([sel, source]) => new RegExp(source!).test(document.querySelector(sel!)?.textContent ?? ''),
    [selector, pattern.source],
    { timeout: timeoutMs },
  );
}

describe('the dashboard in a browser', () => {
  it('follows a tx from the block list to its page and an account, opens an NFT collection, asks for a route and watches a transfer complete', async () => {
    const { manifest } = await startStack(
      [
        ...['--seed', 'dashboard', '--block-time', '500ms', '--txs-per-block', '6'],
        ...['--op-output-interval', '2s', '--op-finalization-period', '4s'],
        ...['--port-base', '0', '--api-port-base', '0', '--router-port', '0', '--dashboard-port', '0'],
        ...['--registry-port', '0'],
        ...['--data-dir', 'memory://', '--state-dir', '', '--registry', join(dir, 'registry')],
      ],
      join(dir, 'manifest.json'),
      children,
    );
    const base: string = manifest.dashboard;
    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    // Generous: CI runs this beside other test files on two cores, with six chains producing blocks.
    page.setDefaultTimeout(60_000);
    const pageErrors: string[] = [];
    page.on('pageerror', (err) => pageErrors.push(err.message));

    // The network: every indexed chain's indexer answers, with its lag behind the chain's node.
    await page.goto(base);
    await textMatches(page, 'main table tbody', /weft-evm-1/);
    await page.waitForFunction(
      () =>
        Array.from(document.querySelectorAll('main tbody tr')).filter((tr) =>
          /live|catching up/.test(tr.textContent ?? ''),
        ).length >= 4,
      undefined,
      { timeout: 90_000 },
    );
    // The EVM rollup's extensions say in words how far behind its indexed height they are.
    await textMatches(page, 'main tbody', /weft-evm-1.*internal txs (up to date|\d+ behind)/);
    await screenshot(page, SHOTS, '1-network');

    // A chain's live blocks; a block; an EVM tx in it, with its receipt and call tree; its signer.
    await page.getByRole('link', { name: 'weft-evm-1', exact: true }).click();
    await page.waitForURL(`${base}/chains/weft-evm-1`);
    const blocks = page.locator('section', { hasText: 'Latest blocks' });
    await blocks.locator('tbody a').first().waitFor();
    await page.locator('section.txs tbody a').first().waitFor();
    await screenshot(page, SHOTS, '2-chain');
    await blocks.locator('tbody a').first().click();
    await page.waitForURL(/\/chains\/weft-evm-1\/blocks\/\d+$/);
    const call = page.locator('tbody tr', { hasText: 'MsgCall' }).first();
    await call.waitFor();
    await screenshot(page, SHOTS, '3-block');
    await call.locator('td').first().locator('a').click();
    await page.waitForURL(/\/chains\/weft-evm-1\/txs\/[0-9A-F]{64}$/);
    await page.getByRole('heading', { name: 'Cosmos tx' }).waitFor();
    await page.getByRole('heading', { name: 'EVM receipt' }).waitFor();
    await page.getByRole('heading', { name: 'Internal calls' }).waitFor();
    // Its fee in the fee token's decimals and symbol (the router's assets), the base units on hover.
    const fee = page.locator('dd', { has: page.locator('span[title$=" GAS"]') }).first();
    // An EVM tx's fee is its gas fee cap × gas limit (+1), a fraction of a GAS of 18 decimals.
    expect(await fee.textContent()).toMatch(/^0\.\d+ GAS$/);
    expect(await fee.locator('span').getAttribute('title')).toMatch(/^\d{10,} GAS$/);
    await screenshot(page, SHOTS, '4-tx');
    const signer = (await page.locator('.signer a').getAttribute('href'))!;
    await page.locator('.signer a').click();
    await page.waitForURL(`${base}${signer}`);
    await page.locator('.account-address').waitFor();
    await page.locator('section', { hasText: 'Txs' }).locator('tbody tr:not(.empty) a').first().waitFor();
    // Its balances, which the router reads from the chain's node.
    await page.locator('section', { hasText: 'Balances' }).locator('tbody tr:not(.empty)').first().waitFor();
    await screenshot(page, SHOTS, '5-account');

    // An NFT collection and its tokens.
    await page.getByRole('link', { name: 'NFT collections' }).click();
    await page.waitForURL(`${base}/chains/weft-evm-1/nfts`);
    await page.locator('tbody a[href*="/nfts/0x"]').first().click();
    await page.waitForURL(/\/chains\/weft-evm-1\/nfts\/0x[0-9a-fA-F]+$/);
    await page.locator('.collection-name').waitFor();
    await page.locator('tbody tr:not(.empty)').first().waitFor();
    await screenshot(page, SHOTS, '6-collection');

    // A route from the L1's INIT to the EVM rollup's bridged INIT: one OPinit deposit.
    await page.getByRole('link', { name: 'Route', exact: true }).click();
    await page.waitForURL(`${base}/route`);
    await page.selectOption('select[name=src_chain]', 'weft-l1-1');
    await page.waitForFunction(
      () => document.querySelector<HTMLSelectElement>('select[name=src_chain]')?.value === 'weft-l1-1',
    );
    await page.selectOption('select[name=src_denom]', 'uinit');
    await page.selectOption('select[name=dst_chain]', 'weft-evm-1');
    await page.waitForFunction(
      () => document.querySelector<HTMLSelectElement>('select[name=dst_chain]')?.value === 'weft-evm-1',
    );
    const bridged = await page
      .locator('select[name=dst_denom] option', { hasText: 'INIT' })
      .first()
      .getAttribute('value');
    expect(bridged).toMatch(/^l2\//);
    await page.selectOption('select[name=dst_denom]', bridged!);
    await page.fill('input[name=amount]', '2.5');
    await page.getByRole('button', { name: 'Find route' }).click();
    await page.locator('.route-result').waitFor();
    await textMatches(page, '.route-result', /OPinit bridge/);
    expect(await page.locator('.route-result').textContent()).toContain('Amount out2.5');
    expect(new URL(page.url()).searchParams.get('amount')).toBe('2.5');
    await screenshot(page, SHOTS, '7-route');

    // Transfers: the router tracks the traffic's; follow an OFT send from the external EVM chain
    // while it is under way, until it completes. One send in ten fails at its source on purpose (the
    // OFT's slippage check), so the one followed is past its source tx (STATE_PENDING), not merely
    // registered (STATE_SUBMITTED, which such a send leaves for STATE_COMPLETED_ERROR).
    await page.getByRole('link', { name: 'Transfers', exact: true }).click();
    await page.waitForURL(`${base}/transfers`);
    await page.locator('.recent tbody a').first().waitFor({ timeout: 60_000 });
    await screenshot(page, SHOTS, '8-transfers');
    const underway = page
      .locator('.recent tbody tr', { hasText: '31337' })
      .filter({ hasText: /STATE_PENDING\b/ })
      .first();
    await underway.waitFor({ timeout: 120_000 });
    await underway.locator('a').click();
    await page.waitForURL(/\/transfers\?chain=31337&tx=/);
    await page.locator('.transfer-state').waitFor();
    await textMatches(page, '.transfer-state', TERMINAL, 150_000);
    expect(await page.locator('.transfer-state').textContent()).toBe('STATE_COMPLETED_SUCCESS');
    // Each hop links its txs on the chains the dashboard indexes: the delivery (on the L1 or the EVM rollup).
    const delivery = page.locator('.hop a[href^="/chains/"]').first();
    await delivery.waitFor();
    await screenshot(page, SHOTS, '9-transfer');
    await delivery.click();
    await page.waitForURL(/\/chains\/weft-(evm|l1)-1\/txs\//);
    await page
      .getByRole('heading', { name: /^(Cosmos tx|EVM receipt)$/ })
      .first()
      .waitFor();
    await screenshot(page, SHOTS, '10-transfer-delivery');

    expect(pageErrors).toEqual([]);
  }, 600_000);
});
