import { type Hex, parseAbiItem, toEventSelector } from 'viem';
import {
  ibcDestinationKey,
  ibcSourceKey,
  omnichainKey,
  opDepositKey,
  opWithdrawalKey,
} from './chain-events.js';
import type { TxEvents } from './chain-reader.js';
import type { ChainDirectory } from './evidence.js';
import type { Hop, TransferProgress } from './types.js';

/**
 * Catch-up: evidence that landed before a follower's window (a transfer tracked, taken over or resumed
 * long after its hops moved) is looked up on the chain that holds it, once per missing piece of a
 * transfer: CometBFT `/tx_search` with the event query naming it, or on EVM chains `eth_getLogs` of the
 * endpoint's `PacketDelivered` back to the hop's send. Done look-ups are kept in `progress.searched`;
 * afterwards the followers bring what is still to come.
 */

export interface Lookup {
  /** `<wait key>@<chain id>`, kept in `progress.searched` once done. */
  id: string;
  /** The wait key (`evidence.ts` `waitKeys`) the evidence answers. */
  key: string;
  chainId: string;
  /** When the hop was sent (RFC 3339): its evidence is not older. */
  since: string;
  /** Event queries for `/tx_search` (a Cosmos chain). */
  queries?: string[];
  /** topic0 of the logs to scan for, back to `since` (an EVM chain). */
  topic?: Hex;
}

export const PACKET_DELIVERED_TOPIC = toEventSelector(
  parseAbiItem(
    'event PacketDelivered((uint32 srcEid, bytes32 sender, uint64 nonce) origin, address receiver)',
  ),
);

/** Values go into quoted query terms: anything beyond identifier characters is not looked up. */
const SAFE = /^[\w\-./:]+$/;
const term = (event: string, attrs: Record<string, string>) =>
  Object.entries(attrs)
    .map(([key, value]) => `${event}.${key}='${value}'`)
    .join(' AND ');
const safe = (attrs: Record<string, string>) => Object.values(attrs).every((v) => SAFE.test(v));

/** The look-ups that would find what a transfer's hops still wait on, on every chain it may sit on. */
export function lookupsOf(progress: TransferProgress, chains: ChainDirectory): Lookup[] {
  return progress.hops.flatMap((hop) => lookupsOfHop(hop, chains));
}

function lookupsOfHop(hop: Hop, chains: ChainDirectory): Lookup[] {
  const out: Lookup[] = [];
  const cosmos = (chainId: string | undefined, key: string, since: string, queries: string[]) => {
    const chain = chainId === undefined ? undefined : chains.get(chainId);
    if (chain?.rpc) out.push({ id: `${key}@${chain.chainId}`, key, chainId: chain.chainId, since, queries });
  };
  switch (hop.kind) {
    case 'ibc': {
      if (hop.timeout || hop.acknowledge) return out;
      const packet = {
        packet_sequence: hop.sequence,
        packet_src_port: hop.srcPort,
        packet_src_channel: hop.srcChannel,
        packet_dst_port: hop.dstPort,
        packet_dst_channel: hop.dstChannel,
      };
      if (!safe(packet)) return out;
      if (!hop.receive && !hop.written) {
        // The destination from the registry's channels; when it names none, every other chain.
        const destinations = hop.toChainId
          ? [hop.toChainId]
          : chains
              .all()
              .map((c) => c.chainId)
              .filter((id) => id !== hop.fromChainId);
        for (const chainId of destinations)
          cosmos(chainId, ibcDestinationKey(hop), hop.send.time, [term('recv_packet', packet)]);
      }
      const { packet_dst_port: _, packet_dst_channel: __, ...sourceSide } = packet;
      cosmos(hop.fromChainId, ibcSourceKey(hop.fromChainId, hop), hop.send.time, [
        term('acknowledge_packet', sourceSide),
        term('timeout_packet', sourceSide),
      ]);
      return out;
    }
    case 'opinit': {
      const l1 = chains.l1()?.chainId;
      if (hop.direction === 'withdrawal') {
        const claim = { bridge_id: hop.bridgeId ?? '', l2_sequence: hop.sequence };
        if (!hop.receive && safe(claim))
          cosmos(hop.toChainId ?? l1, opWithdrawalKey(claim.bridge_id, claim.l2_sequence), hop.send.time, [
            term('finalize_token_withdrawal', claim),
          ]);
        return out;
      }
      if (!hop.receive) {
        const finalize = { l1_sequence: hop.sequence, denom: hop.toDenom };
        if (safe(finalize))
          cosmos(hop.toChainId, opDepositKey(hop.toDenom, hop.sequence), hop.send.time, [
            term('finalize_token_deposit', finalize),
          ]);
        return out;
      }
      if (hop.refundSequence && !hop.refund && hop.bridgeId) {
        const claim = { bridge_id: hop.bridgeId, l2_sequence: hop.refundSequence };
        if (safe(claim))
          cosmos(l1, opWithdrawalKey(hop.bridgeId, hop.refundSequence), hop.receive.time, [
            term('finalize_token_withdrawal', claim),
          ]);
      }
      return out;
    }
    case 'omnichain': {
      const chain = hop.toChainId === undefined ? undefined : chains.get(hop.toChainId);
      if (hop.receive || !chain) return out;
      const key = omnichainKey(chain.chainId, hop.srcEid, hop.sender, hop.nonce);
      if (chain.jsonRpc) {
        out.push({
          id: `${key}@${chain.chainId}`,
          key,
          chainId: chain.chainId,
          since: hop.send.time,
          topic: PACKET_DELIVERED_TOPIC,
        });
        return out;
      }
      const origin = { srcEid: String(hop.srcEid), nonce: hop.nonce };
      if (safe(origin)) cosmos(chain.chainId, key, hop.send.time, [term('PacketDelivered', origin)]);
      return out;
    }
  }
}

/** Marks done the look-ups a follower makes needless: it sees every block made since the hop was sent. */
export function settleCovered(
  progress: TransferProgress,
  chains: ChainDirectory,
  covers: (chainId: string, sinceMs: number) => boolean,
): void {
  for (const lookup of lookupsOf(progress, chains)) {
    if (progress.searched?.includes(lookup.id)) continue;
    if (covers(lookup.chainId, Date.parse(lookup.since)))
      progress.searched = [...(progress.searched ?? []), lookup.id];
  }
}

/** The look-ups of what a transfer waits on that were neither done nor queued (`queued`). */
export const lookupsToRun = (progress: TransferProgress, chains: ChainDirectory, queued: Set<string>) =>
  lookupsOf(progress, chains).filter((l) => !progress.searched?.includes(l.id) && !queued.has(l.id));

/**
 * Runs look-ups one after another: the txs found, and the look-ups done. One whose key is no longer
 * awaited counts as done; one that failed counts as done when `failed` says a retry would not help
 * (the node refuses the query, e.g. its tx index is off), else it is asked again later.
 */
export async function runLookups(
  todo: readonly Lookup[],
  search: (lookup: Lookup) => Promise<TxEvents[]>,
  options: {
    live(): boolean;
    awaits(key: string): boolean;
    /** True to retry later. */
    failed(lookup: Lookup, err: unknown): boolean;
  },
): Promise<{ found: TxEvents[]; done: Lookup[] }> {
  const found: TxEvents[] = [];
  const done: Lookup[] = [];
  for (const lookup of todo) {
    if (!options.live()) break;
    try {
      if (options.awaits(lookup.key)) found.push(...(await search(lookup)));
      done.push(lookup);
    } catch (err) {
      if (!options.failed(lookup, err)) done.push(lookup);
    }
  }
  return { found, done };
}

export interface LookupQueue {
  /** Runs `task` once fewer than `concurrency` tasks run. */
  push(task: () => Promise<void>): void;
  /** Tasks waiting or running. */
  size(): number;
  /** Drops the waiting tasks and resolves once the running ones ended. */
  drain(): Promise<void>;
}

/** A small FIFO: at most `concurrency` look-ups at once, whatever the number of transfers. */
export function createLookupQueue(concurrency: number): LookupQueue {
  let waiting: Array<() => Promise<void>> = [];
  let head = 0;
  let running = 0;
  let idle: (() => void) | undefined;
  const pump = () => {
    while (running < concurrency && head < waiting.length) {
      const task = waiting[head++]!;
      if (head > 1024 && head * 2 > waiting.length) {
        waiting = waiting.slice(head);
        head = 0;
      }
      running++;
      void task()
        .catch(() => undefined)
        .finally(() => {
          running--;
          if (running === 0) idle?.();
          pump();
        });
    }
  };
  return {
    push(task) {
      waiting.push(task);
      pump();
    },
    size: () => waiting.length - head + running,
    drain() {
      waiting = [];
      head = 0;
      if (running === 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        idle = resolve;
      });
    },
  };
}
