import { sha256 } from '@noble/hashes/sha2.js';
import { encodeAny } from 'weft/chain/registry.js';
import type { AnyMsg } from '../types.js';

/**
 * ICS-721 `NonFungibleTokenPacketData` as initia's nft-transfer module writes and reads it, the class ids a
 * receiving chain derives from it, and the `MsgRecvPacket` a relayer submits.
 */

export const NFT_TRANSFER_PORT = 'nft-transfer';
export const MSG_RECV_PACKET = '/ibc.core.channel.v1.MsgRecvPacket';

export interface NftPacketData {
  classId: string;
  classUri?: string;
  /** base64 of JSON `{"name","description"}` on Initia. */
  classData?: string;
  tokenIds: string[];
  tokenUris?: string[];
  tokenData?: string[];
  sender: string;
  receiver: string;
  memo?: string;
}

/** base64 class data as an Initia L1 collection puts it: JSON `{name, description}`. */
export function classDataOf(name: string, description = ''): string {
  return Buffer.from(JSON.stringify({ name, description })).toString('base64');
}

// Go's encoding/json escapes these even inside strings.
const goJsonEscapes: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/**
 * `GetBytes`: proto JSON with camelCase names and empty fields left out, keys sorted (`sdk.MustSortJSON`,
 * which re-marshals with Go's escaping). URIs and data that are all empty are dropped as `requireShape` does.
 */
export function encodePacketData(data: NftPacketData): Uint8Array {
  const allEmpty = (list?: string[]) => list?.every((s) => s === '') === true;
  const fields: Record<string, string | string[] | undefined> = {
    classData: data.classData,
    classId: data.classId,
    classUri: data.classUri,
    memo: data.memo,
    receiver: data.receiver,
    sender: data.sender,
    tokenData: allEmpty(data.tokenData) ? undefined : data.tokenData,
    tokenIds: data.tokenIds,
    tokenUris: allEmpty(data.tokenUris) ? undefined : data.tokenUris,
  };
  const sorted: Record<string, string | string[]> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) continue;
    sorted[key] = value;
  }
  const json = JSON.stringify(sorted).replace(/[<>&\u2028\u2029]/g, (c) => goJsonEscapes[c]!);
  return new TextEncoder().encode(json);
}

const FIELD_NAMES: Record<string, keyof NftPacketData> = {
  classId: 'classId',
  class_id: 'classId',
  classUri: 'classUri',
  class_uri: 'classUri',
  classData: 'classData',
  class_data: 'classData',
  tokenIds: 'tokenIds',
  token_ids: 'tokenIds',
  tokenUris: 'tokenUris',
  token_uris: 'tokenUris',
  tokenData: 'tokenData',
  token_data: 'tokenData',
  sender: 'sender',
  receiver: 'receiver',
  memo: 'memo',
};

/**
 * `DecodePacketData`: proto JSON (either field spelling); missing URIs and data become one empty string per
 * token. Throws on anything else.
 */
export function decodePacketData(bytes: Uint8Array): Required<NftPacketData> {
  const raw = JSON.parse(Buffer.from(bytes).toString('utf8')) as unknown;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new Error('packet data is not an object');
  const out: Partial<Record<keyof NftPacketData, unknown>> = {};
  for (const [key, value] of Object.entries(raw)) {
    const field = FIELD_NAMES[key];
    if (!field) throw new Error(`unknown field "${key}"`);
    out[field] = value;
  }
  const str = (v: unknown) => {
    if (v === undefined || v === null) return '';
    if (typeof v !== 'string') throw new Error('expected a string');
    return v;
  };
  const list = (v: unknown) => {
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v) || !v.every((x) => typeof x === 'string'))
      throw new Error('expected a list of strings');
    return v as string[];
  };
  const tokenIds = list(out.tokenIds);
  const fill = (l: string[]) => (l.length === 0 ? tokenIds.map(() => '') : l);
  return {
    classId: str(out.classId),
    classUri: str(out.classUri),
    classData: str(out.classData),
    tokenIds,
    tokenUris: fill(list(out.tokenUris)),
    tokenData: fill(list(out.tokenData)),
    sender: str(out.sender),
    receiver: str(out.receiver),
    memo: str(out.memo),
  };
}

/** `GetPrefixedClassId`: the class id a Wasm rollup's ICS-721 contract names the received collection. */
export function prefixedClassId(port: string, channel: string, classId: string): string {
  return `${port}/${channel}/${classId}`;
}

/** Whether a class path starts with a hop (`<port>/channel-N/…`): the class came from another chain. */
export const hasHop = (path: string) => /^[^/]+\/channel-\d+\//.test(path);

/** The class a Move or EVM chain holds for a full class path: `ibc/<uppercase hex sha256 of the path>`. */
export function voucherClassId(path: string): string {
  return `ibc/${Buffer.from(sha256(new TextEncoder().encode(path)))
    .toString('hex')
    .toUpperCase()}`;
}

/** `GetNftTransferClassId`: the voucher class of a class received over `port`/`channel`. */
export function nftTransferClassId(port: string, channel: string, classId: string): string {
  return voucherClassId(prefixedClassId(port, channel, classId));
}

export interface RecvPacketParams {
  /** The relayer. */
  signer: string;
  sequence: bigint;
  sourcePort?: string;
  sourceChannel: string;
  destinationPort?: string;
  destinationChannel: string;
  data: NftPacketData;
  timeoutHeight?: { revisionNumber: bigint; revisionHeight: bigint };
  /** Nanoseconds; defaults far in the future (a packet needs one of the two timeouts). */
  timeoutTimestamp?: bigint;
  proofHeight?: { revisionNumber: bigint; revisionHeight: bigint };
}

// 2100-01-01T00:00:00Z in nanoseconds.
const FAR_FUTURE_NS = 4_102_444_800_000_000_000n;

/** The `MsgRecvPacket` a relayer submits for an ICS-721 packet. */
export function buildNftRecvPacket(p: RecvPacketParams): AnyMsg {
  const data = encodePacketData(p.data);
  return encodeAny(MSG_RECV_PACKET, {
    packet: {
      sequence: p.sequence,
      sourcePort: p.sourcePort ?? NFT_TRANSFER_PORT,
      sourceChannel: p.sourceChannel,
      destinationPort: p.destinationPort ?? NFT_TRANSFER_PORT,
      destinationChannel: p.destinationChannel,
      data,
      timeoutHeight: p.timeoutHeight ?? { revisionNumber: 0n, revisionHeight: 0n },
      timeoutTimestamp: p.timeoutTimestamp ?? (p.timeoutHeight ? 0n : FAR_FUTURE_NS),
    },
    // The devnet does not verify proofs; this stands in for the commitment proof bytes.
    proofCommitment: sha256(data),
    proofHeight: p.proofHeight ?? { revisionNumber: 0n, revisionHeight: 1n },
    signer: p.signer,
  });
}
