import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRouter } from '../src/cli/router.js';
import { silentLogger } from '../src/common/logger.js';
import { createShutdown, type Shutdown } from '../src/common/shutdown.js';
import type { Devnet, DevnetChain } from '../src/devnet/devnet.js';
import { loadRouterConfig } from '../src/router/config.js';
import { ibcDenomOf, l2DenomOf, parseIbcPath } from '../src/router/graph/denoms.js';
import { latestTimeNs } from './ibc-support.js';
import { routeAndBuild, trackToEnd } from './router-api-support.js';
import { control, trackingDevnet, until } from './router-tracking-support.js';
import { bankBalance, decode, signAndBroadcast } from './router-wallet-support.js';

/**
 * The failure paths of `weft router` with its own msgs, signed as a wallet signs them: a source tx that
 * fails in its block, and an IBC transfer that times out while the relayer is paused. Each ends in
 * `STATE_COMPLETED_ERROR` with `transfer_asset_release` on the chain where the asset is (the tracker's
 * state machine is tested case by case in router-tracking.test.ts).
 */

let network: Awaited<ReturnType<typeof trackingDevnet>>;
let devnet: Devnet;
let l1: DevnetChain;
let shutdown: Shutdown;
let url: string;

beforeAll(async () => {
  network = await trackingDevnet('router-e2e-failures');
  devnet = network.devnet;
  l1 = devnet.l1!;
  const config = loadRouterConfig({
    argv: ['--registry', devnet.manifest().registry!, '--host', '127.0.0.1', '--port', '0'],
    env: { DATA_DIR: 'memory://' },
  });
  shutdown = createShutdown(silentLogger());
  ({ url } = await startRouter(config, { logger: silentLogger(), shutdown }));
}, 120_000);

afterAll(async () => {
  await control(devnet, 'weft_resumeRelayer', ['ibc']).catch(() => undefined);
  await shutdown?.kill();
  await network?.close();
}, 60_000);

describe('weft router failure paths with its own msgs', () => {
  it('a deposit that fails in its block: STATE_COMPLETED_ERROR, the asset still on the L1', async () => {
    const wasm = devnet.rollups.find((r) => r.vm === 'wasm')!;
    const sender = l1.accounts[3]!;
    const held = await bankBalance(l1, sender.address, 'uinit');
    // More than the sender holds: the ante (CheckTx) passes, the deposit's escrow fails in the block.
    const amount = String(held * 2n);
    const { tx } = await routeAndBuild(
      url,
      {
        source_asset_denom: 'uinit',
        source_asset_chain_id: l1.chain.info.chainId,
        dest_asset_denom: l2DenomOf('3', 'uinit'),
        dest_asset_chain_id: wasm.chain.info.chainId,
        amount_in: amount,
      },
      [sender.address, wasm.accounts[0]!.address],
    );
    const hash = await signAndBroadcast(l1, sender, tx.cosmos_tx.msgs.map(decode), 'amino', true);
    const done = await trackToEnd(url, l1.chain.info.chainId, hash);
    expect(done.state).toBe('STATE_COMPLETED_ERROR');
    expect(done.error.type).toBe('STATUS_ERROR_TRANSACTION_EXECUTION');
    expect(done.transfer_asset_release).toMatchObject({
      chain_id: l1.chain.info.chainId,
      denom: 'uinit',
      amount,
      released: true,
    });
    // Only the fee left the sender (cosmjs' fee of the wallet support: 400,000 gas at the minimum price).
    const fee = BigInt(Math.ceil(400_000 * l1.chain.info.minGasPrice));
    expect(await bankBalance(l1, sender.address, 'uinit')).toBe(held - fee);
  }, 60_000);

  it('an IBC transfer timed out while the relayer is paused: refunded on the L1', async () => {
    const cosmos = devnet.external.cosmos!;
    const sender = l1.accounts[2]!;
    const { routed, tx } = await routeAndBuild(
      url,
      {
        source_asset_denom: 'uinit',
        source_asset_chain_id: l1.chain.info.chainId,
        // The L1 is channel-0 of the Cosmos chain.
        dest_asset_denom: ibcDenomOf(parseIbcPath('transfer/channel-0/uinit')),
        dest_asset_chain_id: cosmos.chain.info.chainId,
        amount_in: '4321',
      },
      [sender.address, cosmos.accounts[0]!.address],
      { timeout_seconds: 5 },
    );
    expect(routed.operations.map((o: any) => Object.keys(o)[0])).toEqual(['transfer']);
    expect(await control(devnet, 'weft_pauseRelayer', ['ibc'])).toMatchObject({ paused: true });
    const sent = tx.cosmos_tx.msgs.map(decode);
    const deadline = BigInt(sent[0].value.timeoutTimestamp);
    const hash = await signAndBroadcast(l1, sender, sent);
    const escrowed = await bankBalance(l1, sender.address, 'uinit');
    await until(
      'the timeout passes on the Cosmos chain',
      async () => latestTimeNs(cosmos.chain) > deadline,
      30_000,
    );
    expect(await control(devnet, 'weft_resumeRelayer', ['ibc'])).toMatchObject({ paused: false });
    const done = await trackToEnd(url, l1.chain.info.chainId, hash);
    expect(done.state).toBe('STATE_COMPLETED_ERROR');
    expect(done.transfer_asset_release).toMatchObject({
      chain_id: l1.chain.info.chainId,
      denom: 'uinit',
      released: true,
    });
    const hop = done.transfer_sequence[0].ibc_transfer;
    expect(hop.packet_txs.error.type).toBe('PACKET_ERROR_TIMEOUT');
    expect(hop.packet_txs.timeout_tx.chain_id).toBe(l1.chain.info.chainId);
    // The refund is back.
    expect(await bankBalance(l1, sender.address, 'uinit')).toBe(escrowed + 4321n);
  }, 90_000);
});
