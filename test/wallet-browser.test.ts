/// <reference lib="dom" />
import { type ChildProcess, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toBech32 } from '@cosmjs/encoding';
import { DirectSecp256k1Wallet } from '@cosmjs/proto-signing';
import { GasPrice, SigningStargateClient } from '@cosmjs/stargate';
import type { Browser, Page } from 'playwright-core';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, killAll, startDev } from '../src/dev/test-support/dev-process.js';
import { WALLET_PACKAGE_DIR } from '../src/dev/wallet-page.js';
import { deriveAccount } from '../src/devnet/keys.js';
import { until } from '../src/devnet/test-support/until.js';
import { ensureChromium, launchChromium, screenshot } from './browser-support.js';

// InterwovenKit (npm's @initia/interwovenkit-react, unchanged) on the stack `npm start` runs: the wallet
// package is installed and built by its one npm script, `weft dev` serves it, and Debian's Chromium
// opens it with InterwovenKit's own test wallet. Every request to a host other than this machine is
// refused by the page's router and listed: the page must work on the stack alone.
const dir = mkdtempSync(join(tmpdir(), 'weft-wallet-'));
const children: ChildProcess[] = [];
let browser: Browser | undefined;
const SHOTS = 'wallet';
const SEED = 'wallet-page';
// A key no devnet account has: the wallet's address exists on the L1 only once the test funds it.
const KEY = '0x8a1f9a8f95be41cd7ccb6168179afb4504aefe388d1e14474d32c45c72ce7b7a' as const;

beforeAll(() => {
  ensureChromium();
  execFileSync('npm', ['run', 'wallet:build'], { stdio: 'inherit', timeout: 600_000 });
}, 660_000);
afterAll(async () => {
  await browser?.close();
  killAll(children);
  rmSync(dir, { recursive: true, force: true });
});

/** Sends INIT on the L1 from a devnet account to `to`, retrying while the traffic moves its sequence. */
async function fund(rpc: string, to: string): Promise<string> {
  const funder = deriveAccount({ seed: SEED, index: 2, keyType: 'secp256k1', prefix: 'init' });
  const signer = await DirectSecp256k1Wallet.fromKey(Buffer.from(funder.privateKey.slice(2), 'hex'), 'init');
  const client = await SigningStargateClient.connectWithSigner(rpc, signer, {
    gasPrice: GasPrice.fromString('0.015uinit'),
  });
  try {
    return await until(
      'the funding send',
      async () => {
        const result = await client.sendTokens(
          funder.address,
          to,
          [{ denom: 'uinit', amount: '5000000' }],
          'auto',
        );
        expect(result.code, result.rawLog).toBe(0);
        return result.transactionHash;
      },
      60_000,
      { retryErrors: true },
    );
  } finally {
    client.disconnect();
  }
}

async function clickText(page: Page, text: string) {
  await page.getByText(text, { exact: true }).last().click();
}

describe('InterwovenKit on the weft stack, in a browser', () => {
  it('reads the registry service, connects the test wallet, and its activity tab lists what the L1 indexer lists', async () => {
    expect(existsSync(join(WALLET_PACKAGE_DIR, 'dist', 'index.html'))).toBe(true);
    const manifestPath = join(dir, 'manifest.json');
    const { out } = startDev(
      [
        ...['--seed', SEED, '--block-time', '500ms', '--txs-per-block', '2'],
        ...['--port-base', '0', '--api-port-base', '0', '--router-port', '0', '--dashboard-port', '0'],
        ...[
          '--registry-port',
          '0',
          '--data-dir',
          'memory://',
          '--state-dir',
          '',
          '--registry',
          join(dir, 'registry'),
        ],
        ...['--manifest', manifestPath],
      ],
      children,
    );
    const manifest = await until(
      'the stack to serve',
      async () => (existsSync(manifestPath) ? JSON.parse(readFileSync(manifestPath, 'utf8')) : undefined),
      150_000,
      { retryErrors: true },
    ).catch((err) => {
      throw new Error(`${(err as Error).message}\n${out.stderr}`);
    });
    expect(manifest.wallet).toBe(`${manifest.dashboard}/wallet/`);

    // The registry service: every chain InterwovenKit normalises has the URLs it requires.
    const chains = (await json(`${manifest.registry_url}/chains.json`)) as any[];
    expect(chains.map((c) => c.chain_id).sort()).toEqual([
      'weft-evm-1',
      'weft-l1-1',
      'weft-move-1',
      'weft-wasm-1',
    ]);
    for (const chain of chains) {
      for (const api of ['rpc', 'rest', 'indexer'])
        expect(chain.apis[api]?.[0]?.address, api).toMatch(/^http/);
      if (chain.metadata.minitia?.type === 'minievm')
        expect(chain.apis['json-rpc'][0].address).toMatch(/^http/);
      const list = await json(chain.metadata.assetlist);
      expect(list.assets.length).toBeGreaterThan(0);
    }
    expect(chains.filter((c) => c.metadata.is_l1)).toHaveLength(1);
    expect((await json(`${manifest.registry_url}/profiles.json`)).length).toBe(4);

    const l1 = manifest.chains.find((c: any) => c.chain_id === 'weft-l1-1');
    const wallet = privateKeyToAccount(KEY);
    const address = toBech32('init', Buffer.from(wallet.address.slice(2), 'hex'));
    // The manifest comes before the first block: the L1 must have blocks before cosmjs connects.
    await until(
      'L1 blocks',
      async () => Number((await json(`${l1.rpc}/status`)).result.sync_info.latest_block_height) >= 2,
      60_000,
      { retryErrors: true },
    );
    const fundingHash = await fund(l1.rpc, address);
    const indexed = await until(
      'the L1 indexer to list the funding',
      async () => {
        const page = await json(
          `${l1.indexer_api}/indexer/tx/v1/txs/by_account/${address}?pagination.reverse=true`,
        );
        return page.txs.some((tx: any) => tx.txhash === fundingHash) ? page.txs : undefined;
      },
      60_000,
    );

    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(60_000);
    const elsewhere = new Set<string>();
    await page.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (url.hostname === '127.0.0.1' || url.protocol === 'data:' || url.protocol === 'blob:')
        return route.continue();
      elsewhere.add(url.origin);
      return route.abort();
    });
    const pageErrors: string[] = [];
    page.on('pageerror', (err) => pageErrors.push(err.message));

    await page.goto(`${manifest.wallet}#key=${KEY}`);
    await page.getByTestId('address').getByText(address).waitFor();
    await screenshot(page, SHOTS, '1-connected');
    await page.getByRole('button', { name: 'Wallet' }).click();
    await clickText(page, 'Activity');
    // One row per tx the indexer lists for the account, each naming its chain and its msg ("Send").
    const l1Name = chains.find((c) => c.metadata.is_l1).pretty_name as string;
    await page.getByText(l1Name, { exact: true }).first().waitFor();
    await screenshot(page, SHOTS, '2-activity');
    expect(await page.getByText(l1Name, { exact: true }).count()).toBe(indexed.length);
    // The drawer's Send button, then one per MsgSend row.
    const sends = indexed.filter((tx: any) => tx.tx.body.messages[0]['@type'].endsWith('MsgSend')).length;
    expect(await page.getByText('Send', { exact: true }).count()).toBe(1 + sends);
    expect(pageErrors).toEqual([]);
    // Fonts and the hosted price indexer are the only hosts InterwovenKit asks for on its own.
    for (const origin of elsewhere)
      expect([
        'https://fonts.googleapis.com',
        'https://assets.initia.xyz',
        'https://indexer.initia.xyz',
        'https://ethereum-rpc.publicnode.com',
      ]).toContain(origin);
  });
});
