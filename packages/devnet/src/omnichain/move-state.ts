import { bytesToHex, type Hex } from 'viem';
import type { StateReader, StateStore } from '../state/store.js';

/** Where the L1's omnichain module keeps its state (bytes32 values as 64 lowercase hex, no `0x`). */
export const omniKeys = {
  /** Next outbound nonce minus one, per destination and receiver. */
  outbound: (dstEid: number, receiver: string) => `omnichain/out/${dstEid}/${receiver}`,
  /** Payload hash of a verified, undelivered packet. */
  inbound: (srcEid: number, sender: string, nonce: bigint) => `omnichain/in/${srcEid}/${sender}/${nonce}`,
  /** `1` once the packet is delivered. */
  delivered: (srcEid: number, sender: string, nonce: bigint) => `omnichain/done/${srcEid}/${sender}/${nonce}`,
  peer: (eid: number) => `omnichain/peer/${eid}`,
  paused: 'omnichain/paused',
} as const;

export const bare = (value: Hex | Uint8Array) =>
  (typeof value === 'string' ? value.slice(2) : bytesToHex(value).slice(2)).toLowerCase();

export function nextOutboundNonce(store: StateStore, dstEid: number, receiver: string): bigint {
  const nonce = BigInt(store.get(omniKeys.outbound(dstEid, receiver)) ?? '0') + 1n;
  store.set(omniKeys.outbound(dstEid, receiver), nonce.toString());
  return nonce;
}

export const peerOfEid = (state: StateReader, eid: number) => state.get(omniKeys.peer(eid));
export const isPaused = (state: StateReader) => state.get(omniKeys.paused) === '1';
