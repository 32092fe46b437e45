import { RLP } from '@ethereumjs/rlp';
import { keccak_256 } from '@noble/hashes/sha3.js';
import type { EvmLog } from './executor.js';

/**
 * The hashes of minievm's synthetic Ethereum header: go-ethereum's `DeriveSha` (a Merkle-Patricia root of
 * the list keyed by RLP(index)), the 2048-bit logs bloom, the receipt encoding and the header hash.
 */

type Nested = Uint8Array | Nested[];

const EMPTY = new Uint8Array(0);

/** Big-endian bytes without leading zeros (RLP's integer form; zero is empty). */
export function intBytes(value: bigint): Uint8Array {
  if (value === 0n) return EMPTY;
  const hex = value.toString(16);
  return Buffer.from(hex.length % 2 === 0 ? hex : `0${hex}`, 'hex');
}

function nibbles(key: Uint8Array): number[] {
  const out: number[] = [];
  for (const byte of key) out.push(byte >> 4, byte & 0x0f);
  return out;
}

/** Hex-prefix encoding of a nibble path (Yellow Paper appendix C). */
function hexPrefix(path: number[], leaf: boolean): Uint8Array {
  const odd = path.length % 2 === 1;
  const flag = (leaf ? 2 : 0) + (odd ? 1 : 0);
  const all = odd ? [flag, ...path] : [flag, 0, ...path];
  const out = new Uint8Array(all.length / 2);
  for (let i = 0; i < out.length; i += 1) out[i] = (all[2 * i]! << 4) | all[2 * i + 1]!;
  return out;
}

/** A child reference: nodes shorter than 32 bytes are inlined, others referenced by hash. */
function reference(node: Nested): Nested {
  const encoded = RLP.encode(node);
  return encoded.length < 32 ? node : keccak_256(encoded);
}

function trieNode(entries: Array<{ path: number[]; value: Uint8Array }>, depth: number): Nested {
  if (entries.length === 1) {
    const only = entries[0]!;
    return [hexPrefix(only.path.slice(depth), true), only.value];
  }
  // Longest shared prefix below `depth` becomes an extension node.
  let shared = 0;
  const first = entries[0]!.path;
  for (;;) {
    const at = depth + shared;
    if (at >= first.length || !entries.every((e) => e.path.length > at && e.path[at] === first[at])) break;
    shared += 1;
  }
  if (shared > 0) {
    return [
      hexPrefix(first.slice(depth, depth + shared), false),
      reference(trieNode(entries, depth + shared)),
    ];
  }
  const branch: Nested[] = [];
  for (let nibble = 0; nibble < 16; nibble += 1) {
    const group = entries.filter((e) => e.path.length > depth && e.path[depth] === nibble);
    branch.push(group.length === 0 ? EMPTY : reference(trieNode(group, depth + 1)));
  }
  branch.push(entries.find((e) => e.path.length === depth)?.value ?? EMPTY);
  return branch;
}

/** go-ethereum `types.DeriveSha`: trie root of `items` keyed by RLP(index). */
export function deriveSha(items: Uint8Array[]): Uint8Array {
  if (items.length === 0) return keccak_256(RLP.encode(EMPTY));
  const entries = items.map((value, i) => ({ path: nibbles(RLP.encode(intBytes(BigInt(i)))), value }));
  return keccak_256(RLP.encode(trieNode(entries, 0)));
}

/** Adds one log to a 256-byte bloom (go-ethereum `types.Bloom.add`). */
function addToBloom(bloom: Uint8Array, data: Uint8Array): void {
  const hash = keccak_256(data);
  for (let i = 0; i < 6; i += 2) {
    const bit = ((hash[i]! << 8) | hash[i + 1]!) & 2047;
    bloom[256 - 1 - (bit >> 3)]! |= 1 << (bit & 7);
  }
}

export function logsBloom(logs: EvmLog[]): Uint8Array {
  const bloom = new Uint8Array(256);
  for (const log of logs) {
    addToBloom(bloom, log.address);
    for (const topic of log.topics) addToBloom(bloom, topic);
  }
  return bloom;
}

export function mergeBlooms(blooms: Uint8Array[]): Uint8Array {
  const merged = new Uint8Array(256);
  for (const bloom of blooms) for (let i = 0; i < 256; i += 1) merged[i]! |= bloom[i]!;
  return merged;
}

/** The consensus encoding of a receipt, as the receipts trie holds it. */
export function encodeReceipt(receipt: {
  type: number;
  status: 0 | 1;
  cumulativeGasUsed: bigint;
  bloom: Uint8Array;
  logs: EvmLog[];
}): Uint8Array {
  const body = RLP.encode([
    receipt.status === 1 ? Uint8Array.of(1) : EMPTY,
    intBytes(receipt.cumulativeGasUsed),
    receipt.bloom,
    receipt.logs.map((log) => [log.address, log.topics, log.data]),
  ]);
  return receipt.type === 0 ? body : Buffer.concat([Uint8Array.of(receipt.type), body]);
}

/** Fields of minievm's synthetic header that vary; the rest are fixed empty values. */
export interface EthHeaderFields {
  parentHash: Uint8Array;
  transactionsRoot: Uint8Array;
  receiptsRoot: Uint8Array;
  logsBloom: Uint8Array;
  number: bigint;
  gasLimit: bigint;
  gasUsed: bigint;
  timestamp: bigint;
  baseFee: bigint;
}

export const EMPTY_ROOT_HASH = keccak_256(RLP.encode(EMPTY));
export const EMPTY_UNCLE_HASH = keccak_256(RLP.encode([]));

/** keccak256(RLP(header)) with the London base fee and Shanghai withdrawals root, as minievm builds it. */
export function headerHash(header: EthHeaderFields): Uint8Array {
  return keccak_256(
    RLP.encode([
      header.parentHash,
      EMPTY_UNCLE_HASH,
      new Uint8Array(20),
      EMPTY_ROOT_HASH,
      header.transactionsRoot,
      header.receiptsRoot,
      header.logsBloom,
      EMPTY,
      intBytes(header.number),
      intBytes(header.gasLimit),
      intBytes(header.gasUsed),
      intBytes(header.timestamp),
      EMPTY,
      new Uint8Array(32),
      new Uint8Array(8),
      intBytes(header.baseFee),
      EMPTY_ROOT_HASH,
    ]),
  );
}
