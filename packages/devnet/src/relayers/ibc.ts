import type { Packet } from '@initia/initia.proto/ibc/core/channel/v1/channel.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { encodeAny } from 'weft/chain/registry.js';
import type { Logger } from 'weft/common/logger.js';
import { type AbciEvent, type Attributes, attributesOf } from 'weft/protocol/events.js';
import { packetOfEvent } from 'weft/protocol/ibc-events.js';
import { parseHeight, revisionNumber } from 'weft/protocol/ibc-timeout.js';
import type { Chain } from '../chain.js';
import {
  heightTimedOut,
  MSG_ACKNOWLEDGEMENT,
  MSG_RECV_PACKET,
  MSG_TIMEOUT,
  timestampTimedOut,
} from '../ibc/core/module.js';
import { getChannel, ibcKeys, listChannels } from '../ibc/core/store.js';
import type { DevAccount } from '../keys.js';
import type { BlockRecord } from '../node.js';
import { signTx } from '../tx/sign.js';
import type { AnyMsg } from '../types.js';

/**
 * The IBC relayer: it reads the committed blocks of its chains for `send_packet` and `write_acknowledgement`,
 * and after its delay submits `MsgRecvPacket`, `MsgAcknowledgement` or (once the destination is past the
 * packet's timeout) `MsgTimeout` as txs signed by its account on each chain. Paused, it watches but sends
 * nothing, which is how packets time out.
 */

export interface IbcRelayerOptions {
  chains: Array<{ chain: Chain; signer: DevAccount }>;
  /** Wall-clock time between seeing an event and relaying it. */
  delayMs?: number;
  /** How often `start()` looks for new blocks. */
  pollMs?: number;
  logger?: Logger;
}

export interface IbcRelayer {
  /** Looks at new blocks and relays what is due; returns the number of msgs submitted. */
  tick(): Promise<number>;
  start(): void;
  stop(): Promise<void>;
  pause(): void;
  resume(): void;
  setDelay(ms: number): void;
  status(): { paused: boolean; delayMs: number; pending: number };
}

interface Work {
  kind: 'packet' | 'ack';
  /** The chain whose block carried the event. */
  chainId: string;
  packet: Packet;
  ack?: Uint8Array;
  seenAt: number;
  /** Height of the target chain when a msg for this work was last submitted. */
  submittedAt?: { chainId: string; height: number };
}

const GAS_PER_MSG = 400_000n;
/** Blocks to wait for a submitted msg before submitting it again. */
const RESUBMIT_AFTER = 3;

/** The packet a `send_packet` or `write_acknowledgement` event names, with its bytes. */
function packetOf(a: Attributes): Packet {
  const p = packetOfEvent(a);
  return {
    sequence: BigInt(p.sequence),
    sourcePort: p.srcPort,
    sourceChannel: p.srcChannel,
    destinationPort: p.dstPort,
    destinationChannel: p.dstChannel,
    data: new Uint8Array(Buffer.from(p.dataHex, 'hex')),
    timeoutHeight: parseHeight(p.timeoutHeight),
    timeoutTimestamp: BigInt(p.timeoutTimestamp || '0'),
  };
}

const workKey = (w: Work) =>
  `${w.kind}/${w.chainId}/${w.packet.sourcePort}/${w.packet.sourceChannel}/${w.packet.sequence}`;

const blockTimeMs = (record: BlockRecord) => Date.parse(record.block.block.header.time as string);

export function createIbcRelayer(options: IbcRelayerOptions): IbcRelayer {
  const chains = new Map(options.chains.map((c) => [c.chain.info.chainId, c]));
  const scanned = new Map(options.chains.map((c) => [c.chain.info.chainId, c.chain.latestHeight()]));
  const nextSequence = new Map<string, bigint>();
  const work = new Map<string, Work>();
  let delayMs = options.delayMs ?? 0;
  let paused = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();

  /** The relay work an event of a committed tx asks for, if any. */
  const workOf = (chainId: string, e: AbciEvent) => {
    if (e.type !== 'send_packet' && e.type !== 'write_acknowledgement') return undefined;
    const attrs = attributesOf(e);
    const item: Work = {
      kind: e.type === 'send_packet' ? 'packet' : 'ack',
      chainId,
      packet: packetOf(attrs),
      ack:
        e.type === 'write_acknowledgement'
          ? new Uint8Array(Buffer.from(packetOfEvent(attrs).ackHex, 'hex'))
          : undefined,
      seenAt: Date.now(),
    };
    return item;
  };

  const eventsOf = function* (chain: Chain, height: number) {
    for (const tx of chain.getBlock(height)?.txs ?? []) {
      if (tx.result.code === 0) yield* tx.result.events;
    }
  };

  const scan = () => {
    for (const [chainId, { chain }] of chains) {
      const latest = chain.latestHeight();
      for (let height = scanned.get(chainId)! + 1; height <= latest; height += 1) {
        for (const e of eventsOf(chain, height)) {
          const item = workOf(chainId, e);
          if (item) work.set(workKey(item), item);
        }
      }
      scanned.set(chainId, latest);
    }
  };

  /**
   * At start, the packets still committed on a chain were sent before: their `send_packet` (and, once
   * received, the counterparty's `write_acknowledgement`) are looked up in the stored blocks, newest first.
   */
  const recover = () => {
    const wanted = new Map<string, Set<string>>();
    const want = (chainId: string, key: string) =>
      wanted.set(chainId, (wanted.get(chainId) ?? new Set()).add(key));
    for (const [chainId, { chain }] of chains) {
      const state = chain.state();
      for (const end of listChannels(state)) {
        for (const key of state.group(ibcKeys.commitments(end.portId, end.channelId))) {
          const sequence = key.slice(key.lastIndexOf('/') + 1);
          want(chainId, `packet/${chainId}/${end.portId}/${end.channelId}/${sequence}`);
          want(
            end.counterpartyChainId,
            `ack/${end.counterpartyChainId}/${end.portId}/${end.channelId}/${sequence}`,
          );
        }
      }
    }
    for (const [chainId, keys] of wanted) {
      const chain = chains.get(chainId)?.chain;
      if (!chain) continue;
      for (
        let height = scanned.get(chainId)!;
        height >= chain.earliestHeight() && keys.size > 0;
        height -= 1
      ) {
        for (const e of eventsOf(chain, height)) {
          const item = workOf(chainId, e);
          if (item && keys.delete(workKey(item))) work.set(workKey(item), item);
        }
      }
    }
  };

  /** The chain at the other end of a channel of `chainId`. */
  const counterpartyOf = (chainId: string, port: string, channel: string) => {
    const end = getChannel(chains.get(chainId)!.chain.state(), port, channel);
    return end ? chains.get(end.counterpartyChainId) : undefined;
  };

  const proof = (packet: Packet) => sha256(packet.data);
  const heightOf = (chain: Chain) => ({
    revisionNumber: revisionNumber(chain.info.chainId),
    revisionHeight: BigInt(chain.latestHeight()),
  });

  /** The msg a piece of work needs now, on which chain; undefined when it is done (and can be dropped). */
  const nextMsg = (
    w: Work,
    signer: (chainId: string) => string,
  ): { chainId: string; msg: AnyMsg } | 'done' | 'wait' => {
    const p = w.packet;
    if (w.kind === 'ack') {
      const source = counterpartyOf(w.chainId, p.destinationPort, p.destinationChannel);
      if (!source) return 'done';
      const committed = source.chain
        .state()
        .get(ibcKeys.commitment(p.sourcePort, p.sourceChannel, p.sequence));
      if (committed === undefined) return 'done';
      const chainId = source.chain.info.chainId;
      return {
        chainId,
        msg: encodeAny(MSG_ACKNOWLEDGEMENT, {
          packet: p,
          acknowledgement: w.ack,
          proofAcked: sha256(w.ack!),
          proofHeight: heightOf(chains.get(w.chainId)!.chain),
          signer: signer(chainId),
        }),
      };
    }
    const source = chains.get(w.chainId)!;
    if (
      source.chain.state().get(ibcKeys.commitment(p.sourcePort, p.sourceChannel, p.sequence)) === undefined
    ) {
      return 'done';
    }
    const destination = counterpartyOf(w.chainId, p.sourcePort, p.sourceChannel);
    if (!destination) return 'wait';
    const dst = destination.chain;
    // Received: the acknowledgement (written now or later, when a forward completes) is separate work.
    if (dst.state().get(ibcKeys.receipt(p.destinationPort, p.destinationChannel, p.sequence)) !== undefined)
      return 'done';
    const latest = dst.getBlock(dst.latestHeight());
    const timedOut =
      heightTimedOut(p, heightOf(dst)) || (latest !== undefined && timestampTimedOut(p, blockTimeMs(latest)));
    const sourceId = source.chain.info.chainId;
    if (timedOut) {
      return {
        chainId: sourceId,
        msg: encodeAny(MSG_TIMEOUT, {
          packet: p,
          proofUnreceived: proof(p),
          proofHeight: heightOf(dst),
          nextSequenceRecv: p.sequence,
          signer: signer(sourceId),
        }),
      };
    }
    const dstId = dst.info.chainId;
    return {
      chainId: dstId,
      msg: encodeAny(MSG_RECV_PACKET, {
        packet: p,
        proofCommitment: proof(p),
        proofHeight: heightOf(source.chain),
        signer: signer(dstId),
      }),
    };
  };

  const submit = async (chainId: string, msgs: AnyMsg[]) => {
    const { chain, signer } = chains.get(chainId)!;
    const account = chain.account(signer.address);
    if (!account) {
      options.logger?.warn({ chainId, address: signer.address }, 'relayer account does not exist');
      return false;
    }
    const gasLimit = GAS_PER_MSG * BigInt(msgs.length);
    const feeAmount = BigInt(Math.ceil(Number(gasLimit) * chain.info.minGasPrice));
    const sign = (sequence: bigint) =>
      signTx({
        msgs,
        fee: { amount: [{ denom: chain.info.denom, amount: feeAmount.toString() }], gasLimit },
        signer,
        chainId,
        accountNumber: account.accountNumber,
        sequence,
        memo: 'weft devnet relayer',
      });
    let sequence = [nextSequence.get(chainId) ?? 0n, account.sequence].reduce((a, b) => (a > b ? a : b));
    let result = await chain.submit(sign(sequence));
    // Another sender with the same key (the ICS-721 traffic) may hold sequences in the mempool.
    const expected = result.code === 32 ? /expected (\d+)/.exec(result.log)?.[1] : undefined;
    if (expected !== undefined) {
      sequence = BigInt(expected);
      result = await chain.submit(sign(sequence));
    }
    if (result.code !== 0) {
      nextSequence.delete(chainId);
      options.logger?.warn({ chainId, code: result.code, log: result.log }, 'relayer tx refused');
      return false;
    }
    nextSequence.set(chainId, sequence + 1n);
    return true;
  };

  let recovered = false;
  const tick = async () => {
    if (!recovered) {
      recover();
      recovered = true;
    }
    scan();
    if (paused) return 0;
    const now = Date.now();
    const batches = new Map<string, { msgs: AnyMsg[]; items: Work[] }>();
    const signerOf = (chainId: string) => chains.get(chainId)!.signer.address;
    for (const [key, w] of work) {
      if (now - w.seenAt < delayMs) continue;
      const next = nextMsg(w, signerOf);
      if (next === 'done') {
        work.delete(key);
        continue;
      }
      if (next === 'wait') continue;
      const target = chains.get(next.chainId)!.chain;
      if (
        w.submittedAt?.chainId === next.chainId &&
        target.latestHeight() < w.submittedAt.height + RESUBMIT_AFTER
      )
        continue;
      const batch = batches.get(next.chainId) ?? { msgs: [], items: [] };
      batch.msgs.push(next.msg);
      batch.items.push(w);
      batches.set(next.chainId, batch);
    }
    let sent = 0;
    for (const [chainId, batch] of batches) {
      if (await submit(chainId, batch.msgs)) {
        const height = chains.get(chainId)!.chain.latestHeight();
        for (const w of batch.items) w.submittedAt = { chainId, height };
        sent += batch.msgs.length;
      }
    }
    return sent;
  };

  const serialTick = () => {
    const run = running.then(tick, tick);
    running = run.catch((err: unknown) => options.logger?.error({ err }, 'relayer tick failed'));
    return run;
  };

  return {
    tick: serialTick,
    start() {
      if (timer) return;
      timer = setInterval(() => void serialTick().catch(() => undefined), options.pollMs ?? 200);
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running;
    },
    pause() {
      paused = true;
    },
    resume() {
      paused = false;
    },
    setDelay(ms) {
      delayMs = Math.max(0, ms);
    },
    status: () => ({ paused, delayMs, pending: work.size }),
  };
}
