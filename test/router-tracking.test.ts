import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installHttpErrors } from 'weft/common/http-errors.js';
import { silentLogger } from 'weft/common/logger.js';
import { localDenom } from 'weft/protocol/ics20.js';
import { l2Denom } from 'weft/protocol/opinit.js';
import { trackingRoutes } from 'weft/router/tracking/routes.js';
import { startTracker, type Tracker } from 'weft/router/tracking/tracker.js';
import { migrateTracking, ROUTER_SCHEMA } from 'weft/router/tracking/transfer-store.js';
import type { TrackedChain } from 'weft/router/tracking/types.js';
import { type Db, openDb } from 'weft/store/db.js';
import type { Devnet, DevnetChain } from 'weft-devnet/devnet.js';
import { type IbcTestChain, latestTimeNs, sendTransfer } from './ibc-support.js';
import {
  control,
  depositor,
  sendForward,
  sendOft,
  trackedChains,
  trackingDevnet,
  until,
} from './router-tracking-support.js';

/**
 * Tracking on the full network, on the embedded store: OPinit deposits signed by cosmjs (one plain,
 * one whose hook fails), an OFT transfer signed by viem, a failed source tx, a deposit stalled by pausing
 * its executor, a tx never on chain, IBC transfers (plain, error ack, timeout, two-hop forward), each
 * followed through the HTTP routes to its terminal state; and a restart that resumes a pending transfer.
 */

let network: Awaited<ReturnType<typeof trackingDevnet>>;
let devnet: Devnet;
let l1: DevnetChain;
let chains: TrackedChain[];
let db: Db;
let tracker: Tracker;
let app: FastifyInstance;

beforeAll(async () => {
  network = await trackingDevnet('tracking');
  devnet = network.devnet;
  l1 = devnet.l1!;
  chains = trackedChains(devnet);
  db = await (await openDb({ dataDir: 'memory://' })).withSchema(ROUTER_SCHEMA);
  await migrateTracking(db);
  tracker = await startTracker({
    db,
    chains,
    logger: silentLogger(),
    pollMs: 100,
    leaseMs: 3_000,
    abandonAfterMs: 8_000,
    unseenAfterMs: 8_000,
  });
  app = Fastify();
  installHttpErrors(app);
  await app.register(trackingRoutes({ tracker }));
  await app.ready();
}, 180_000);

afterAll(async () => {
  await app?.close();
  await tracker?.stop();
  await db?.close();
  await network?.close();
}, 60_000);

const track = async (chainId: string, txHash: string) => {
  const response = await app.inject({
    method: 'POST',
    url: '/v2/tx/track',
    payload: { chain_id: chainId, tx_hash: txHash },
  });
  return { status: response.statusCode, body: response.json() };
};

const status = async (chainId: string, txHash: string) => {
  const response = await app.inject({
    method: 'GET',
    url: `/v2/tx/status?chain_id=${chainId}&tx_hash=${txHash}`,
  });
  return { status: response.statusCode, body: response.json() };
};

/** Polls the status as a wallet does until it says `STATE_COMPLETED`. */
const settled = (chainId: string, txHash: string, ms = 30_000) =>
  until(
    `${txHash} settled`,
    async () => {
      const { body } = await status(chainId, txHash);
      return body.status === 'STATE_COMPLETED' ? body : undefined;
    },
    ms,
  );

describe('tracking on the full network', () => {
  it('follows a cosmjs-signed deposit to STATE_COMPLETED_SUCCESS with its hop', async () => {
    const rollup = devnet.rollups.find((r) => r.vm === 'move')!;
    const wallet = await depositor(l1, l1.accounts[0]!);
    const hash = await wallet.deposit({ bridgeId: 2n, to: rollup.accounts[1]!.address, amount: '4242' });
    wallet.close();
    const first = await track(l1.chain.info.chainId, hash);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      tx_hash: hash,
      explorer_link: `${l1.urls.rest}/cosmos/tx/v1beta1/txs/${hash}`,
    });
    expect(await track(l1.chain.info.chainId, hash)).toEqual(first);

    const done = await settled(l1.chain.info.chainId, hash);
    expect(done.state).toBe('STATE_COMPLETED_SUCCESS');
    expect(done.error).toBeNull();
    expect(done.next_blocking_transfer).toBeNull();
    expect(done.transfer_asset_release).toEqual({
      chain_id: 'weft-move-1',
      denom: l2Denom(2n, 'uinit'),
      amount: '4242',
      released: true,
    });
    expect(done.transfer_sequence).toHaveLength(1);
    const hop = done.transfer_sequence[0].op_init_transfer;
    expect(hop).toMatchObject({
      from_chain_id: 'weft-l1-1',
      to_chain_id: 'weft-move-1',
      state: 'OPINIT_TRANSFER_RECEIVED',
      op_init_bridge_id: '2',
      direction: 'deposit',
      success: true,
    });
    expect(hop.txs.send_tx).toMatchObject({ chain_id: 'weft-l1-1', tx_hash: hash });
    expect(hop.txs.receive_tx.chain_id).toBe('weft-move-1');
    expect(hop.txs.receive_tx.tx_hash).toMatch(/^[0-9A-F]{64}$/);
    expect(hop.txs.receive_tx.on_chain_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(done.transfers).toHaveLength(1);
    expect(done.transfers[0]).toMatchObject({
      state: 'STATE_COMPLETED_SUCCESS',
      next_blocking_transfer: null,
    });
  }, 60_000);

  it('ends a deposit whose hook fails in STATE_COMPLETED_ERROR, released on the rollup', async () => {
    const wallet = await depositor(l1, l1.accounts[1]!);
    const rollup = devnet.rollups.find((r) => r.vm === 'wasm')!;
    const hash = await wallet.deposit({
      bridgeId: 3n,
      to: rollup.accounts[1]!.address,
      amount: '77',
      data: Uint8Array.from([1, 2, 3]),
    });
    wallet.close();
    expect((await track(l1.chain.info.chainId, hash)).status).toBe(200);
    const done = await settled(l1.chain.info.chainId, hash);
    expect(done.state).toBe('STATE_COMPLETED_ERROR');
    expect(done.error.type).toBe('STATUS_ERROR_TRANSFER');
    expect(done.error.message).toMatch(/^hook failed; /);
    expect(done.transfer_asset_release).toEqual({
      chain_id: 'weft-wasm-1',
      denom: l2Denom(3n, 'uinit'),
      amount: '77',
      released: true,
    });
    expect(done.transfer_sequence[0].op_init_transfer).toMatchObject({
      state: 'OPINIT_TRANSFER_RECEIVED',
      success: false,
    });
  }, 60_000);

  it('follows an OFT transfer from the EVM rollup to the external EVM chain', async () => {
    const hash = await sendOft(devnet, { toChainId: '31337', amount: 10n ** 18n });
    expect((await track('weft-evm-1', hash)).status).toBe(200);
    const done = await settled('weft-evm-1', hash);
    expect(done.state).toBe('STATE_COMPLETED_SUCCESS');
    const hop = done.transfer_sequence[0].layer_zero_transfer;
    expect(hop).toMatchObject({
      from_chain_id: 'weft-evm-1',
      to_chain_id: '31337',
      state: 'LAYER_ZERO_TRANSFER_RECEIVED',
    });
    expect(hop.txs.send_tx.tx_hash).toBe(hash);
    expect(hop.txs.receive_tx.tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(hop.txs.receive_tx.chain_id).toBe('31337');
    expect(done.transfer_asset_release).toMatchObject({ chain_id: '31337', released: true });
  }, 60_000);

  it('ends a failed source tx in STATE_COMPLETED_ERROR with the execution error', async () => {
    const wallet = await depositor(l1, l1.accounts[2]!);
    const hash = await wallet.deposit({ bridgeId: 99n, to: l1.accounts[2]!.address, amount: '5' });
    wallet.close();
    expect((await track(l1.chain.info.chainId, hash)).status).toBe(200);
    const done = await settled(l1.chain.info.chainId, hash);
    expect(done.state).toBe('STATE_COMPLETED_ERROR');
    expect(done.error.type).toBe('STATUS_ERROR_TRANSACTION_EXECUTION');
    expect(done.error.details.code).toBeGreaterThan(0);
    expect(done.transfer_sequence).toEqual([]);
    expect(done.transfer_asset_release).toMatchObject({ chain_id: 'weft-l1-1', released: true });
  }, 60_000);

  it('abandons a deposit stalled by a paused executor, and tracks it again once resumed', async () => {
    expect(await control(devnet, 'weft_pauseRelayer', ['opinit-executor-weft-evm-1'])).toMatchObject({
      paused: true,
    });
    const rollup = devnet.rollups.find((r) => r.vm === 'evm')!;
    const wallet = await depositor(l1, l1.accounts[3]!);
    const hash = await wallet.deposit({ bridgeId: 1n, to: rollup.accounts[1]!.address, amount: '9' });
    wallet.close();
    expect((await track(l1.chain.info.chainId, hash)).status).toBe(200);
    await until(
      'pending',
      async () => (await status(l1.chain.info.chainId, hash)).body.state === 'STATE_PENDING',
    );
    const pending = (await status(l1.chain.info.chainId, hash)).body;
    expect(pending.status).toBe('STATE_PENDING');
    expect(pending.next_blocking_transfer).toEqual({ transfer_sequence_index: 0 });
    expect(pending.transfer_sequence[0].op_init_transfer.state).toBe('OPINIT_TRANSFER_SENT');

    const abandoned = await settled(l1.chain.info.chainId, hash, 20_000);
    expect(abandoned.state).toBe('STATE_ABANDONED');
    expect(abandoned.error.message).toMatch(/no progress/);

    expect(await control(devnet, 'weft_resumeRelayer', ['opinit-executor-weft-evm-1'])).toMatchObject({
      paused: false,
    });
    expect((await track(l1.chain.info.chainId, hash)).status).toBe(200);
    const done = await settled(l1.chain.info.chainId, hash);
    expect(done.state).toBe('STATE_COMPLETED_SUCCESS');
  }, 60_000);

  it('keeps a tx not on chain in STATE_SUBMITTED, then abandons it', async () => {
    const hash = 'CD'.repeat(32);
    expect((await track('weft-l1-1', hash)).status).toBe(200);
    const submitted = (await status('weft-l1-1', hash)).body;
    expect(submitted).toMatchObject({
      state: 'STATE_SUBMITTED',
      status: 'STATE_SUBMITTED',
      transfer_sequence: [],
    });
    const abandoned = await settled('weft-l1-1', hash, 20_000);
    expect(abandoned.state).toBe('STATE_ABANDONED');
    expect(abandoned.error.message).toMatch(/^source tx not seen on weft-l1-1/);
  }, 30_000);

  it('answers JSON errors: an untracked tx, a bad hash, an unknown chain', async () => {
    const untracked = await status('weft-l1-1', 'AB'.repeat(32));
    expect(untracked).toEqual({
      status: 404,
      body: { code: 5, message: expect.stringMatching(/^tx not found/), details: [] },
    });
    const bad = await track('weft-l1-1', 'xyz');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(3);
    const unknown = await track('nowhere-1', 'AB'.repeat(32));
    expect(unknown).toEqual({
      status: 404,
      body: { code: 5, message: 'chain ID not supported: nowhere-1', details: [] },
    });
    const missing = await app.inject({ method: 'GET', url: '/v2/tx/status?chain_id=weft-l1-1' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().code).toBe(3);
  });
});

describe('tracking IBC transfers on the full network', () => {
  // Channels: the L1 has channel-0 … channel-2 to the evm, move and wasm rollups and channel-3 to the
  // external Cosmos chain; each of those has channel-0 to the L1.
  const ibc = (chain: unknown) => chain as IbcTestChain;
  const inFuture = (chain: { chain: IbcTestChain['chain'] }) => latestTimeNs(chain.chain) + 600_000_000_000n;

  it('an L1 → rollup transfer: TRANSFER_SUCCESS, the voucher released on the rollup', async () => {
    const move = devnet.rollups.find((r) => r.vm === 'move')!;
    const hash = await sendTransfer(ibc(l1), l1.accounts[0]!, {
      sourceChannel: 'channel-1',
      token: { denom: 'uinit', amount: '600' },
      receiver: move.accounts[2]!.address,
      timeoutTimestamp: inFuture(move),
    });
    expect((await track('weft-l1-1', hash)).status).toBe(200);
    const done = await settled('weft-l1-1', hash);
    expect(done.state).toBe('STATE_COMPLETED_SUCCESS');
    expect(done.transfer_asset_release).toEqual({
      chain_id: 'weft-move-1',
      denom: localDenom('transfer/channel-0/uinit'),
      amount: '600',
      released: true,
    });
    const hop = done.transfer_sequence[0].ibc_transfer;
    expect(hop).toMatchObject({
      from_chain_id: 'weft-l1-1',
      to_chain_id: 'weft-move-1',
      state: 'TRANSFER_SUCCESS',
    });
    expect(hop.packet_txs.send_tx.tx_hash).toBe(hash);
    expect(hop.packet_txs.receive_tx.chain_id).toBe('weft-move-1');
    expect(hop.packet_txs.error).toBeNull();
  }, 60_000);

  it('an error ack: STATE_COMPLETED_ERROR once the L1 sender is refunded', async () => {
    const hash = await sendTransfer(ibc(l1), l1.accounts[1]!, {
      sourceChannel: 'channel-3',
      token: { denom: 'uinit', amount: '250' },
      receiver: 'not-a-bech32-address',
      timeoutTimestamp: inFuture(devnet.external.cosmos!),
    });
    expect((await track('weft-l1-1', hash)).status).toBe(200);
    const done = await settled('weft-l1-1', hash);
    expect(done.state).toBe('STATE_COMPLETED_ERROR');
    expect(done.error.type).toBe('STATUS_ERROR_TRANSFER');
    expect(done.transfer_asset_release).toEqual({
      chain_id: 'weft-l1-1',
      denom: 'uinit',
      amount: '250',
      released: true,
    });
    const hop = done.transfer_sequence[0].ibc_transfer;
    expect(hop).toMatchObject({ to_chain_id: 'weft-cosmos-1', state: 'TRANSFER_FAILURE' });
    expect(hop.packet_txs.error.type).toBe('PACKET_ERROR_ACKNOWLEDGEMENT');
    expect(hop.packet_txs.receive_tx.chain_id).toBe('weft-cosmos-1');
    expect(hop.packet_txs.acknowledge_tx.chain_id).toBe('weft-l1-1');
  }, 60_000);

  it('a timeout while the relayer is paused: PENDING, then STATE_COMPLETED_ERROR with the timeout tx', async () => {
    const wasm = devnet.rollups.find((r) => r.vm === 'wasm')!;
    expect(await control(devnet, 'weft_pauseRelayer', ['ibc'])).toMatchObject({ paused: true });
    const timeout = latestTimeNs(wasm.chain) + 2_000_000_000n;
    const hash = await sendTransfer(ibc(l1), l1.accounts[2]!, {
      sourceChannel: 'channel-2',
      token: { denom: 'uinit', amount: '300' },
      receiver: wasm.accounts[0]!.address,
      timeoutTimestamp: timeout,
    });
    expect((await track('weft-l1-1', hash)).status).toBe(200);
    await until('pending', async () => (await status('weft-l1-1', hash)).body.state === 'STATE_PENDING');
    expect((await status('weft-l1-1', hash)).body.transfer_sequence[0].ibc_transfer.state).toBe(
      'TRANSFER_PENDING',
    );
    await until(
      'the timeout passes on the rollup',
      async () => latestTimeNs(wasm.chain) > timeout + 1_000_000_000n,
    );
    expect(await control(devnet, 'weft_resumeRelayer', ['ibc'])).toMatchObject({ paused: false });
    const done = await settled('weft-l1-1', hash);
    expect(done.state).toBe('STATE_COMPLETED_ERROR');
    expect(done.transfer_asset_release).toMatchObject({
      chain_id: 'weft-l1-1',
      denom: 'uinit',
      released: true,
    });
    const hop = done.transfer_sequence[0].ibc_transfer;
    expect(hop.state).toBe('TRANSFER_FAILURE');
    expect(hop.packet_txs.error.type).toBe('PACKET_ERROR_TIMEOUT');
    expect(hop.packet_txs.timeout_tx.chain_id).toBe('weft-l1-1');
    expect(hop.packet_txs.receive_tx).toBeNull();
  }, 60_000);

  it('a two-hop forward, rollup → L1 → external Cosmos chain: both hops, released on the Cosmos chain', async () => {
    const hash = await sendForward(devnet);
    expect((await track('weft-move-1', hash)).status).toBe(200);
    const done = await settled('weft-move-1', hash);
    expect(done.state).toBe('STATE_COMPLETED_SUCCESS');
    expect(
      done.transfer_sequence.map((e: any) => [e.ibc_transfer.from_chain_id, e.ibc_transfer.to_chain_id]),
    ).toEqual([
      ['weft-move-1', 'weft-l1-1'],
      ['weft-l1-1', 'weft-cosmos-1'],
    ]);
    expect(done.transfers).toHaveLength(1);
    expect(done.transfer_sequence[1].ibc_transfer.state).toBe('TRANSFER_SUCCESS');
    expect(done.transfer_sequence[1].ibc_transfer.packet_txs.send_tx).toEqual(
      done.transfer_sequence[0].ibc_transfer.packet_txs.receive_tx,
    );
    expect(done.transfer_asset_release).toEqual({
      chain_id: 'weft-cosmos-1',
      denom: localDenom('transfer/channel-0/transfer/channel-1/umin'),
      amount: '700',
      released: true,
    });
  }, 60_000);
});

describe('a tracker restarted on the embedded store', () => {
  it('resumes a pending deposit whose finalize landed while it was down', async () => {
    const wasm = devnet.rollups.find((r) => r.vm === 'wasm')!;
    expect(await control(devnet, 'weft_pauseRelayer', ['opinit-executor-weft-wasm-1'])).toMatchObject({
      paused: true,
    });
    const wallet = await depositor(l1, l1.accounts[0]!);
    const hash = await wallet.deposit({ bridgeId: 3n, to: wasm.accounts[2]!.address, amount: '88' });
    wallet.close();
    expect((await track('weft-l1-1', hash)).status).toBe(200);
    await until('pending', async () => (await tracker.status('weft-l1-1', hash)).state === 'STATE_PENDING');

    await app.close();
    await tracker.stop();
    const before = wasm.chain.latestHeight();
    expect(await control(devnet, 'weft_resumeRelayer', ['opinit-executor-weft-wasm-1'])).toMatchObject({
      paused: false,
    });
    await until('blocks while stopped', async () => wasm.chain.latestHeight() >= before + 20);

    // Keeping 5 blocks in memory, the restarted tracker reads the finalize again from the transfer's heights.
    tracker = await startTracker({
      db,
      chains,
      logger: silentLogger(),
      pollMs: 100,
      leaseMs: 3_000,
      retainBlocks: 5,
    });
    const done = await until('completed after the restart', async () => {
      const s = await tracker.status('weft-l1-1', hash);
      return s.status === 'STATE_COMPLETED' ? s : undefined;
    });
    expect(done.state).toBe('STATE_COMPLETED_SUCCESS');
    expect(done.transfer_asset_release).toMatchObject({
      chain_id: 'weft-wasm-1',
      amount: '88',
      released: true,
    });
  }, 60_000);
});
