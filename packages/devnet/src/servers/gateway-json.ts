import { toBech32 } from 'weft/chain/address.js';
import type { TxRecord } from '../node.js';

/**
 * CometBFT JSON → the proto JSON the Cosmos gRPC gateway writes: hashes and addresses base64 instead of
 * hex, enums by name, timestamps as protobuf's JSON mapping, every default emitted.
 */

const BLOCK_ID_FLAGS = [
  'BLOCK_ID_FLAG_UNKNOWN',
  'BLOCK_ID_FLAG_ABSENT',
  'BLOCK_ID_FLAG_COMMIT',
  'BLOCK_ID_FLAG_NIL',
];

type Json = Record<string, any>;

export function hexToBase64(hex: string | null | undefined): string {
  return hex ? Buffer.from(hex, 'hex').toString('base64') : '';
}

export function base64ToUpperHex(base64: string | null | undefined): string {
  return base64 ? Buffer.from(base64, 'base64').toString('hex').toUpperCase() : '';
}

const TIMESTAMP = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?Z$/;

/** Protobuf's JSON timestamp: fractional seconds in groups of 0, 3, 6 or 9 digits. */
export function protoTimestamp(rfc3339: string): string {
  const match = TIMESTAMP.exec(rfc3339);
  if (!match) return rfc3339;
  const nanos = Number((match[2] ?? '').padEnd(9, '0'));
  if (nanos === 0) return `${match[1]}Z`;
  const digits = String(nanos).padStart(9, '0');
  const width = nanos % 1_000_000 === 0 ? 3 : nanos % 1000 === 0 ? 6 : 9;
  return `${match[1]}.${digits.slice(0, width)}Z`;
}

/** Go's `time.RFC3339` (whole seconds), as the SDK writes `tx_response.timestamp`. */
export function secondsTimestamp(rfc3339: string): string {
  const match = TIMESTAMP.exec(rfc3339);
  return match ? `${match[1]}Z` : rfc3339;
}

export function gatewayBlockId(blockId: Json): Json {
  return {
    hash: hexToBase64(blockId.hash),
    part_set_header: { total: blockId.parts?.total ?? 0, hash: hexToBase64(blockId.parts?.hash) },
  };
}

function gatewayHeader(header: Json, proposer: string): Json {
  return {
    version: { block: header.version?.block ?? '0', app: header.version?.app ?? '0' },
    chain_id: header.chain_id,
    height: header.height,
    time: protoTimestamp(header.time),
    last_block_id: gatewayBlockId(header.last_block_id ?? {}),
    last_commit_hash: hexToBase64(header.last_commit_hash),
    data_hash: hexToBase64(header.data_hash),
    validators_hash: hexToBase64(header.validators_hash),
    next_validators_hash: hexToBase64(header.next_validators_hash),
    consensus_hash: hexToBase64(header.consensus_hash),
    app_hash: hexToBase64(header.app_hash),
    last_results_hash: hexToBase64(header.last_results_hash),
    evidence_hash: hexToBase64(header.evidence_hash),
    proposer_address: proposer,
  };
}

function gatewayCommit(commit: Json): Json {
  return {
    height: commit.height ?? '0',
    round: commit.round ?? 0,
    block_id: gatewayBlockId(commit.block_id ?? {}),
    signatures: (commit.signatures ?? []).map((sig: Json) => ({
      block_id_flag: BLOCK_ID_FLAGS[sig.block_id_flag] ?? 'BLOCK_ID_FLAG_UNKNOWN',
      validator_address: hexToBase64(sig.validator_address),
      timestamp: protoTimestamp(sig.timestamp ?? '0001-01-01T00:00:00Z'),
      signature: sig.signature ?? '',
    })),
  };
}

/** `tendermint.types.Block` in proto JSON, from the CometBFT `/block` JSON of the block. */
export function gatewayBlock(block: Json): Json {
  return {
    header: gatewayHeader(block.header, hexToBase64(block.header.proposer_address)),
    data: { txs: block.data?.txs ?? [] },
    evidence: { evidence: block.evidence?.evidence ?? [] },
    last_commit: gatewayCommit(block.last_commit ?? {}),
  };
}

/** `cosmos.base.tendermint.v1beta1.Block`: the same, with the proposer as a bech32 consensus address. */
export function sdkBlock(block: Json, bech32Prefix: string): Json {
  const proposer = toBech32(`${bech32Prefix}valcons`, Buffer.from(block.header.proposer_address, 'hex'));
  return { ...gatewayBlock(block), header: gatewayHeader(block.header, proposer) };
}

/** The SDK's `TxResponse` of a committed tx (`NewResponseResultTx`). */
export function txResponseJson(tx: TxRecord, height: number, blockTime: string): Json {
  const result = tx.result;
  return {
    height: String(height),
    txhash: tx.hash,
    codespace: result.codespace,
    code: result.code,
    data: base64ToUpperHex(result.data),
    raw_log: result.log,
    logs: [],
    info: result.info,
    gas_wanted: result.gas_wanted,
    gas_used: result.gas_used,
    tx: { '@type': '/cosmos.tx.v1beta1.Tx', ...tx.restTx },
    timestamp: secondsTimestamp(blockTime),
    events: sdkEvents(result.events),
  };
}

/** Events in proto JSON: attributes always present, `index` always written. */
export function sdkEvents(
  events: Array<{ type: string; attributes?: Array<{ key: string; value: string; index?: boolean }> }>,
): Json[] {
  return events.map((event) => ({
    type: event.type,
    attributes: (event.attributes ?? []).map((attr) => ({
      key: attr.key,
      value: attr.value,
      index: attr.index ?? false,
    })),
  }));
}
