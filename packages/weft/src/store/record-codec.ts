import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { readVarint, varintLength, writeVarint } from './varint.js';

/**
 * Tx and EVM tx records are stored as their JSON text compressed here (raw deflate with a preset
 * dictionary), not as `json`: PostgreSQL compresses a value only past about 2 KB and with pglz, so
 * the typical 1–5 KB record took about twice the room. The text comes back byte for byte, key order
 * included; decoding a 4.5 KB record costs about 10 µs.
 *
 * Stored form: one format byte, then the payload. Format 1 is raw deflate (32 KB window) with
 * `DICTIONARY_V1` as its preset dictionary; any level decodes the same way. Format 2 (written since) is
 * format 1's deflate stream after the text's UTF-8 length as a LEB128 varint (1–3 bytes): knowing it, a
 * read inflates into a buffer of the record's size, where zlib's one-shot calls otherwise allocate a
 * 16 KB chunk per record and return a slice of it.
 * Records are written at level 3: on the bench chain's records it takes 30 µs per Cosmos tx and 18 µs
 * per EVM receipt against 49 and 50 at level 9, for 3 % and 10 % more bytes (868 and 363 against 839
 * and 329). The dictionary is part of the format: a later one gets a new format byte, and stored values
 * keep decoding with theirs.
 */

const FORMAT_DEFLATE_V1 = 1;
const FORMAT_DEFLATE_V2 = 2;
const LEVEL = 3;

/**
 * Text common to Cosmos tx records (rollytics `types.Tx`, CometBFT events, the REST tx) and EVM
 * receipts, most frequent last (deflate reaches nearer text with shorter codes). Chain-independent:
 * only field names, standard SDK and EVM strings.
 */
const DICTIONARY_V1 = Buffer.from(
  [
    '"access_list":[],"auth_list":[]}',
    '{"@type":"/cosmos.bank.v1beta1.MsgSend","from_address":"init1","to_address":"init1","amount":[{"denom":"uinit","amount":"',
    '{"@type":"/minievm.evm.v1.MsgCreate","sender":"init1","code":"0x","value":"0",',
    '{"@type":"/minievm.evm.v1.MsgCall","sender":"init1","contract_addr":"0x","input":"0x","value":"0",',
    '{"@type":"/cosmwasm.wasm.v1.MsgExecuteContract","sender":"init1","contract":"init1","msg":{},"funds":[]}',
    '{"@type":"/initia.move.v1.MsgExecute","sender":"init1","module_address":"0x1","module_name":"","function_name":"","type_args":[],"args":[]}',
    '{"type":"wasm","attributes":[{"key":"_contract_address","value":"init1","index":true}]}',
    '{"type":"move","attributes":[{"key":"type_tag","value":"0x1::","index":true},{"key":"data","value":"{\\"',
    '{"type":"contract_created","attributes":[{"key":"contract","value":"0x","index":true}]}',
    '{"type":"create","attributes":[{"key":"contract","value":"0x","index":true},{"key":"ret","value":"0x',
    '"logs":[{"address":"0x","topics":["0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef","0x000000000000000000000000',
    '"],"data":"0x0000000000000000000000000000000000000000000000000000000000000000","blockNumber":"0x',
    '","transactionHash":"0x","transactionIndex":"0x","blockHash":"0x","logIndex":"0x","removed":false}],"logsBloom":"0x',
    '00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000',
    '","status":"0x1","to":"0x","transactionHash":"0x","transactionIndex":"0x","type":"0x2"}',
    '{"blockHash":"0x","blockNumber":"0x","contractAddress":null,"cumulativeGasUsed":"0x","effectiveGasPrice":"0x","from":"0x","gasUsed":"0x',
    '{"type":"evm","attributes":[{"key":"log","value":"{\\"address\\":\\"0x\\",\\"topics\\":[\\"0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef\\",\\"0x000000000000000000000000\\"],\\"data\\":\\"0x0000000000000000000000000000000000000000000000000000',
    '{"type":"call","attributes":[{"key":"contract","value":"0x","index":true},{"key":"ret","value":"0x","index":true}]}',
    '{"type":"message","attributes":[{"key":"action","value":"/","index":true},{"key":"sender","value":"init1","index":true},{"key":"module","value":"bank","index":true},{"key":"msg_index","value":"0","index":true}]}',
    '{"type":"tx","attributes":[{"key":"fee","value":"","index":true},{"key":"fee_payer","value":"init1","index":true}]},{"type":"tx","attributes":[{"key":"acc_seq","value":"init1","index":true}]},{"type":"tx","attributes":[{"key":"signature","value":"","index":true}]}',
    '{"type":"coin_spent","attributes":[{"key":"spender","value":"init1","index":true},{"key":"amount","value":"","index":true}]},{"type":"coin_received","attributes":[{"key":"receiver","value":"init1","index":true},{"key":"amount","value":"","index":true}]},{"type":"transfer","attributes":[{"key":"recipient","value":"init1","index":true},{"key":"sender","value":"init1","index":true},{"key":"amount","value":"","index":true}]},{"type":"message","attributes":[{"key":"sender","value":"init1","index":true}]}',
    '"memo":"","timeout_height":"0","extension_options":[],"non_critical_extension_options":[]},"auth_info":{"signer_infos":[{"public_key":{"@type":"/initia.crypto.v1beta1.ethsecp256k1.PubKey","key":"',
    '"},"mode_info":{"single":{"mode":"SIGN_MODE_DIRECT"}},"sequence":"',
    '"}],"fee":{"amount":[{"denom":"","amount":""}],"gas_limit":"","payer":"","granter":""},"tip":null},"signatures":["',
    '"]},"timestamp":"20',
    'T00:00:00.000000000Z","events":[',
    '{"txhash":"","height":"","codespace":"","code":0,"data":"","raw_log":"","logs":[],"info":"","gas_wanted":"","gas_used":"","tx":{"body":{"messages":[',
  ].join(''),
);

/** A record already serialised: it crossed from another thread as its JSON text. */
export class RecordText {
  constructor(readonly text: string) {}
}

/** A record's JSON text: a `RecordText`'s own, else `JSON.stringify`'s. */
export const recordText = (record: unknown): string =>
  record instanceof RecordText ? record.text : JSON.stringify(record);

export const encodeRecord = (json: string): Buffer => encodeRecordBytes(Buffer.from(json, 'utf8'));

/** Any bytes in the record format (`decodeRecordBytes` gives them back): an EVM tx's call frames too. */
export function encodeRecordBytes(text: Buffer): Buffer {
  // Records compress about fivefold: an output chunk of half the text is one allocation, not 16 KB.
  const payload = deflateRawSync(text, {
    level: LEVEL,
    dictionary: DICTIONARY_V1,
    chunkSize: Math.max(MIN_CHUNK, (text.length >> 1) + 64),
  });
  const head = varintLength(text.length);
  const out = Buffer.allocUnsafe(1 + head + payload.length);
  out[0] = FORMAT_DEFLATE_V2;
  writeVarint(out, 1, text.length);
  payload.copy(out, 1 + head);
  return out;
}

/** The record's JSON text as UTF-8 bytes: what the API splices into its answers. */
export function decodeRecordBytes(stored: Uint8Array): Buffer {
  const view = Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength);
  if (view[0] === FORMAT_DEFLATE_V2) {
    const { value: length, next } = readVarint(view, 1, 'stored record');
    // One spare byte: with the buffer exactly full, zlib would allocate another chunk to look for more.
    const text = inflateRawSync(view.subarray(next), {
      dictionary: DICTIONARY_V1,
      chunkSize: Math.max(MIN_CHUNK, length + 1),
    });
    if (text.length !== length) {
      throw new Error(`stored record inflates to ${text.length} bytes, its header says ${length}`);
    }
    return text;
  }
  if (view[0] === FORMAT_DEFLATE_V1) return inflateRawSync(view.subarray(1), { dictionary: DICTIONARY_V1 });
  throw new Error(`stored record of unknown format ${view[0]}`);
}

export const decodeRecord = (stored: Uint8Array): string => decodeRecordBytes(stored).toString('utf8');

/** zlib's smallest output chunk. */
const MIN_CHUNK = 64;
