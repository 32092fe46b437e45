import { createCometClient } from 'weft/chain/comet-client.js';
import { createJsonRpcClient } from 'weft/chain/json-rpc-client.js';
import { createRestClient } from 'weft/chain/rest-client.js';
import { encodeRecord } from 'weft/store/record-codec.js';
import { acrossHeights, perBlock } from './ingest-cpu.js';

/**
 * The floor of the indexer's CPU per block: the work any indexer that keeps this store's records must
 * do for a height, measured in this process with the indexer's own node clients. Per height: fetch and
 * JSON-parse the node documents the indexer reads (`/block`, `/block_results`, the REST txs, and on EVM
 * the receipts and, with the extensions, the call traces), then compress one JSON text per tx and per
 * receipt as the store does (`encodeRecord`). No decoding, no rows, no writes, no metrics.
 *
 * `cpu_ms_per_block` is this process's user + system CPU over the pass (garbage collection included).
 * `compress_ms_per_block` is the part of it `JSON.stringify` + `encodeRecord` take: every 10th height's
 * records are kept and compressed again after the pass, alone, CPU-timed, and scaled to all heights.
 */
export async function floorPass(
  chain: { rpc: string; rest: string; jsonRpc?: string },
  blocks: number,
  concurrency: number,
  traces: boolean,
) {
  const timing = { timeoutMs: 60_000 };
  const comet = createCometClient([chain.rpc], timing);
  const rest = createRestClient([chain.rest], timing);
  const jsonRpc = chain.jsonRpc ? createJsonRpcClient([chain.jsonRpc], timing) : undefined;
  let recordBytes = 0;
  const sample: unknown[] = [];
  let sampledHeights = 0;
  const { seconds, cpuMs } = await acrossHeights(blocks, concurrency, async (h) => {
    const [, , txs, receipts] = await Promise.all([
      comet.block(h),
      comet.blockResults(h),
      rest.txsOfBlock(h),
      jsonRpc?.blockReceipts(h),
      jsonRpc && traces && h > 1 ? jsonRpc.traceBlock(h) : undefined,
    ]);
    const records = [...txs, ...(receipts ?? [])];
    for (const record of records) recordBytes += encodeRecord(JSON.stringify(record)).length;
    if (h % 10 === 0) {
      sample.push(...records);
      sampledHeights++;
    }
  });
  const compressCpu = process.cpuUsage();
  for (const record of sample) encodeRecord(JSON.stringify(record));
  const compressUsed = process.cpuUsage(compressCpu);
  await Promise.all([comet, rest, ...(jsonRpc ? [jsonRpc] : [])].map((c) => c.endpoints.close()));
  return {
    blocks_per_s: Math.round((blocks / seconds) * 10) / 10,
    cpu_ms_per_block: perBlock(cpuMs, blocks),
    compress_ms_per_block: perBlock(
      ((compressUsed.user + compressUsed.system) / 1000) * (blocks / Math.max(sampledHeights, 1)),
      blocks,
    ),
    record_bytes_per_block: Math.round(recordBytes / blocks),
  };
}
