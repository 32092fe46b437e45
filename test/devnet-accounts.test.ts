import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DirectSecp256k1HdWallet } from '@cosmjs/proto-signing';
import { SigningStargateClient, StargateClient } from '@cosmjs/stargate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localDenom } from 'weft/protocol/ics20.js';
import type { Devnet, DevnetChain } from 'weft-devnet/devnet.js';
import { deriveAccount } from 'weft-devnet/keys.js';
import { testDevnet } from 'weft-devnet/test-support/devnet.js';
import { until } from 'weft-devnet/test-support/until.js';
import { balanceOf, type IbcTestChain, sendTransfer } from './ibc-support.js';

/**
 * Accounts created by credits: an address that never had an account receives the rollup's own denom back
 * over IBC (the L1 returns the voucher it got from the rollup), and then signs a bank send with cosmjs,
 * which finds its account through CometBFT `abci_query` as a wallet does.
 */

const dir = mkdtempSync(join(tmpdir(), 'weft-accounts-'));
let devnet: Devnet;
let l1: DevnetChain;
let rollup: DevnetChain;
const ibc = (chain: DevnetChain) => chain as unknown as IbcTestChain;
const fresh = deriveAccount({ seed: 'accounts/fresh', index: 0, keyType: 'secp256k1', prefix: 'init' });

beforeAll(async () => {
  devnet = await testDevnet({
    seed: 'accounts',
    vms: ['wasm'],
    network: 'full',
    accounts: 3,
    txsPerBlock: 0,
    blockTimeMs: 200,
    registryDir: join(dir, 'registry'),
  });
  l1 = devnet.l1!;
  rollup = devnet.rollups[0]!;
  devnet.run();
  await until('first blocks', async () => devnet.all.every((c) => c.chain.latestHeight() >= 2));
}, 120_000);

afterAll(async () => {
  await devnet?.close();
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe('accounts created by credits', () => {
  it('an address funded only by an IBC receive signs and broadcasts a bank send with cosmjs', async () => {
    const denom = rollup.chain.info.denom;
    const amount = 5_000_000n;
    const reader = await StargateClient.connect(rollup.urls.rpc);
    expect(await reader.getAccount(fresh.address)).toBeNull();

    // Out to the L1 (the wasm rollup is the L1's channel-0) ...
    const holder = l1.accounts[0]!;
    const voucher = localDenom(`transfer/channel-0/${denom}`);
    const voucherBefore = await balanceOf(ibc(l1), holder.address, voucher);
    await sendTransfer(ibc(rollup), rollup.accounts[0]!, {
      sourceChannel: 'channel-0',
      token: { denom, amount: String(amount) },
      receiver: holder.address,
      timeoutHeight: { revisionNumber: 1n, revisionHeight: BigInt(l1.chain.latestHeight() + 100) },
    });
    await until('the voucher on the L1', async () =>
      (await balanceOf(ibc(l1), holder.address, voucher)) === voucherBefore + amount ? true : undefined,
    );
    // ... and back to the new address, released from the rollup's escrow.
    await sendTransfer(ibc(l1), holder, {
      sourceChannel: 'channel-0',
      token: { denom: voucher, amount: String(amount) },
      receiver: fresh.address,
      timeoutHeight: { revisionNumber: 1n, revisionHeight: BigInt(rollup.chain.latestHeight() + 100) },
    });
    await until('the receive on the rollup', async () =>
      (await balanceOf(ibc(rollup), fresh.address, denom)) === amount ? true : undefined,
    );
    const account = await reader.getAccount(fresh.address);
    expect(account).toMatchObject({ address: fresh.address, sequence: 0, pubkey: null });
    reader.disconnect();

    const wallet = await DirectSecp256k1HdWallet.fromMnemonic(fresh.mnemonic, { prefix: 'init' });
    const client = await SigningStargateClient.connectWithSigner(rollup.urls.rpc, wallet, {
      broadcastPollIntervalMs: 100,
    });
    const gas = 200_000;
    const fee = {
      amount: [{ denom, amount: String(Math.ceil(gas * rollup.chain.info.minGasPrice)) }],
      gas: String(gas),
    };
    const to = rollup.accounts[1]!.address;
    const toBefore = await balanceOf(ibc(rollup), to, denom);
    const result = await client.sendTokens(fresh.address, to, [{ denom, amount: '1000' }], fee);
    expect(result.code, result.rawLog).toBe(0);
    expect(await balanceOf(ibc(rollup), to, denom)).toBe(toBefore + 1000n);
    expect(await balanceOf(ibc(rollup), fresh.address, denom)).toBe(
      amount - 1000n - BigInt(fee.amount[0]!.amount),
    );
    expect((await client.getAccount(fresh.address))?.sequence).toBe(1);
    client.disconnect();
  }, 90_000);
});
