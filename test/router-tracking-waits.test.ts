import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installHttpErrors } from 'weft/common/http-errors.js';
import { silentLogger } from 'weft/common/logger.js';
import { loadRegistry } from 'weft/router/registry/load.js';
import { trackedChain } from 'weft/router/tracking/chains.js';
import { trackingRoutes } from 'weft/router/tracking/routes.js';
import { startTracker, type Tracker } from 'weft/router/tracking/tracker.js';
import { migrateTracking, ROUTER_SCHEMA } from 'weft/router/tracking/transfer-store.js';
import type { TrackedChain } from 'weft/router/tracking/types.js';
import { type Db, openDb } from 'weft/store/db.js';
import type { Devnet, DevnetChain } from 'weft-devnet/devnet.js';
import { testDevnet } from 'weft-devnet/test-support/devnet.js';
import { withdrawalClaim, withdrawalProof } from 'weft-devnet/test-support/withdrawal.js';
import { type IbcTestChain, latestTimeNs, sendTransfer } from './ibc-support.js';
import { control, depositor, until } from './router-tracking-support.js';
import { bankBalance, signAndBroadcast } from './router-wallet-support.js';

/**
 * A transfer waiting on something that will happen is pending, not abandoned, however long it waits: an
 * OPinit withdrawal nobody has claimed yet, an IBC packet whose relayer is away while its timeout has not
 * passed on the destination. With an abandon window of a few seconds, on the L1, the Move rollup and the
 * external chains, the tracker (its chains read from the devnet's registry, as `weft router` reads them)
 * keeps both pending past the window and says what they wait for; the packet is abandoned only a window
 * after its timeout passed, and tracking it again finds the refund once the relayer is back.
 */

const WINDOW_MS = 4_000;

let dir: string;
let devnet: Devnet;
let l1: DevnetChain;
let move: DevnetChain;
let chains: TrackedChain[];
let db: Db;
let tracker: Tracker;
let app: FastifyInstance;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'weft-tracking-waits-'));
  devnet = await testDevnet({
    seed: 'tracking-waits',
    vms: ['move'],
    network: 'full',
    accounts: 3,
    txsPerBlock: 0,
    blockTimeMs: 200,
    registryDir: join(dir, 'registry'),
    settings: { opinit: { outputIntervalMs: 1_000, finalizationPeriodMs: 2_000 } },
  });
  devnet.run();
  l1 = devnet.l1!;
  move = devnet.rollups[0]!;
  await until('first blocks', async () => devnet.all.every((c) => c.chain.latestHeight() >= 2));
  chains = (await loadRegistry(devnet.manifest().registry!)).chains.map(trackedChain);
  db = await (await openDb({ dataDir: 'memory://' })).withSchema(ROUTER_SCHEMA);
  await migrateTracking(db);
  tracker = await startTracker({
    db,
    chains,
    logger: silentLogger(),
    pollMs: 100,
    leaseMs: 1_500,
    abandonAfterMs: WINDOW_MS,
    unseenAfterMs: WINDOW_MS,
  });
  app = Fastify();
  installHttpErrors(app);
  await app.register(trackingRoutes({ tracker }));
  await app.ready();
}, 180_000);

afterAll(async () => {
  if (devnet) await control(devnet, 'weft_resumeRelayer', ['ibc']).catch(() => undefined);
  await app?.close();
  await tracker?.stop();
  await db?.close();
  await devnet?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 60_000);

const track = async (chainId: string, txHash: string) =>
  (await app.inject({ method: 'POST', url: '/v2/tx/track', payload: { chain_id: chainId, tx_hash: txHash } }))
    .statusCode;
const status = async (chainId: string, txHash: string) =>
  (await app.inject({ method: 'GET', url: `/v2/tx/status?chain_id=${chainId}&tx_hash=${txHash}` })).json();

/** Polls the status for `ms`, each answer `STATE_PENDING` (as InterwovenKit reads it); answers the last. */
async function pendingThroughout(chainId: string, hash: string, ms: number) {
  const end = Date.now() + ms;
  let last: any;
  while (Date.now() < end) {
    last = await status(chainId, hash);
    expect([last.state, last.status, last.error?.message]).toEqual([
      'STATE_PENDING',
      'STATE_PENDING',
      undefined,
    ]);
    await sleep(250);
  }
  return last;
}

describe('transfers waiting on something that will happen', () => {
  it('an OPinit withdrawal nobody claimed yet stays pending past the window, then completes on its claim', async () => {
    const opinit = devnet.manifest().services.opinit as {
      bridges: Array<{ chain_id: string; bridge_id: string; executor_uri: string; l2_denom: string }>;
    };
    const bridge = opinit.bridges.find((b) => b.chain_id === move.chain.info.chainId)!;
    const holder = move.accounts[1]!;
    const owner = l1.accounts[1]!;
    const wallet = await depositor(l1, l1.accounts[0]!);
    await wallet.deposit({ bridgeId: BigInt(bridge.bridge_id), to: holder.address, amount: '5000' });
    wallet.close();
    await until(
      'the deposit on the rollup',
      async () => (await bankBalance(move, holder.address, bridge.l2_denom)) >= 5000n,
    );

    const hash = await signAndBroadcast(
      move,
      holder,
      [
        {
          typeUrl: '/opinit.opchild.v1.MsgInitiateTokenWithdrawal',
          value: {
            sender: holder.address,
            to: owner.address,
            amount: { denom: bridge.l2_denom, amount: '3000' },
          },
        },
      ],
      'direct',
    );
    const chainId = move.chain.info.chainId;
    expect(await track(chainId, hash)).toBe(200);
    await until('pending', async () => (await status(chainId, hash)).state === 'STATE_PENDING');

    // Its output proposed and final within the window: claimable, not claimed, for two windows.
    const waiting = await pendingThroughout(chainId, hash, 2 * WINDOW_MS);
    const sequence = waiting.transfer_sequence[0].op_init_transfer.sequence;
    expect(waiting.transfers[0].waiting_for).toEqual({
      type: 'OPINIT_FINALIZATION',
      transfer_sequence_index: 0,
      chain_id: l1.chain.info.chainId,
      op_init_bridge_id: bridge.bridge_id,
      l2_sequence: sequence,
    });
    expect(waiting.next_blocking_transfer).toEqual({ transfer_sequence_index: 0 });

    const proof = await withdrawalProof(bridge.executor_uri, sequence);
    expect(proof.output_index).toBeGreaterThan(0);
    await signAndBroadcast(
      l1,
      owner,
      [
        {
          typeUrl: '/opinit.ophost.v1.MsgFinalizeTokenWithdrawal',
          value: withdrawalClaim(proof, owner.address),
        },
      ],
      'direct',
    );
    const done = await until('completed by the claim', async () => {
      const answer = await status(chainId, hash);
      return answer.status === 'STATE_COMPLETED' && answer;
    });
    expect(done.state).toBe('STATE_COMPLETED_SUCCESS');
    expect(done.transfers[0].waiting_for).toBeNull();
    expect(done.transfer_asset_release).toMatchObject({ chain_id: l1.chain.info.chainId, denom: 'uinit' });
  }, 90_000);

  it('an IBC packet whose relayer is away waits until its timeout passes, and is abandoned a window after', async () => {
    const l1Id = l1.chain.info.chainId;
    const channel = chains.find((c) => c.chainId === l1Id)!.ibcPeers!;
    const sourceChannel = Object.keys(channel).find((id) => channel[id] === move.chain.info.chainId)!;
    expect(await control(devnet, 'weft_pauseRelayer', ['ibc'])).toMatchObject({ paused: true });
    const timeout = latestTimeNs(move.chain) + BigInt(2 * WINDOW_MS + 3_000) * 1_000_000n;
    const hash = await sendTransfer(l1 as unknown as IbcTestChain, l1.accounts[2]!, {
      sourceChannel,
      token: { denom: 'uinit', amount: '777' },
      receiver: move.accounts[2]!.address,
      timeoutTimestamp: timeout,
    });
    expect(await track(l1Id, hash)).toBe(200);
    await until('pending', async () => (await status(l1Id, hash)).state === 'STATE_PENDING');

    const waiting = await pendingThroughout(l1Id, hash, WINDOW_MS * 1.5);
    expect(waiting.transfers[0].waiting_for).toEqual({
      type: 'IBC_RELAY',
      transfer_sequence_index: 0,
      chain_id: move.chain.info.chainId,
      timeout_height: null,
      timeout_timestamp: String(timeout),
    });

    // The timeout passes on the rollup: nothing is awaited but its relay, for one window.
    await until('the timeout passes on the rollup', async () => latestTimeNs(move.chain) >= timeout, 30_000);
    const passedAt = Date.now();
    const abandoned = await until(
      'abandoned',
      async () => {
        const answer = await status(l1Id, hash);
        return answer.state === 'STATE_ABANDONED' && answer;
      },
      4 * WINDOW_MS,
    );
    expect(Date.now() - passedAt).toBeGreaterThan(WINDOW_MS - 1_000);
    expect(abandoned.error.message).toMatch(/no progress/);
    expect(abandoned.transfers[0].waiting_for).toBeNull();

    // Tracked again once the relayer is back, it finds the timeout relayed and the refund.
    expect(await control(devnet, 'weft_resumeRelayer', ['ibc'])).toMatchObject({ paused: false });
    expect(await track(l1Id, hash)).toBe(200);
    const done = await until('refunded', async () => {
      const answer = await status(l1Id, hash);
      return answer.status === 'STATE_COMPLETED' && answer;
    });
    expect(done.state).toBe('STATE_COMPLETED_ERROR');
    expect(done.transfer_sequence[0].ibc_transfer.packet_txs.error.type).toBe('PACKET_ERROR_TIMEOUT');
  }, 90_000);
});
