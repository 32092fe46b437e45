import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from 'weft/common/logger.js';
import { startTracker, type Tracker } from 'weft/router/tracking/tracker.js';
import { migrateTracking, ROUTER_SCHEMA } from 'weft/router/tracking/transfer-store.js';
import type { TrackedChain } from 'weft/router/tracking/types.js';
import { type Db, openDb } from 'weft/store/db.js';
import type { Devnet, DevnetChain } from 'weft-devnet/devnet.js';
import { type IbcTestChain, latestTimeNs, sendTransfer } from './ibc-support.js';
import {
  control,
  depositor,
  sendOft,
  trackedChains,
  trackingDevnet,
  until,
} from './router-tracking-support.js';

/**
 * Catch-up on the full network: transfers of every kind (an OPinit deposit, IBC success, error ack,
 * timeout and a two-hop forward, OFT transfers to the external EVM chain and to the Move L1) are followed
 * to their end by a tracker that saw them happen; a second tracker, started once their hops are far
 * below its 5-block window on every chain, is asked to track them and must reach the same statuses,
 * hop for hop, from look-ups alone (`/tx_search`, `eth_getLogs`).
 */

const RETAIN = 5;
let network: Awaited<ReturnType<typeof trackingDevnet>>;
let devnet: Devnet;
let l1: DevnetChain;
let chains: TrackedChain[];
const opened: Db[] = [];
const running: Tracker[] = [];

beforeAll(async () => {
  network = await trackingDevnet('tracking-catch-up');
  devnet = network.devnet;
  l1 = devnet.l1!;
  chains = trackedChains(devnet);
}, 180_000);

afterAll(async () => {
  for (const t of running) await t.stop().catch(() => undefined);
  for (const db of opened) await db.close();
  await network?.close();
}, 60_000);

async function tracker(retainBlocks?: number): Promise<{ tracker: Tracker; db: Db }> {
  const db = await (await openDb({ dataDir: 'memory://' })).withSchema(ROUTER_SCHEMA);
  opened.push(db);
  await migrateTracking(db);
  const started = await startTracker({
    db,
    chains,
    logger: silentLogger(),
    pollMs: 100,
    leaseMs: 3_000,
    ...(retainBlocks ? { retainBlocks } : {}),
  });
  running.push(started);
  return { tracker: started, db };
}

const settled = (t: Tracker, chainId: string, hash: string) =>
  until(
    `${hash} settled`,
    async () => {
      const s = await t.status(chainId, hash);
      return s.status === 'STATE_COMPLETED' ? s : undefined;
    },
    45_000,
  );

/**
 * What both trackers must agree on: the outcome, each hop's txs and the last hop's state. (The witness
 * stops at the terminal evidence; a late tracker may learn more at once, such as an earlier hop's ack.)
 */
function outcome(status: Awaited<ReturnType<Tracker['status']>>) {
  return {
    state: status.state,
    error: status.error,
    release: status.transfer_asset_release,
    hops: status.transfer_sequence.map((entry: Record<string, any>, i: number) => {
      const [kind, hop] = Object.entries(entry)[0]!;
      const txs = hop.packet_txs ?? hop.txs;
      return {
        kind,
        state: i === status.transfer_sequence.length - 1 ? hop.state : undefined,
        from: hop.from_chain_id,
        to: hop.to_chain_id,
        send: txs.send_tx?.tx_hash,
        receive: txs.receive_tx?.tx_hash ?? null,
        timeout: txs.timeout_tx?.tx_hash ?? null,
      };
    }),
  };
}

const ibc = (chain: unknown) => chain as IbcTestChain;
const inFuture = (chain: { chain: IbcTestChain['chain'] }) => latestTimeNs(chain.chain) + 600_000_000_000n;

describe('catching up with evidence older than the followers’ window', () => {
  it('tracks transfers whose hops completed long before: the same terminal statuses, hop for hop', async () => {
    const move = devnet.rollups.find((r) => r.vm === 'move')!;
    const wasm = devnet.rollups.find((r) => r.vm === 'wasm')!;
    const cosmos = devnet.external.cosmos!;
    const witness = (await tracker()).tracker;
    const sent: Array<{ chainId: string; hash: string; name: string }> = [];

    // A timeout first, while the relayer is paused: only the source's timeout tx ends it.
    expect(await control(devnet, 'weft_pauseRelayer', ['ibc'])).toMatchObject({ paused: true });
    const timeout = latestTimeNs(wasm.chain) + 2_000_000_000n;
    const timedOut = await sendTransfer(ibc(l1), l1.accounts[2]!, {
      sourceChannel: 'channel-2',
      token: { denom: 'uinit', amount: '300' },
      receiver: wasm.accounts[0]!.address,
      timeoutTimestamp: timeout,
    });
    sent.push({ chainId: 'weft-l1-1', hash: timedOut, name: 'timeout' });
    await until('the timeout passes', async () => latestTimeNs(wasm.chain) > timeout + 1_000_000_000n);
    expect(await control(devnet, 'weft_resumeRelayer', ['ibc'])).toMatchObject({ paused: false });

    const wallet = await depositor(l1, l1.accounts[0]!);
    const deposit = await wallet.deposit({ bridgeId: 2n, to: move.accounts[1]!.address, amount: '515' });
    wallet.close();
    sent.push({ chainId: 'weft-l1-1', hash: deposit, name: 'deposit' });
    const plain = await sendTransfer(ibc(l1), l1.accounts[3]!, {
      sourceChannel: 'channel-1',
      token: { denom: 'uinit', amount: '600' },
      receiver: move.accounts[2]!.address,
      timeoutTimestamp: inFuture(move),
    });
    sent.push({ chainId: 'weft-l1-1', hash: plain, name: 'ibc' });
    const errorAck = await sendTransfer(ibc(l1), l1.accounts[1]!, {
      sourceChannel: 'channel-3',
      token: { denom: 'uinit', amount: '250' },
      receiver: 'not-a-bech32-address',
      timeoutTimestamp: inFuture(cosmos),
    });
    sent.push({ chainId: 'weft-l1-1', hash: errorAck, name: 'error ack' });
    const forward = await sendTransfer(ibc(move), move.accounts[0]!, {
      sourceChannel: 'channel-0',
      token: { denom: 'umin', amount: '700' },
      receiver: 'pfm',
      timeoutTimestamp: inFuture(l1),
      memo: JSON.stringify({
        forward: {
          receiver: cosmos.accounts[0]!.address,
          port: 'transfer',
          channel: 'channel-3',
          retries: 0,
        },
      }),
    });
    sent.push({ chainId: 'weft-move-1', hash: forward, name: 'forward' });
    sent.push({
      chainId: 'weft-evm-1',
      hash: await sendOft(devnet, { toChainId: '31337', amount: 10n ** 18n }),
      name: 'oft to the external EVM chain',
    });
    sent.push({
      chainId: 'weft-evm-1',
      hash: await sendOft(devnet, { toChainId: 'weft-l1-1', amount: 2n * 10n ** 18n }),
      name: 'oft to the Move L1',
    });

    for (const s of sent) await witness.track(s.chainId, s.hash);
    const seen = new Map<string, Awaited<ReturnType<Tracker['status']>>>();
    for (const s of sent) seen.set(s.name, await settled(witness, s.chainId, s.hash));
    expect([...seen].map(([name, s]) => [name, s.state])).toEqual([
      ['timeout', 'STATE_COMPLETED_ERROR'],
      ['deposit', 'STATE_COMPLETED_SUCCESS'],
      ['ibc', 'STATE_COMPLETED_SUCCESS'],
      ['error ack', 'STATE_COMPLETED_ERROR'],
      ['forward', 'STATE_COMPLETED_SUCCESS'],
      ['oft to the external EVM chain', 'STATE_COMPLETED_SUCCESS'],
      ['oft to the Move L1', 'STATE_COMPLETED_SUCCESS'],
    ]);
    await witness.stop();

    // Every chain moves on well past the late tracker's window before it starts.
    const heights = devnet.all.map((c) => c.chain.latestHeight());
    await until('blocks beyond the window', async () =>
      devnet.all.every((c, i) => c.chain.latestHeight() >= heights[i]! + 4 * RETAIN),
    );
    const { tracker: late, db } = await tracker(RETAIN);
    for (const s of sent) await late.track(s.chainId, s.hash);
    for (const s of sent) {
      const caughtUp = await settled(late, s.chainId, s.hash);
      expect(outcome(caughtUp), s.name).toEqual(outcome(seen.get(s.name)!));
    }
    // Found by look-ups, each recorded once on the transfer.
    const rows = await db.query<{ searched: string[] }>(
      `SELECT progress->'searched' AS searched FROM tracked_transfer ORDER BY id`,
    );
    expect(rows).toHaveLength(sent.length);
    for (const row of rows) {
      expect(row.searched.length).toBeGreaterThan(0);
      expect(new Set(row.searched).size).toBe(row.searched.length);
    }
  }, 240_000);
});
