/// <reference lib="dom" />
import type { ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toBech32 } from '@cosmjs/encoding';
import type { Browser } from 'playwright-core';
import { type Hex, parseAbi, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, killAll, startStack } from 'weft-devnet/dev/test-support/dev-process.js';
import { WALLET_PACKAGE_DIR } from 'weft-devnet/dev/wallet-page.js';
import { contractArtifacts } from 'weft-devnet/evm/contracts.js';
import { callControl } from 'weft-devnet/test-support/control.js';
import { until } from 'weft-devnet/test-support/until.js';
import { ensureChromium, launchChromium, screenshot } from './browser-support.js';
import {
  balanceMoved,
  bankBalance,
  chainOf,
  confirmBridge,
  erc20Balance,
  evmTx,
  historyShows,
  type Manifest,
  moved,
  OWN_HOSTS,
  openWallet,
  previewBridge,
  SHOTS,
  sendCoins,
  type WalletPage,
} from './wallet-support.js';

// InterwovenKit (npm's @initia/interwovenkit-react, unchanged) on the stack `npm start` runs: the wallet
// package is installed and built by its one npm script, `weft dev` serves it, and Debian's Chromium
// opens it with InterwovenKit's own test wallet. Every request to a host other than this machine is
// refused by the page's router and listed: the page must work on the stack alone. The flows run in
// order on one stack and one wallet; each leaves screenshots in test-results/wallet.
const dir = mkdtempSync(join(tmpdir(), 'weft-wallet-'));
const children: ChildProcess[] = [];
let browser: Browser | undefined;
// Keys no devnet account has: the wallets' accounts exist only once the test funds them.
const KEY: Hex = '0x8a1f9a8f95be41cd7ccb6168179afb4504aefe388d1e14474d32c45c72ce7b7a';
const FRESH_KEY: Hex = '0x5c2e3a1f0b9d8c7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e';
const IBC_TIMEOUT_SECONDS = 12;
const initAddress = (key: Hex) =>
  toBech32('init', Buffer.from(privateKeyToAccount(key).address.slice(2), 'hex'));
const ADDRESS = initAddress(KEY);
const OWN = privateKeyToAccount(KEY).address;

let manifest: Manifest;
let wallet: WalletPage;
const names: Record<string, string> = {};

beforeAll(async () => {
  ensureChromium();
  execFileSync('npm', ['run', 'wallet:build'], { stdio: 'inherit', timeout: 600_000 });
  ({ manifest } = await startStack(
    [
      // No generated traffic: the devnet's own claims would claim the wallet's withdrawal before it does.
      ...['--seed', 'wallet-page', '--block-time', '500ms', '--txs-per-block', '0'],
      ...['--op-output-interval', '2s', '--op-finalization-period', '4s'],
      ...['--ibc-timeout', String(IBC_TIMEOUT_SECONDS)],
      ...['--port-base', '0', '--api-port-base', '0', '--router-port', '0', '--dashboard-port', '0'],
      ...['--registry-port', '0', '--data-dir', 'memory://', '--state-dir', ''],
      ...['--registry', join(dir, 'registry')],
    ],
    join(dir, 'manifest.json'),
    children,
  ));
  browser = await launchChromium();
}, 900_000);
afterAll(async () => {
  await browser?.close();
  killAll(children);
  rmSync(dir, { recursive: true, force: true });
});

const l1 = () => chainOf(manifest, 'weft-l1-1');
const evm = () => chainOf(manifest, 'weft-evm-1');
const move = () => chainOf(manifest, 'weft-move-1');
const wasm = () => chainOf(manifest, 'weft-wasm-1');
const l2Denom = (chainId: string) =>
  manifest.services.opinit.bridges.find((b: any) => b.chain_id === chainId).l2_denom as string;
const odt = (chainId: string) =>
  manifest.services.omnichain.members.find((m: any) => m.chain_id === chainId).denom as string;

describe('InterwovenKit on the weft stack, in a browser', () => {
  it('reads the registry service, connects the test wallet, and its activity and NFT tabs list what the indexers list', async () => {
    expect(existsSync(join(WALLET_PACKAGE_DIR, 'dist', 'index.html'))).toBe(true);
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
      names[chain.chain_id] = chain.pretty_name;
      for (const api of ['rpc', 'rest', 'indexer'])
        expect(chain.apis[api]?.[0]?.address, api).toMatch(/^http/);
      if (chain.metadata.minitia?.type === 'minievm')
        expect(chain.apis['json-rpc'][0].address).toMatch(/^http/);
      expect((await json(chain.metadata.assetlist)).assets.length).toBeGreaterThan(0);
    }
    expect((await json(`${manifest.registry_url}/profiles.json`)).length).toBe(4);

    // The wallet holds INIT and the omnichain token on the L1, and gas and an NFT on the EVM rollup.
    await until(
      'L1 blocks',
      async () => Number((await json(`${l1().rpc}/status`)).result.sync_info.latest_block_height) >= 2,
      60_000,
      { retryErrors: true },
    );
    const funder = l1().accounts[2];
    const funding = await sendCoins(
      l1().rpc,
      funder.private_key,
      ADDRESS,
      [
        { denom: 'uinit', amount: '50000000' },
        { denom: odt('weft-l1-1'), amount: '5000000' },
      ],
      '0.015uinit',
    );
    await evmTx(evm().json_rpc, evm().accounts[2].private_key, (w) =>
      w.sendTransaction({ to: OWN, value: 10n ** 18n }),
    );
    // An NFT of a collection the wallet deploys and mints itself (the devnet's traffic is off).
    const { TestERC721 } = contractArtifacts();
    const deployed = await evmTx(evm().json_rpc, KEY, (w) =>
      w.deployContract({
        abi: TestERC721.abi,
        bytecode: toHex(TestERC721.bytecode),
        args: ['Wallet Test NFT', 'WTN'],
      }),
    );
    await evmTx(evm().json_rpc, KEY, (w) =>
      w.writeContract({
        address: deployed.contractAddress!,
        abi: parseAbi(['function mint(address to, uint256 tokenId, string uri)']),
        functionName: 'mint',
        args: [OWN, 770_001n, 'data:application/json,{"name":"weft wallet test"}'],
      }),
    );
    const indexed = await until(
      'the L1 indexer to list the funding',
      async () => {
        const page = await json(
          `${l1().indexer_api}/indexer/tx/v1/txs/by_account/${ADDRESS}?pagination.reverse=true`,
        );
        return page.txs.some((tx: any) => tx.txhash === funding) ? page.txs : undefined;
      },
      60_000,
    );
    const nfts = await until(
      'the EVM indexer to list the NFT',
      async () => {
        const page = await json(`${evm().indexer_api}/indexer/nft/v1/tokens/by_account/${ADDRESS}`);
        return page.tokens.length > 0 ? page.tokens : undefined;
      },
      60_000,
    );

    wallet = await openWallet(browser!, manifest.wallet, KEY, ADDRESS);
    const { page } = wallet;
    await screenshot(page, SHOTS, '1-connected');
    await page.getByRole('button', { name: 'Wallet', exact: true }).click();
    await page.getByText('Activity', { exact: true }).last().click();
    // One row per tx the indexer lists for the account, each naming its chain and its msg ("Send").
    const l1Name = names['weft-l1-1']!;
    await page.getByText(l1Name, { exact: true }).first().waitFor();
    await screenshot(page, SHOTS, '2-activity');
    expect(await page.getByText(l1Name, { exact: true }).count()).toBe(indexed.length);
    const sends = indexed.filter((tx: any) => tx.tx.body.messages[0]['@type'].endsWith('MsgSend')).length;
    // The drawer's Send button, then one per MsgSend row.
    expect(await page.getByText('Send', { exact: true }).count()).toBe(1 + sends);
    await page.getByText('NFTs', { exact: true }).last().click();
    await page.getByText('weft wallet test').first().waitFor();
    await screenshot(page, SHOTS, '3-nfts');
    expect(nfts).toHaveLength(1);
  });

  it('deposits INIT from the L1 to the EVM rollup over OPinit: tracked to success, both balances moved', async () => {
    const { page } = wallet;
    const denom = l2Denom('weft-evm-1');
    const before = {
      l1: await bankBalance(l1().rest, ADDRESS, 'uinit'),
      evm: await bankBalance(evm().rest, ADDRESS, denom),
    };
    const routed = await previewBridge(page, {
      to: { chainId: 'weft-evm-1', chain: names['weft-evm-1']!, symbol: 'INIT' },
      amount: '2',
    });
    expect(routed).toMatchObject({
      source_asset_denom: 'uinit',
      dest_asset_denom: denom,
      amount_in: '2000000',
    });
    await confirmBridge(page, '4-deposit');
    await historyShows(page, 'success', '4-deposit-history');
    expect(await balanceMoved(evm().rest, ADDRESS, denom, before.evm)).toBe(before.evm + 2_000_000n);
    expect(await bankBalance(l1().rest, ADDRESS, 'uinit')).toBeLessThan(before.l1 - 2_000_000n);
  });

  it('withdraws INIT from the EVM rollup to the L1, and claims it on the withdrawal page once final', async () => {
    const { page } = wallet;
    const denom = l2Denom('weft-evm-1');
    const before = {
      l1: await bankBalance(l1().rest, ADDRESS, 'uinit'),
      evm: await bankBalance(evm().rest, ADDRESS, denom),
    };
    const routed = await previewBridge(page, {
      from: { chainId: 'weft-evm-1', chain: names['weft-evm-1']!, symbol: 'INIT' },
      to: { chainId: 'weft-l1-1', chain: names['weft-l1-1']!, symbol: 'INIT' },
      amount: '0.5',
    });
    expect(routed).toMatchObject({ source_asset_denom: denom, dest_asset_denom: 'uinit' });
    await confirmBridge(page, '5-withdrawal');
    // InterwovenKit files a withdrawal as done at once and leaves the claim to its withdrawal page.
    await historyShows(page, 'success', '5-withdrawal-history');
    expect(await balanceMoved(evm().rest, ADDRESS, denom, before.evm)).toBe(before.evm - 500_000n);
    const claim = page.getByRole('button', { name: 'Claim', exact: true });
    // Once the finalization period has passed, InterwovenKit reminds the user on its next render (a reload
    // here): a "Ready to claim" modal, over whatever the page shows, whose button opens the chain's
    // withdrawal page. Until the executor has the output, that page says "In progress".
    const reminder = page.getByRole('heading', { name: 'Ready to claim', exact: true });
    await until(
      'the withdrawal to be claimable',
      async () => {
        if (await reminder.isVisible()) {
          await screenshot(page, SHOTS, '5-withdrawal-reminder');
          await page.getByRole('button', { name: 'View withdrawal status', exact: true }).click();
        } else {
          // A click the reminder intercepts fails fast; the next round follows the reminder instead.
          await page.getByRole('button', { name: 'Bridge', exact: true }).click({ timeout: 10_000 });
          await page
            .getByRole('button', { name: 'Withdrawal status', exact: true })
            .click({ timeout: 10_000 });
          await page
            .getByRole('button', { name: names['weft-evm-1']!, exact: true })
            .click({ timeout: 10_000 });
        }
        await page
          .getByText(/In progress|Claim/)
          .first()
          .waitFor({ timeout: 15_000 });
        if (await claim.count()) return true;
        await page.reload();
        await page.getByTestId('address').getByText(ADDRESS).waitFor();
        return undefined;
      },
      120_000,
      { retryErrors: true },
    );
    await screenshot(page, SHOTS, '5-withdrawal-claimable');
    const l1Before = await bankBalance(l1().rest, ADDRESS, 'uinit');
    await claim.click();
    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    const after = await balanceMoved(l1().rest, ADDRESS, 'uinit', l1Before);
    // The claim's fee is paid in INIT too: more than the fee, less than the amount, arrived.
    expect(after - l1Before).toBeGreaterThan(400_000n);
    expect(after - before.l1).toBeLessThanOrEqual(500_000n);
    await page.getByText('Claimed', { exact: true }).waitFor();
    await screenshot(page, SHOTS, '5-withdrawal-claimed');
  });

  it('sends INIT from the L1 to the Move rollup over IBC: tracked to success, the voucher arrives', async () => {
    const { page } = wallet;
    const routed = await previewBridge(page, {
      to: { chainId: 'weft-move-1', chain: names['weft-move-1']!, symbol: 'INIT', denom: /^ibc\// },
      amount: '1',
    });
    expect(routed.dest_asset_denom).toMatch(/^ibc\//);
    const before = await bankBalance(move().rest, ADDRESS, routed.dest_asset_denom);
    await confirmBridge(page, '6-ibc');
    await historyShows(page, 'success', '6-ibc-history');
    expect(await balanceMoved(move().rest, ADDRESS, routed.dest_asset_denom, before)).toBe(
      before + 1_000_000n,
    );
  });

  it('sends the omnichain token from the L1 to the EVM rollup (OFT): tracked to success', async () => {
    const { page } = wallet;
    const routed = await previewBridge(page, {
      from: { chainId: 'weft-l1-1', chain: names['weft-l1-1']!, symbol: 'ODT' },
      to: { chainId: 'weft-evm-1', chain: names['weft-evm-1']!, symbol: 'ODT' },
      amount: '1',
    });
    expect(routed).toMatchObject({
      source_asset_denom: odt('weft-l1-1'),
      dest_asset_denom: odt('weft-evm-1'),
    });
    const before = {
      l1: await bankBalance(l1().rest, ADDRESS, odt('weft-l1-1')),
      evm: await erc20Balance(evm().json_rpc, odt('weft-evm-1'), OWN),
    };
    await confirmBridge(page, '7-oft');
    await historyShows(page, 'success', '7-oft-history');
    // 6 decimals on the L1, 18 on the EVM rollup.
    const arrived = await moved(
      'ODT on the EVM rollup',
      () => erc20Balance(evm().json_rpc, odt('weft-evm-1'), OWN),
      before.evm,
    );
    expect(arrived).toBe(before.evm + 10n ** 18n);
    expect(await bankBalance(l1().rest, ADDRESS, odt('weft-l1-1'))).toBe(before.l1 - 1_000_000n);
  });

  it('an IBC transfer whose relayer is paused past its timeout: InterwovenKit shows the failure and the refund arrives', async () => {
    const { page } = wallet;
    expect(await callControl(manifest.control, 'weft_pauseRelayer', ['ibc'])).toMatchObject({ paused: true });
    try {
      const routed = await previewBridge(page, {
        to: { chainId: 'weft-wasm-1', chain: names['weft-wasm-1']!, symbol: 'INIT', denom: /^ibc\// },
        amount: '1.5',
      });
      expect(routed.dest_asset_denom).toMatch(/^ibc\//);
      const hash = await confirmBridge(page, '8-timeout');
      const sent = await until(
        'the transfer on the L1',
        () => json(`${l1().rest}/cosmos/tx/v1beta1/txs/${hash}`),
        60_000,
        { retryErrors: true },
      );
      const deadline = BigInt(sent.tx.body.messages[0].timeout_timestamp);
      const escrowed = await bankBalance(l1().rest, ADDRESS, 'uinit');
      await until(
        'the timeout to pass on the Wasm rollup',
        async () => {
          const time = (await json(`${wasm().rpc}/status`)).result.sync_info.latest_block_time as string;
          return BigInt(Date.parse(time)) * 1_000_000n > deadline;
        },
        60_000,
      );
      await callControl(manifest.control, 'weft_resumeRelayer', ['ibc']);
      await historyShows(page, 'error', '8-timeout-history');
      expect(await balanceMoved(l1().rest, ADDRESS, 'uinit', escrowed)).toBe(escrowed + 1_500_000n);
    } finally {
      await callControl(manifest.control, 'weft_resumeRelayer', ['ibc']);
    }
  });

  it('a first-time user converts on arrival: the op hook signed as the connected wallet, its account created for it', {
    timeout: 240_000,
  }, async () => {
    const address = initAddress(FRESH_KEY);
    await sendCoins(
      l1().rpc,
      l1().accounts[3].private_key,
      address,
      [{ denom: 'uinit', amount: '10000000' }],
      '0.015uinit',
    );
    const fresh = await openWallet(browser!, manifest.wallet, FRESH_KEY, address);
    const { page } = fresh;
    expect((await fetch(`${evm().rest}/cosmos/auth/v1beta1/account_info/${address}`)).status).toBe(404);
    const routed = await previewBridge(page, {
      to: { chainId: 'weft-evm-1', chain: names['weft-evm-1']!, symbol: 'WINIT' },
      amount: '1',
    });
    await page.getByRole('button', { name: 'Authorize conversion', exact: true }).click();
    await screenshot(page, SHOTS, '9-hook-authorize');
    await confirmBridge(page, '9-hook');
    await historyShows(page, 'success', '9-hook-history');
    // WINIT is the wrapper's ERC20: its balance is the contract's.
    const holder = privateKeyToAccount(FRESH_KEY).address;
    const read = () => erc20Balance(evm().json_rpc, routed.dest_asset_denom, holder);
    expect(await moved('WINIT', read, 0n)).toBe(1_000_000n);
    expect(fresh.errors).toEqual([]);
    await fresh.page.context().close();
  });

  it('asked nothing of a host beyond this machine but what InterwovenKit asks for on its own, and threw nothing', () => {
    expect(wallet.errors).toEqual([]);
    for (const origin of wallet.elsewhere) expect(OWN_HOSTS).toContain(origin);
  });
});
