import { createHash } from 'node:crypto';
import { join } from 'node:path';
import {
  type Exchange,
  RECORDING_FORMAT,
  type RecordingManifest,
  writeHeight,
  writeLookups,
  writeManifest,
} from 'weft/record/format.js';
import type { CorpusTx, TxResponse } from './corpus.js';
import { deriveReceipts, isEthereumSigned } from './evm-receipts.js';
import { reencodeTx } from './raw-tx.js';

/**
 * Replayable recordings (packages/weft/src/record/format.ts) built around the corpus' tx-level data: one height per real
 * height that holds corpus txs, with the CometBFT block and block results, the REST txs of the block and
 * the txs by hash, and on EVM rollups the receipts. What each part is made of: test/fixtures/real/README.md.
 */

const JSON_TYPE = 'application/json';
/** How the indexer's REST client pages the txs of a block (packages/weft/src/chain/rest-client.ts, default page). */
const PAGE_LIMIT = 100;

function groupBy<T, K>(items: T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest();

/** CometBFT's RFC 6962 merkle root (leaf 0x00, inner 0x01) of the txs' hashes: the header's data_hash. */
export function dataHash(txs: Uint8Array[]): string {
  const root = (items: Buffer[]): Buffer => {
    if (items.length === 0) return sha256(new Uint8Array(0));
    if (items.length === 1) return sha256(Buffer.concat([Buffer.from([0]), items[0]!]));
    const split = 2 ** Math.ceil(Math.log2(items.length) - 1);
    return sha256(Buffer.concat([Buffer.from([1]), root(items.slice(0, split)), root(items.slice(split))]));
  };
  return root(txs.map((tx) => sha256(tx)))
    .toString('hex')
    .toUpperCase();
}

const rpcAnswer = (result: unknown) => JSON.stringify({ jsonrpc: '2.0', id: -1, result });

const exchange = (surface: Exchange['surface'], path: string, response: string, body?: string): Exchange => ({
  surface,
  method: body === undefined ? 'GET' : 'POST',
  path,
  ...(body === undefined ? {} : { body }),
  status: 200,
  contentType: JSON_TYPE,
  response,
});

/** The CometBFT block; hashes other than data_hash are unknown and left empty, the proposer too. */
function cometBlock(chainId: string, height: number, time: string, raws: Uint8Array[]) {
  const emptyId = { hash: '', parts: { total: 0, hash: '' } };
  return {
    block_id: emptyId,
    block: {
      header: {
        version: { block: '11', app: '0' },
        chain_id: chainId,
        height: String(height),
        time,
        last_block_id: emptyId,
        last_commit_hash: '',
        data_hash: dataHash(raws),
        validators_hash: '',
        next_validators_hash: '',
        consensus_hash: '',
        app_hash: '',
        last_results_hash: '',
        evidence_hash: '',
        proposer_address: '',
      },
      data: { txs: raws.map((raw) => Buffer.from(raw).toString('base64')) },
      evidence: { evidence: [] },
      last_commit: { height: String(height - 1), round: 0, block_id: emptyId, signatures: [] },
    },
  };
}

/** ExecTxResult of a tx as CometBFT renders it, from the tx_response (data hex → base64). */
function txResult(response: TxResponse) {
  return {
    code: response.code,
    data: response.data ? Buffer.from(response.data, 'hex').toString('base64') : null,
    log: response.raw_log,
    info: response.info,
    gas_wanted: response.gas_wanted,
    gas_used: response.gas_used,
    events: response.events,
    codespace: response.codespace,
  };
}

/** The gateway's `Tx` (no `@type`: GetBlockWithTxs lists Tx messages, not Anys). */
function restTx(response: TxResponse) {
  const { '@type': _, ...tx } = response.tx;
  return tx;
}

export interface DerivedRecording {
  chainId: string;
  dir: string;
  manifest: RecordingManifest;
}

/** Writes one recording per chain of the corpus under `root/<chain id>`. */
export function deriveRecordings(corpus: CorpusTx[], root: string): DerivedRecording[] {
  const byChain = groupBy(corpus, (tx) => tx.chainId);
  const out: DerivedRecording[] = [];
  for (const [chainId, txs] of byChain) {
    const dir = join(root, chainId);
    const vm = txs[0]!.vm;
    const heights = [...groupBy(txs, (tx) => Number(tx.response.height))].sort(([a], [b]) => a - b);
    const synthetic: number[] = [];
    for (const [height, group] of heights) {
      // Several corpus txs of one real height: their order in the block is unknown; txhash order is used.
      const responses = group.map((tx) => tx.response).sort((a, b) => (a.txhash < b.txhash ? -1 : 1));
      const encoded = responses.map((r) => reencodeTx(r.tx as never, r.txhash));
      if (encoded.some((e) => !e.matches)) synthetic.push(height);
      const raws = encoded.map((e) => e.raw);
      const block = cometBlock(chainId, height, responses[0]!.timestamp, raws);
      const exchanges: Exchange[] = [
        exchange('rpc', `/block?height=${height}`, rpcAnswer(block)),
        exchange(
          'rpc',
          `/block_results?height=${height}`,
          rpcAnswer({
            height: String(height),
            txs_results: responses.map(txResult),
            finalize_block_events: [],
            validator_updates: [],
            consensus_param_updates: null,
            app_hash: '',
          }),
        ),
        exchange(
          'rest',
          `/cosmos/tx/v1beta1/txs/block/${height}?pagination.limit=${PAGE_LIMIT}`,
          JSON.stringify({
            txs: responses.map(restTx),
            block_id: block.block_id,
            block: block.block,
            pagination: { next_key: null, total: String(responses.length) },
          }),
        ),
        ...responses.map((r) =>
          exchange(
            'rest',
            `/cosmos/tx/v1beta1/txs/${r.txhash}`,
            JSON.stringify({ tx: r.tx, tx_response: r }),
          ),
        ),
      ];
      if (vm === 'evm' && !responses.some(isEthereumSigned)) {
        const params = [`0x${height.toString(16)}`];
        exchanges.push(
          exchange(
            'json_rpc',
            '',
            JSON.stringify({ jsonrpc: '2.0', id: 1, result: deriveReceipts(height, responses) }),
            JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBlockReceipts', params }),
          ),
        );
      }
      writeHeight(dir, { height, exchanges });
    }
    writeLookups(dir, []);
    const list = heights.map(([h]) => h);
    const now = new Date(0).toISOString();
    const manifest: RecordingManifest = {
      format: RECORDING_FORMAT,
      chain_id: chainId,
      vm_type: vm,
      nodes: { rpc: [], rest: [], json_rpc: [] },
      from: list[0]!,
      to: list.at(-1)!,
      heights: list,
      derived: list,
      synthetic,
      weft_version: 'derived',
      weft_commit: '',
      recorded_at: now,
      updated_at: now,
    };
    writeManifest(dir, manifest);
    out.push({ chainId, dir, manifest });
  }
  return out;
}
