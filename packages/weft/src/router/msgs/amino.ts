import { lazyRequire } from '../../common/lazy-require.js';

/**
 * @initia/amino-converter, loaded by the first msg that needs it: with the amino converters of every
 * module (and CosmJS's CosmWasm client under them) it is about 0.6 s of CPU to load, which a router, an
 * indexer or the dev stack would otherwise pay at start whether or not anyone asks for msgs.
 */
const aminoConverter = lazyRequire<typeof import('@initia/amino-converter')>(
  '@initia/amino-converter',
  import.meta.url,
);
const aminoConverters = () => aminoConverter().aminoConverters;

/** One msg of a `cosmos_tx` (or of an op hook): its amino JSON as a string and its proto type URL. */
export interface CosmosMsg {
  msg: string;
  msg_type_url: string;
}

/** A msg in amino JSON `{type, value}`, exactly as @initia/amino-converter shapes it (what wallets decode with `fromAmino`). */
export function aminoJson(typeUrl: string, value: object): { type: string; value: unknown } {
  const converter = aminoConverters()[typeUrl];
  if (!converter) throw new Error(`no amino converter for ${typeUrl}`);
  return { type: converter.aminoType, value: converter.toAmino(value) };
}

/** A `cosmos_tx` msg: the amino JSON value as a string beside the proto type URL. */
export function aminoMsg(typeUrl: string, value: object): CosmosMsg {
  return { msg: JSON.stringify(aminoJson(typeUrl, value).value), msg_type_url: typeUrl };
}

export const MSG_CALL = '/minievm.evm.v1.MsgCall';

/** A minievm `MsgCall` of `contract` with calldata `input` (0x hex) and `value` wei, as `sender` (bech32). */
export const msgCall = (sender: string, contract: string, input: string, value = 0n): CosmosMsg =>
  aminoMsg(MSG_CALL, {
    sender,
    contractAddr: contract,
    input,
    value: String(value),
    accessList: [],
    authList: [],
  });
