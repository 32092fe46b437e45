import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * Protobuf bytes back from the JSON a node's REST gateway renders (snake_case fields, `Any`s inlined
 * under `@type`), through the ts-proto codecs of cosmjs-types, @initia/initia.proto and
 * @initia/opinit.proto, found by the type URL's package.
 */

const require = createRequire(import.meta.url);

interface Generated {
  encode(msg: unknown): { finish(): Uint8Array };
  fromJSON(json: unknown): unknown;
}

// cosmjs-types first: it keeps a Timestamp's nanoseconds, where initia.proto goes through Date.
const ROOTS = [
  dirname(require.resolve('cosmjs-types/binary')),
  dirname(require.resolve('@initia/initia.proto/google/protobuf/any.js')).replace(/\/google\/protobuf$/, ''),
  dirname(require.resolve('@initia/opinit.proto/google/protobuf/any.js')).replace(/\/google\/protobuf$/, ''),
];

const byTypeUrl = new Map<string, Generated | null>();

function findCodec(typeUrl: string): Generated | null {
  const full = typeUrl.replace(/^\//, '');
  const split = full.lastIndexOf('.');
  const [pkg, name] = [full.slice(0, split), full.slice(split + 1)];
  for (const root of ROOTS) {
    const dir = join(root, ...pkg.split('.'));
    let files: string[];
    try {
      files = readdirSync(dir).filter((f) => f.endsWith('.js'));
    } catch {
      continue;
    }
    for (const file of files) {
      const found = (require(join(dir, file)) as Record<string, Generated | undefined>)[name];
      if (found && typeof found.encode === 'function' && typeof found.fromJSON === 'function') return found;
    }
  }
  return null;
}

export class UnknownProtoTypeError extends Error {
  override name = 'UnknownProtoTypeError';
  constructor(readonly typeUrl: string) {
    super(`no codec for ${typeUrl}`);
  }
}

export function codecFor(typeUrl: string): Generated {
  if (!byTypeUrl.has(typeUrl)) byTypeUrl.set(typeUrl, findCodec(typeUrl));
  const codec = byTypeUrl.get(typeUrl);
  if (!codec) throw new UnknownProtoTypeError(typeUrl);
  return codec;
}

const camel = (key: string) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const RFC3339 = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?Z$/;
const TIME_KEY = /(^|_)(time|timestamp|expiration)$/;

/** `"2025-06-30T04:18:25.123456789Z"` as a Timestamp, nanoseconds kept (JS Date would keep milliseconds). */
function timestampJson(text: string): { seconds: string; nanos: number } {
  const [, whole, fraction = ''] = RFC3339.exec(text)!;
  return {
    seconds: String(Date.parse(`${whole}Z`) / 1000),
    nanos: Number(fraction.padEnd(9, '0')),
  };
}

/** The REST JSON of a message as ts-proto's `fromJSON` reads it (camelCase, Anys packed to bytes). */
function protoJson(value: unknown, key: string, typeUrl: string): unknown {
  if (Array.isArray(value)) return value.map((item) => protoJson(item, key, typeUrl));
  if (typeof value === 'string' && TIME_KEY.test(key) && RFC3339.test(value)) return timestampJson(value);
  if (value === null || typeof value !== 'object') return value;
  const object = value as Record<string, unknown>;
  // wasmd renders a RawContractMessage (bytes) as the JSON it holds.
  if (key === 'msg' && typeUrl.startsWith('/cosmwasm.')) {
    return Buffer.from(JSON.stringify(object)).toString('base64');
  }
  if (typeof object['@type'] === 'string') {
    return { typeUrl: object['@type'], value: Buffer.from(encodeJsonAny(object)).toString('base64') };
  }
  return Object.fromEntries(Object.entries(object).map(([k, v]) => [camel(k), protoJson(v, k, typeUrl)]));
}

/** Encodes `{"@type": url, ...fields}` to the Any's value bytes. */
export function encodeJsonAny(json: Record<string, unknown>): Uint8Array {
  const typeUrl = json['@type'] as string;
  const { '@type': _, ...fields } = json;
  return encodeJson(typeUrl, fields);
}

export function encodeJson(typeUrl: string, fields: Record<string, unknown>): Uint8Array {
  const codec = codecFor(typeUrl);
  return codec.encode(codec.fromJSON(protoJson(fields, '', typeUrl))).finish();
}

/** Sign mode names the gateway writes, and the numbers it falls back to for modes it does not name. */
const SIGN_MODES: Record<string, number> = {
  SIGN_MODE_UNSPECIFIED: 0,
  SIGN_MODE_DIRECT: 1,
  SIGN_MODE_TEXTUAL: 2,
  SIGN_MODE_DIRECT_AUX: 3,
  SIGN_MODE_LEGACY_AMINO_JSON: 127,
  SIGN_MODE_EIP_191: 191,
  SIGN_MODE_ETHEREUM: 9999,
};

export interface RestTxJson {
  body: Record<string, unknown>;
  auth_info: {
    signer_infos: Array<{ mode_info?: { single?: { mode: string | number } } } & Record<string, unknown>>;
  } & Record<string, unknown>;
  signatures: string[];
}

/**
 * The `TxRaw` bytes of a tx rendered by the REST gateway: body and auth info re-encoded, signatures as
 * given. Equal to what the node holds only if the signer's encoder was canonical, which the tx hash tells.
 */
export function restTxToRaw(tx: RestTxJson): Uint8Array {
  const bodyBytes = encodeJson('/cosmos.tx.v1beta1.TxBody', tx.body);
  const authCodec = codecFor('/cosmos.tx.v1beta1.AuthInfo');
  const authInfo = authCodec.fromJSON(protoJson(tx.auth_info, '', '')) as {
    signerInfos: Array<{ modeInfo?: { single?: { mode: number } } }>;
  };
  // Modes are set as numbers: the codecs' enums lack SIGN_MODE_ETHEREUM (9999), which the gateway prints bare.
  tx.auth_info.signer_infos.forEach((info, i) => {
    const mode = info.mode_info?.single?.mode;
    const single = authInfo.signerInfos[i]?.modeInfo?.single;
    if (mode === undefined || !single) return;
    single.mode = typeof mode === 'number' ? mode : (SIGN_MODES[mode] ?? Number(mode));
  });
  const authInfoBytes = authCodec.encode(authInfo).finish();
  return encodeJson('/cosmos.tx.v1beta1.TxRaw', {
    body_bytes: Buffer.from(bodyBytes).toString('base64'),
    auth_info_bytes: Buffer.from(authInfoBytes).toString('base64'),
    signatures: tx.signatures,
  });
}
