import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import {
  createLookupQueue,
  lookupsOf,
  lookupsToRun,
  PACKET_DELIVERED_TOPIC,
  runLookups,
  settleCovered,
} from './catch-up.js';
import { chainDirectory, waitKeys } from './evidence.js';
import type { ChainTx, TransferProgress } from './types.js';

/**
 * What a transfer's missing evidence is looked up by, on which chains (the queries are run against the
 * devnet by test/router-tracking-catch-up.test.ts), which look-ups a follower's window makes needless,
 * and the queue that bounds how many run at once.
 */

const chains = chainDirectory([
  { chainId: 'l1-1', kind: 'cosmos', rpc: 'http://127.0.0.1:1', isL1: true, omnichainEid: 1 },
  { chainId: 'l2-1', kind: 'cosmos', rpc: 'http://127.0.0.1:2', opBridgeId: '7' },
  { chainId: 'c-1', kind: 'cosmos', rpc: 'http://127.0.0.1:3' },
  { chainId: 'evm-1', kind: 'evm', jsonRpc: 'http://127.0.0.1:4', omnichainEid: 2 },
]);
const sent = (chainId: string): ChainTx => ({
  chainId,
  txHash: 'AA'.repeat(32),
  height: 5,
  time: '2026-01-01T00:00:00Z',
});
const packet = { srcPort: 'transfer', srcChannel: 'channel-3', dstPort: 'transfer', dstChannel: 'channel-0' };

describe('catch-up look-ups', () => {
  it('names an IBC packet on every other Cosmos chain until received, and its ack or timeout on the sender', () => {
    const progress: TransferProgress = {
      watch: {},
      hops: [{ kind: 'ibc', fromChainId: 'l1-1', ...packet, sequence: '12', send: sent('l1-1') }],
    };
    const found = lookupsOf(progress, chains);
    expect(found.map((l) => l.chainId)).toEqual(['l2-1', 'c-1', 'l1-1']);
    expect(found[0]!.queries).toEqual([
      "recv_packet.packet_sequence='12' AND recv_packet.packet_src_port='transfer' AND recv_packet.packet_src_channel='channel-3' AND recv_packet.packet_dst_port='transfer' AND recv_packet.packet_dst_channel='channel-0'",
    ]);
    expect(found[2]!.queries).toEqual([
      "acknowledge_packet.packet_sequence='12' AND acknowledge_packet.packet_src_port='transfer' AND acknowledge_packet.packet_src_channel='channel-3'",
      "timeout_packet.packet_sequence='12' AND timeout_packet.packet_src_port='transfer' AND timeout_packet.packet_src_channel='channel-3'",
    ]);
    // Each look-up answers a key the hop waits on, so what it finds is matched as a follower's block is.
    const keys = new Set(waitKeys(progress.hops[0]!));
    for (const l of found) expect(keys.has(l.key)).toBe(true);

    // Received on c-1: only the sender's side is still missing.
    progress.hops[0] = { ...progress.hops[0]!, toChainId: 'c-1', receive: sent('c-1') } as never;
    expect(lookupsOf(progress, chains).map((l) => l.chainId)).toEqual(['l1-1']);
  });

  it('names a deposit’s finalize on its rollup, a withdrawal’s claim on the L1, an OFT delivery on its destination', () => {
    const deposit: TransferProgress = {
      watch: {},
      hops: [
        {
          kind: 'opinit',
          direction: 'deposit',
          fromChainId: 'l1-1',
          toChainId: 'l2-1',
          bridgeId: '7',
          sequence: '4',
          fromDenom: 'uinit',
          toDenom: 'l2/abc',
          amount: '1',
          send: sent('l1-1'),
        },
        {
          kind: 'opinit',
          direction: 'withdrawal',
          fromChainId: 'l2-1',
          toChainId: 'l1-1',
          bridgeId: '7',
          sequence: '9',
          fromDenom: 'l2/abc',
          toDenom: 'uinit',
          amount: '1',
          send: sent('l2-1'),
        },
        {
          kind: 'omnichain',
          fromChainId: 'l1-1',
          toChainId: 'evm-1',
          guid: '0x01',
          srcEid: 1,
          dstEid: 2,
          sender: `0x${'00'.repeat(31)}0a`,
          nonce: '3',
          send: sent('l1-1'),
        },
        {
          kind: 'omnichain',
          fromChainId: 'evm-1',
          toChainId: 'l1-1',
          guid: '0x02',
          srcEid: 2,
          dstEid: 1,
          sender: `0x${'00'.repeat(31)}0b`,
          nonce: '3',
          send: sent('evm-1'),
        },
      ],
    };
    expect(lookupsOf(deposit, chains).map((l) => [l.chainId, l.queries ?? l.topic])).toEqual([
      ['l2-1', ["finalize_token_deposit.l1_sequence='4' AND finalize_token_deposit.denom='l2/abc'"]],
      ['l1-1', ["finalize_token_withdrawal.bridge_id='7' AND finalize_token_withdrawal.l2_sequence='9'"]],
      ['evm-1', PACKET_DELIVERED_TOPIC],
      ['l1-1', ["PacketDelivered.srcEid='2' AND PacketDelivered.nonce='3'"]],
    ]);
  });

  it('leaves out values that would not stay inside a quoted query term', () => {
    const progress: TransferProgress = {
      watch: {},
      hops: [{ kind: 'ibc', fromChainId: 'l1-1', ...packet, sequence: "1' OR 'x", send: sent('l1-1') }],
    };
    expect(lookupsOf(progress, chains)).toEqual([]);
  });

  it('marks done what a follower sees from the hop’s send on, and runs the rest once', () => {
    const progress: TransferProgress = {
      watch: {},
      hops: [{ kind: 'ibc', fromChainId: 'l1-1', ...packet, sequence: '1', send: sent('l1-1') }],
    };
    const since = Date.parse('2026-01-01T00:00:00Z');
    settleCovered(progress, chains, (chainId, sinceMs) => chainId !== 'c-1' && sinceMs === since);
    expect(progress.searched?.map((id) => id.split('@')[1])).toEqual(['l2-1', 'l1-1']);
    expect(lookupsToRun(progress, chains, new Set()).map((l) => l.chainId)).toEqual(['c-1']);
    const queued = new Set(lookupsToRun(progress, chains, new Set()).map((l) => l.id));
    expect(lookupsToRun(progress, chains, queued)).toEqual([]);
  });

  it('runs look-ups in turn: a refused one counts as done, one to retry does not', async () => {
    const progress: TransferProgress = {
      watch: {},
      hops: [{ kind: 'ibc', fromChainId: 'l1-1', ...packet, sequence: '1', send: sent('l1-1') }],
    };
    const [l2, c1, l1] = lookupsOf(progress, chains);
    const tx = { tx: sent('l2-1'), events: [] };
    const failures: string[] = [];
    const { found, done } = await runLookups(
      [l2!, c1!, l1!],
      async (lookup) => {
        if (lookup === l2) return [tx];
        throw new Error(lookup === c1 ? 'node down' : 'index off');
      },
      {
        live: () => true,
        awaits: () => true,
        failed(lookup, err) {
          failures.push(`${lookup.chainId}: ${(err as Error).message}`);
          return lookup === c1;
        },
      },
    );
    expect(found).toEqual([tx]);
    expect(done).toEqual([l2, l1]);
    expect(failures).toEqual(['c-1: node down', 'l1-1: index off']);

    // A key no longer awaited is not asked for; a stopped tracker asks nothing more.
    const skipped = await runLookups([l2!], async () => [tx], {
      live: () => true,
      awaits: () => false,
      failed: () => true,
    });
    expect(skipped).toEqual({ found: [], done: [l2] });
    expect(
      await runLookups([l2!], async () => [tx], {
        live: () => false,
        awaits: () => true,
        failed: () => true,
      }),
    ).toEqual({ found: [], done: [] });
  });

  it('runs at most `concurrency` look-ups at once, in order, and drains', async () => {
    const queue = createLookupQueue(2);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    for (let i = 0; i < 7; i++)
      queue.push(async () => {
        running++;
        most = Math.max(most, running);
        order.push(i);
        await sleep(5);
        running--;
        if (i === 3) throw new Error('a failed look-up does not stop the queue');
      });
    expect(queue.size()).toBe(7);
    await queue.drain();
    expect(most).toBe(2);
    expect(order).toEqual([0, 1]);
    expect(queue.size()).toBe(0);

    for (let i = 2; i < 7; i++)
      queue.push(async () => {
        order.push(i);
      });
    await sleep(50);
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });
});
