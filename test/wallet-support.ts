/// <reference lib="dom" />
import { DirectSecp256k1Wallet } from '@cosmjs/proto-signing';
import { type Coin, GasPrice, SigningStargateClient } from '@cosmjs/stargate';
import type { Browser, Page } from 'playwright-core';
import { createPublicClient, createWalletClient, defineChain, type Hex, http, parseAbi } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { expect } from 'vitest';
import { json } from 'weft-devnet/dev/test-support/dev-process.js';
import { until } from 'weft-devnet/test-support/until.js';
import { screenshot } from './browser-support.js';

// Drives InterwovenKit's own UI (2.12.1, unchanged) on the wallet page `weft dev` serves: the bridge
// form, its preview and signing, its history and its withdrawal status. Selectors are the names a
// person reads (button labels, chain names InterwovenKit puts in `aria-label`s).

export const SHOTS = 'wallet';

/** The hosts InterwovenKit asks for on its own whatever it is configured with: fonts, icons, prices. */
export const OWN_HOSTS = [
  'https://fonts.googleapis.com',
  'https://assets.initia.xyz',
  'https://indexer.initia.xyz',
  'https://ethereum-rpc.publicnode.com',
];

export type Manifest = Record<string, any>;

export const chainOf = (manifest: Manifest, chainId: string) =>
  manifest.chains.find((c: any) => c.chain_id === chainId);

/** Sends `coins` on a Cosmos chain from a devnet account's key, retrying while the devnet's traffic moves its sequence. */
export async function sendCoins(
  rpc: string,
  privateKey: string,
  to: string,
  coins: Coin[],
  gasPrice: string,
) {
  const signer = await DirectSecp256k1Wallet.fromKey(Buffer.from(privateKey.slice(2), 'hex'), 'init');
  const [account] = await signer.getAccounts();
  const client = await SigningStargateClient.connectWithSigner(rpc, signer, {
    gasPrice: GasPrice.fromString(gasPrice),
  });
  try {
    return await until(
      'the funding send',
      async () => {
        const result = await client.sendTokens(account!.address, to, coins, 'auto');
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

/** A viem wallet on an EVM chain's JSON-RPC for `key`, with the chain's public client. */
export async function evmClients(jsonRpc: string, key: Hex) {
  const publicClient = createPublicClient({ transport: http(jsonRpc) });
  const id = await publicClient.getChainId();
  const chain = defineChain({
    id,
    name: `evm-${id}`,
    nativeCurrency: { name: 'GAS', symbol: 'GAS', decimals: 18 },
    rpcUrls: { default: { http: [jsonRpc] } },
  });
  const wallet = createWalletClient({ account: privateKeyToAccount(key), chain, transport: http(jsonRpc) });
  return { publicClient, wallet };
}

/** Sends an EVM tx with `key` and waits for its receipt, retrying while the devnet's traffic moves the nonce. */
export async function evmTx(
  jsonRpc: string,
  key: Hex,
  send: (wallet: Awaited<ReturnType<typeof evmClients>>['wallet']) => Promise<Hex>,
) {
  const { publicClient, wallet } = await evmClients(jsonRpc, key);
  return until(
    'the EVM tx',
    async () => {
      const receipt = await publicClient.waitForTransactionReceipt({ hash: await send(wallet) });
      expect(receipt.status).toBe('success');
      return receipt;
    },
    60_000,
    { retryErrors: true },
  );
}

export async function bankBalance(rest: string, address: string, denom: string): Promise<bigint> {
  const { balance } = await json(
    `${rest}/cosmos/bank/v1beta1/balances/${address}/by_denom?denom=${encodeURIComponent(denom)}`,
  );
  return BigInt(balance?.amount ?? 0);
}

export interface WalletPage {
  page: Page;
  /** Uncaught errors of the page. */
  errors: string[];
  /** Origins beyond this machine the page asked for (refused). */
  elsewhere: Set<string>;
}

/** Opens the wallet page with InterwovenKit's test wallet on `key`; it connects on its own. */
export async function openWallet(
  browser: Browser,
  url: string,
  key: Hex,
  address: string,
): Promise<WalletPage> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(60_000);
  const elsewhere = new Set<string>();
  await page.route('**/*', (route) => {
    const target = new URL(route.request().url());
    if (target.hostname === '127.0.0.1' || target.protocol === 'data:' || target.protocol === 'blob:')
      return route.continue();
    elsewhere.add(target.origin);
    return route.abort();
  });
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  await page.goto(`${url}#key=${key}`);
  await page.getByTestId('address').getByText(address).waitFor();
  return { page, errors, elsewhere };
}

export interface Side {
  chainId: string;
  /** The chain's name as InterwovenKit shows it (its registry `pretty_name`). */
  chain: string;
  symbol: string;
  /** Which of the chain's assets of that symbol to try first (a chain may hold INIT by OPinit and by IBC). */
  nth?: number;
}

async function pick(page: Page, selector: number, side: Side) {
  await page.locator('button[aria-haspopup=dialog]').nth(selector).click();
  const dialog = page.getByRole('dialog').last();
  await dialog.getByRole('button', { name: side.chain, exact: true }).click();
  await dialog
    .getByText(side.symbol, { exact: true })
    .nth(side.nth ?? 0)
    .click();
}

/**
 * Opens InterwovenKit's bridge, picks the assets and the amount, and previews the route; returns the
 * route request InterwovenKit sent the router. A chain may list two assets of one symbol (INIT by
 * OPinit and by IBC) in an order that follows the wallet's balances: `denom` picks the one whose route
 * asks for a matching denom.
 */
export async function previewBridge(
  page: Page,
  route: { from?: Side; to: Side & { denom?: RegExp }; amount: string },
) {
  await page.getByRole('button', { name: 'Bridge', exact: true }).click();
  await page.getByRole('button', { name: 'Withdrawal status', exact: true }).waitFor();
  if (route.from) await pick(page, 0, route.from);
  await page.locator('input').first().fill(route.amount);
  const refused = new Set<string>();
  for (let nth = route.to.nth ?? 0; nth < 4; nth++) {
    // The route InterwovenKit asks once the destination is picked (not one it asked before).
    const routed = page.waitForRequest(
      (r) => {
        if (!r.url().endsWith('/v2/fungible/route')) return false;
        const body = r.postDataJSON();
        return (
          body?.dest_asset_chain_id === route.to.chainId &&
          (!route.from || body.source_asset_chain_id === route.from.chainId) &&
          !refused.has(body.dest_asset_denom)
        );
      },
      { timeout: 15_000 },
    );
    await pick(page, 1, { ...route.to, nth });
    // InterwovenKit asks nothing again for a route it holds: then the next asset of the symbol is tried.
    const request = (await routed.catch(() => undefined))?.postDataJSON() as Record<string, any> | undefined;
    if (!request) continue;
    if (route.to.denom && !route.to.denom.test(request.dest_asset_denom)) {
      refused.add(request.dest_asset_denom);
      continue;
    }
    await page.getByRole('button', { name: 'Preview route', exact: true }).click();
    return request;
  }
  throw new Error(`no ${route.to.symbol} on ${route.to.chain} routes to ${route.to.denom}`);
}

/** The ERC20 balance of `holder` of the token an `evm/<address>` denom names. */
export async function erc20Balance(jsonRpc: string, denom: string, holder: Hex): Promise<bigint> {
  const publicClient = createPublicClient({ transport: http(jsonRpc) });
  return publicClient.readContract({
    address: `0x${denom.slice('evm/'.length)}`,
    abi: parseAbi(['function balanceOf(address) view returns (uint256)']),
    functionName: 'balanceOf',
    args: [holder],
  });
}

/**
 * Confirms the previewed route and approves InterwovenKit's signing prompt; returns the source tx's hash
 * from the node's answer to the broadcast.
 */
export async function confirmBridge(page: Page, shot: string): Promise<string> {
  const broadcast = page.waitForResponse(
    (r) => r.request().method() === 'POST' && (r.request().postData() ?? '').includes('broadcast_tx'),
    { timeout: 120_000 },
  );
  await page.getByRole('button', { name: 'Confirm', exact: true }).click({ timeout: 150_000 });
  await page.getByRole('button', { name: 'Approve', exact: true }).waitFor();
  await screenshot(page, SHOTS, `${shot}-sign`);
  await page.getByRole('button', { name: 'Approve', exact: true }).click();
  const answer = await (await broadcast).json();
  expect(answer.result?.code ?? 0, answer.result?.log).toBe(0);
  return String(answer.result.hash).toUpperCase();
}

/** Waits until the newest item of InterwovenKit's bridge history shows `state`, and screenshots it. */
export async function historyShows(page: Page, state: 'success' | 'error', shot: string) {
  await page.getByRole('button', { name: 'Bridge', exact: true }).click();
  await page.getByRole('button', { name: 'Withdrawal status', exact: true }).waitFor();
  await page.getByRole('button', { name: /history/i }).click();
  await page.getByText('Bridge/Swap activity').waitFor();
  // The newest item comes first; its title holds the state icon (CSS module classes, `_success_<hash>`)
  // or a loader while the router has not said.
  const newest = page
    .locator('[class*="_title_"]')
    .filter({ has: page.locator('[class*="_date_"]') })
    .first();
  await until(
    `the newest history item to show ${state}`,
    async () => (await newest.innerHTML({ timeout: 1000 })).includes(`_${state}_`),
    120_000,
    { retryErrors: true },
  );
  await screenshot(page, SHOTS, shot);
}

/** What `read` answers once it has moved away from `before`. */
export function moved(what: string, read: () => Promise<bigint>, before: bigint): Promise<bigint> {
  return until(
    `${what} to move`,
    async () => {
      const now = await read();
      return now !== before ? now : undefined;
    },
    120_000,
  );
}

/** Balance of `denom` for `address` once it has moved away from `before`. */
export const balanceMoved = (rest: string, address: string, denom: string, before: bigint) =>
  moved(`the ${denom} balance of ${address}`, () => bankBalance(rest, address, denom), before);
