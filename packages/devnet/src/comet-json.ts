import { createHash } from 'node:crypto';
import { signEd25519 } from './ed25519.js';
import type { ExecTxResultJson } from './node.js';
import type { AbciEvent } from './types.js';

/**
 * Renders blocks and results the way CometBFT v0.38 JSON does: int64 as strings, `[]byte` as base64,
 * HexBytes as uppercase hex, nil slices as `null`, attributes omitted when an event has none.
 */

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();
const upperHex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex').toUpperCase();

/** RFC 6962 Merkle root, as CometBFT's `merkle.HashFromByteSlices`. */
export function merkleRoot(items: Uint8Array[]): Buffer {
  if (items.length === 0) return sha256(new Uint8Array());
  if (items.length === 1) return sha256(Buffer.concat([Buffer.from([0]), items[0]!]));
  const split = 2 ** Math.floor(Math.log2(items.length - 1));
  const left = merkleRoot(items.slice(0, split));
  const right = merkleRoot(items.slice(split));
  return sha256(Buffer.concat([Buffer.from([1]), left, right]));
}

export function eventsJson(events: AbciEvent[]): ExecTxResultJson['events'] {
  return events.map((e) =>
    e.attributes.length === 0 ? { type: e.type } : { type: e.type, attributes: e.attributes },
  );
}

export interface BlockHeaderInput {
  chainId: string;
  height: number;
  time: string;
  lastBlockHash: string;
  txs: Uint8Array[];
  /** App hash after the previous block. */
  appHash: string;
  lastResultsHash: string;
  validatorsHash: string;
  proposerAddress: string;
  lastCommit: Record<string, unknown>;
}

export interface RenderedBlock {
  hash: string;
  json: { block_id: Record<string, unknown>; block: Record<string, any> };
}

export function renderBlock(input: BlockHeaderInput): RenderedBlock {
  const emptyHash = upperHex(sha256(new Uint8Array()));
  const header = {
    version: { block: '11', app: '0' },
    chain_id: input.chainId,
    height: String(input.height),
    time: input.time,
    last_block_id: blockId(input.lastBlockHash),
    last_commit_hash: upperHex(sha256(JSON.stringify(input.lastCommit))),
    data_hash: upperHex(merkleRoot(input.txs.map((tx) => sha256(tx)))),
    validators_hash: input.validatorsHash,
    next_validators_hash: input.validatorsHash,
    consensus_hash: emptyHash,
    app_hash: input.appHash,
    last_results_hash: input.lastResultsHash,
    evidence_hash: emptyHash,
    proposer_address: input.proposerAddress,
  };
  const hash = upperHex(merkleRoot(Object.values(header).map((v) => Buffer.from(JSON.stringify(v)))));
  return {
    hash,
    json: {
      block_id: blockId(hash),
      block: {
        header,
        data: { txs: input.txs.map((tx) => Buffer.from(tx).toString('base64')) },
        evidence: { evidence: [] },
        last_commit: input.lastCommit,
      },
    },
  };
}

function blockId(hash: string) {
  return { hash, parts: { total: hash === '' ? 0 : 1, hash: hash === '' ? '' : hash } };
}

/** The commit for `height` signed by the single sequencer (ed25519 over the canonical vote digest). */
export function renderCommit(
  height: number,
  hash: string,
  time: string,
  validator: { address: string; privateKey: Uint8Array },
): Record<string, unknown> {
  if (height === 0) return { height: '0', round: 0, block_id: blockId(''), signatures: [] };
  const vote = sha256(`${height}/${hash}/${time}`);
  return {
    height: String(height),
    round: 0,
    block_id: blockId(hash),
    signatures: [
      {
        block_id_flag: 2,
        validator_address: validator.address,
        timestamp: time,
        signature: signEd25519(vote, validator.privateKey).toString('base64'),
      },
    ],
  };
}

/** `last_results_hash`: Merkle root over the deterministic parts of each ExecTxResult. */
export function resultsHash(results: ExecTxResultJson[]): string {
  return upperHex(
    merkleRoot(results.map((r) => Buffer.from(JSON.stringify([r.code, r.data, r.gas_wanted, r.gas_used])))),
  );
}

export function renderBlockResults(input: {
  height: number;
  results: ExecTxResultJson[];
  finalizeBlockEvents: AbciEvent[];
  appHash: string;
}): Record<string, unknown> {
  return {
    height: String(input.height),
    txs_results: input.results.length === 0 ? null : input.results,
    finalize_block_events: eventsJson(input.finalizeBlockEvents),
    validator_updates: null,
    consensus_param_updates: { block: null, evidence: null, validator: null, version: null, abci: null },
    app_hash: Buffer.from(input.appHash, 'hex').toString('base64'),
  };
}

/**
 * Block time of a height: genesis + height × block time, with deterministic sub-second jitter so the
 * nanosecond field looks like a real node's. Go's RFC3339Nano trims trailing zeros.
 */
export function blockTime(
  genesisMs: number,
  blockTimeMs: number,
  height: number,
  seed: string,
): { iso: string; ms: number } {
  const ms = genesisMs + height * blockTimeMs;
  // Sub-millisecond jitter keeps the order of blocks and makes the nanosecond field look real.
  const jitterNs = sha256(`${seed}/time/${height}`).readUInt32BE(0) % 1_000_000;
  const fractionNs = (ms % 1000) * 1_000_000 + jitterNs;
  const nanos = String(fractionNs).padStart(9, '0').replace(/0+$/, '');
  const iso = `${new Date(ms).toISOString().slice(0, 19)}${nanos === '' ? '' : `.${nanos}`}Z`;
  return { iso, ms };
}
