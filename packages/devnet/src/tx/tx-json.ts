import { toBase64 } from '@cosmjs/encoding';
import { codecOf } from 'weft/chain/registry.js';
import { lazyRequire } from 'weft/common/lazy-require.js';

interface AnyValue {
  typeUrl: string;
  value: Uint8Array;
}

interface CoinValue {
  denom: string;
  amount: string;
}

/** The decoded parts of a tx that its REST JSON is made of (a devnet `DecodedTx` fits). */
export interface TxForJson {
  body: {
    messages: AnyValue[];
    memo: string;
    timeoutHeight: bigint;
    extensionOptions?: AnyValue[];
    nonCriticalExtensionOptions?: AnyValue[];
  };
  authInfo: {
    signerInfos: Array<{ publicKey?: AnyValue; modeInfo: { single?: { mode: number } }; sequence: bigint }>;
    fee: { amount: CoinValue[]; gasLimit: bigint; payer: string; granter: string };
    tip?: { amount: CoinValue[]; tipper: string };
  };
  signatures: Uint8Array[];
}

export type JsonObject = { [key: string]: unknown };

export interface RestTx {
  body: {
    messages: JsonObject[];
    memo: string;
    timeout_height: string;
    extension_options: JsonObject[];
    non_critical_extension_options: JsonObject[];
  };
  auth_info: {
    signer_infos: Array<{
      public_key: JsonObject | null;
      mode_info: { single?: { mode: string | number } };
      sequence: string;
    }>;
    fee: { amount: CoinValue[]; gas_limit: string; payer: string; granter: string };
    tip: { amount: CoinValue[]; tipper: string } | null;
  };
  signatures: string[];
}

const SIGN_MODE_NAMES = new Map<number, string>([
  [0, 'SIGN_MODE_UNSPECIFIED'],
  [1, 'SIGN_MODE_DIRECT'],
  [2, 'SIGN_MODE_TEXTUAL'],
  [3, 'SIGN_MODE_DIRECT_AUX'],
  [127, 'SIGN_MODE_LEGACY_AMINO_JSON'],
  [191, 'SIGN_MODE_EIP_191'],
  [9999, 'SIGN_MODE_ETHEREUM'],
]);

const snakeCase = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isAny = (value: unknown): value is AnyValue =>
  isObject(value) && typeof value.typeUrl === 'string' && value.value instanceof Uint8Array;

/**
 * One proto field (ts-proto form) as the gateway writes it, keeping what @initia/initia.js rendered
 * where it has the field: the library knows custom shapes (inline wasm JSON, sign modes) but drops
 * empty bytes fields and sends some 64-bit integers through Number, so the decoded proto fills those in.
 */
function fieldJson(proto: unknown, rendered: unknown, inList = false): unknown {
  if (proto === undefined || proto === null) return null;
  if (typeof proto === 'bigint') return proto.toString();
  if (proto instanceof Uint8Array) {
    // gogoproto leaves an absent bytes field nil, which encoding/json writes as null.
    if (proto.length === 0) return inList ? '' : null;
    return rendered ?? toBase64(proto);
  }
  if (Array.isArray(proto)) {
    const items = Array.isArray(rendered) && rendered.length === proto.length ? rendered : [];
    return proto.map((item, i) => fieldJson(item, items[i], true));
  }
  if (isAny(proto)) return anyToJson(proto);
  if (isObject(proto)) return messageJson(proto, isObject(rendered) ? rendered : undefined);
  return rendered ?? proto;
}

/** Every field of the message in proto order, under its proto (snake_case) name. */
function messageJson(proto: JsonObject, rendered: JsonObject | undefined): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(proto)) {
    const name = snakeCase(key);
    out[name] = fieldJson(value, rendered?.[name]);
  }
  return out;
}

const HEIGHT_ZERO = { revision_number: '0', revision_height: '0' };
const COIN_ZERO = { denom: '', amount: '0' };
const PACKET_ZERO = {
  sequence: '0',
  source_port: '',
  source_channel: '',
  destination_port: '',
  destination_channel: '',
  data: null,
  timeout_height: HEIGHT_ZERO,
  timeout_timestamp: '0',
};

/**
 * Fields gogoproto declares non-nullable (a struct, or a `math.Int` that is "0" when unset), by msg type
 * and dotted path. An unset one is still written in full, where ts-proto leaves it undefined or "".
 */
const NON_NULLABLE: Record<string, Array<[path: string, zero: unknown]>> = {
  '/minievm.evm.v1.MsgCall': [['value', '0']],
  '/minievm.evm.v1.MsgCreate': [['value', '0']],
  '/ibc.core.channel.v1.MsgRecvPacket': [
    ['packet', PACKET_ZERO],
    ['packet.timeout_height', HEIGHT_ZERO],
    ['proof_height', HEIGHT_ZERO],
  ],
  '/ibc.applications.transfer.v1.MsgTransfer': [
    ['token', COIN_ZERO],
    ['timeout_height', HEIGHT_ZERO],
  ],
  '/opinit.opchild.v1.MsgFinalizeTokenDeposit': [['amount', COIN_ZERO]],
  '/opinit.opchild.v1.MsgInitiateTokenWithdrawal': [['amount', COIN_ZERO]],
  '/opinit.ophost.v1.MsgInitiateTokenDeposit': [['amount', COIN_ZERO]],
};

function fillNonNullable(typeUrl: string, json: JsonObject): JsonObject {
  for (const [path, zero] of NON_NULLABLE[typeUrl] ?? []) {
    const names = path.split('.');
    const field = names.pop()!;
    let parent: unknown = json;
    for (const name of names) parent = isObject(parent) ? parent[name] : undefined;
    if (isObject(parent) && (parent[field] === null || parent[field] === '')) {
      parent[field] = structuredClone(zero);
    }
  }
  return json;
}

/**
 * @initia/initia.js, loaded by the first msg rendered: about 0.5 s of CPU, which the dev stack would
 * otherwise pay before its table rather than with its first block of txs.
 */
const initia = lazyRequire<typeof import('@initia/initia.js')>('@initia/initia.js', import.meta.url);

function initiaRendering(any: AnyValue): JsonObject | undefined {
  const { Msg } = initia();
  try {
    return Msg.fromProto(any).toData() as unknown as JsonObject;
  } catch {
    return undefined;
  }
}

/** An Any as `{"@type": url, ...fields}`; a type neither the registry nor initia.js knows keeps its bytes. */
export function anyToJson(any: AnyValue): JsonObject {
  const codec = codecOf(any.typeUrl);
  // Keys are not msgs: initia.js has no rendering for them, and trying costs an exception per tx.
  const rendered = any.typeUrl.endsWith('.PubKey') ? undefined : initiaRendering(any);
  let decoded: JsonObject | undefined;
  try {
    decoded = codec?.decode(any.value);
  } catch {
    decoded = undefined;
  }
  if (decoded)
    return fillNonNullable(any.typeUrl, { '@type': any.typeUrl, ...messageJson(decoded, rendered) });
  return rendered ?? { '@type': any.typeUrl, value: toBase64(any.value) };
}

const coinsJson = (coins: CoinValue[]): CoinValue[] =>
  coins.map((c) => ({ denom: c.denom, amount: c.amount }));

/** The tx as Cosmos REST (grpc-gateway, SDK 0.50) renders it inside `txs[]`. */
export function txToRestJson(tx: TxForJson): RestTx {
  const { body, authInfo } = tx;
  return {
    body: {
      messages: body.messages.map(anyToJson),
      memo: body.memo,
      timeout_height: body.timeoutHeight.toString(),
      extension_options: (body.extensionOptions ?? []).map(anyToJson),
      non_critical_extension_options: (body.nonCriticalExtensionOptions ?? []).map(anyToJson),
    },
    auth_info: {
      signer_infos: authInfo.signerInfos.map((info) => ({
        public_key: info.publicKey ? anyToJson(info.publicKey) : null,
        mode_info: info.modeInfo.single
          ? { single: { mode: SIGN_MODE_NAMES.get(info.modeInfo.single.mode) ?? info.modeInfo.single.mode } }
          : {},
        sequence: info.sequence.toString(),
      })),
      fee: {
        amount: coinsJson(authInfo.fee.amount),
        gas_limit: authInfo.fee.gasLimit.toString(),
        payer: authInfo.fee.payer,
        granter: authInfo.fee.granter,
      },
      tip: authInfo.tip ? { amount: coinsJson(authInfo.tip.amount), tipper: authInfo.tip.tipper } : null,
    },
    signatures: tx.signatures.map((s) => toBase64(s)),
  };
}
