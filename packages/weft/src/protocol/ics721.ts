import { goJson } from './go-json.js';
import { ibcHash } from './ics20.js';

/**
 * ICS-721 `NonFungibleTokenPacketData` as initia's nft-transfer module writes and reads it
 * (`x/ibc/nft-transfer/types/packet.go`), and the class ids a receiving chain derives from it (`trace.go`;
 * a Wasm rollup's ics721 contract keeps the prefixed path itself).
 */

export const NFT_TRANSFER_PORT = 'nft-transfer';

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
  return new TextEncoder().encode(goJson(sorted));
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
export const voucherClassId = (path: string): string => ibcHash(path);

/** `GetNftTransferClassId`: the voucher class of a class received over `port`/`channel`. */
export function nftTransferClassId(port: string, channel: string, classId: string): string {
  return voucherClassId(prefixedClassId(port, channel, classId));
}
