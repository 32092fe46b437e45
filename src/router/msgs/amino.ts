import { aminoConverters } from '@initia/amino-converter';

/** One msg of a `cosmos_tx` (or of an op hook): its amino JSON as a string and its proto type URL. */
export interface CosmosMsg {
  msg: string;
  msg_type_url: string;
}

/** The amino JSON of a msg, exactly as @initia/amino-converter shapes it (what wallets decode with `fromAmino`). */
export function aminoMsg(typeUrl: string, value: object): CosmosMsg {
  const converter = aminoConverters[typeUrl];
  if (!converter) throw new Error(`no amino converter for ${typeUrl}`);
  return { msg: JSON.stringify(converter.toAmino(value)), msg_type_url: typeUrl };
}
