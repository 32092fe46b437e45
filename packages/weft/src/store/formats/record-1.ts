import { inflateRawSync } from 'node:zlib';

/**
 * Record format 1, as it was written until format 2 came (stores may hold it still): the byte 1, then
 * the record's JSON text as raw deflate (32 KB window) with `DICTIONARY_1` as its preset dictionary.
 * Only read now. This file does not change: a value of format 1 decodes the same way for as long as
 * weft reads it.
 */
export const RECORD_FORMAT_1 = 1;

/**
 * Text common to Cosmos tx records (rollytics `types.Tx`, CometBFT events, the REST tx) and EVM
 * receipts, most frequent last (deflate reaches nearer text with shorter codes). Chain-independent:
 * only field names, standard SDK and EVM strings. Formats 1 and 2 both inflate with it: a better one
 * is a new format.
 */
export const DICTIONARY_1 = Buffer.from(
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

/** `view` a value of format 1 (its first byte 1): its text, in a 16 KB zlib chunk's slice. */
export const decodeRecord1 = (view: Buffer): Buffer =>
  inflateRawSync(view.subarray(1), { dictionary: DICTIONARY_1 });
