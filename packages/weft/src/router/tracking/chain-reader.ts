import { createHash } from 'node:crypto';
import type { Hex } from 'viem';
import { type CometBlock, type CometClient, createCometClient } from '../../chain/comet-client.js';
import { createJsonRpcClient, type JsonRpcClient } from '../../chain/json-rpc-client.js';
import { createRestClient, type RestClient } from '../../chain/rest-client.js';
import type { AbciEvent } from '../../protocol/events.js';
import type { Lookup } from './catch-up.js';
import { eventsOfCosmosTx, eventsOfEvmLogs, keyOfEvent, type TrackEvent } from './chain-events.js';
import type { ChainTx, TrackedChain } from './types.js';

/**
 * What the tracker reads of one chain, through the node clients the indexer uses: the head, the transfer
 * events of a block (CometBFT `/block` + `/block_results`, and on EVM chains the block's receipts), one
 * tx by hash (Cosmos REST `GetTx`, or `eth_getTransactionReceipt`), and the txs a catch-up look-up names
 * (`/tx_search`, or `eth_getLogs` scanned back in spans of `LOG_SPAN` blocks).
 */

export interface TxEvents {
  tx: ChainTx;
  events: TrackEvent[];
}

export interface BlockEvents {
  height: number;
  /** The block's time (RFC 3339) where it came with the block (CometBFT headers; EVM blocks with events). */
  time?: string;
  /** Every tx hash of the block, normalised (lowercase, no 0x): source txs awaited are found here. */
  hashes: string[];
  /** The txs that carry transfer events. */
  txs: TxEvents[];
}

export interface SourceTx {
  tx: ChainTx;
  code: number;
  log: string;
  events: TrackEvent[];
  /** What its first transfer msg moves (read from the tx body: a failed tx emits no events). */
  asset?: { denom: string; amount: string };
}

/** The coin of the first transfer msg (`MsgTransfer.token`, an OPinit deposit's or withdrawal's `amount`). */
function assetOfMessages(messages: unknown): SourceTx['asset'] {
  if (!Array.isArray(messages)) return undefined;
  for (const msg of messages as Array<Record<string, any>>) {
    const coin = msg?.token ?? msg?.amount;
    if (typeof coin?.denom === 'string' && typeof coin?.amount === 'string')
      return { denom: coin.denom, amount: coin.amount };
  }
  return undefined;
}

/**
 * The EVM logs of a Cosmos tx on a minievm chain (a `MsgCall`, as wallets send an OFT there): minievm
 * emits each as a `log` attribute (`types.Log` JSON) of an `evm` event.
 */
function evmLogsOfCosmosTx(events: readonly AbciEvent[]): Array<{ topics: Hex[]; data: Hex }> {
  const logs: Array<{ topics: Hex[]; data: Hex }> = [];
  for (const event of events) {
    if (event.type !== 'evm') continue;
    for (const attribute of event.attributes ?? []) {
      if (attribute.key !== 'log' || !attribute.value) continue;
      try {
        const log = JSON.parse(attribute.value) as { topics?: Hex[]; data?: Hex };
        logs.push({ topics: log.topics ?? [], data: log.data ?? '0x' });
      } catch {
        // Not a log's JSON: no transfer event in it.
      }
    }
  }
  return logs;
}

export interface ChainReader {
  readonly chain: TrackedChain;
  head(): Promise<number>;
  block(height: number): Promise<BlockEvents>;
  /** The tx, or undefined while the chain has none of that hash. */
  sourceTx(hash: string): Promise<SourceTx | undefined>;
  /** The txs with an event answering `lookup.key`, found without reading the chain block by block. */
  search(lookup: Lookup): Promise<TxEvents[]>;
  close(): Promise<void>;
}

export const normalizeHash = (hash: string) => hash.replace(/^0x/i, '').toLowerCase();

/** Blocks per `eth_getLogs` call of a look-up (nodes cap the range; minievm's default is far above). */
const LOG_SPAN = 2_000;
/** Chains' clocks may disagree: a scan back goes this far before the hop's send. */
const CLOCK_SLACK_S = 120;
/** Pages of `/tx_search` read per query: a look-up names one packet or sequence, so a few txs at most. */
const MAX_PAGES = 5;

const isoOfSeconds = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

/**
 * A Cosmos block's transfer events from CometBFT's `/block` and `/block_results`: every tx's hash (SHA-256
 * of its bytes, lowercase), and the successful txs that carry transfer events (hash uppercase, as REST
 * names txs).
 */
export function cosmosBlockOf(
  chainId: string,
  height: number,
  block: Pick<CometBlock, 'block'>,
  results: Record<string, any>,
): BlockEvents {
  const raw = block.block.data.txs ?? [];
  const hashes = raw.map((tx) => createHash('sha256').update(Buffer.from(tx, 'base64')).digest('hex'));
  const time = String(block.block.header.time);
  const txs: TxEvents[] = [];
  for (const [i, result] of ((results.txs_results ?? []) as Array<Record<string, any>>).entries()) {
    if (Number(result.code ?? 0) !== 0) continue;
    const events = eventsOfCosmosTx((result.events ?? []) as AbciEvent[]);
    if (events.length === 0) continue;
    txs.push({ tx: { chainId, txHash: hashes[i]!.toUpperCase(), height, time }, events });
  }
  return { height, time, hashes, txs };
}

/**
 * A source tx from Cosmos REST `GetTx`'s `tx_response`: where and when it landed, its result, its transfer
 * events (with the EVM logs a minievm `MsgCall` emits) and what its first transfer msg moves.
 */
export function sourceOfTxResponse(chainId: string, response: Record<string, any>): SourceTx {
  const events = (response.events ?? []) as AbciEvent[];
  return {
    tx: {
      chainId,
      txHash: String(response.txhash),
      height: Number(response.height),
      time: String(response.timestamp),
    },
    code: Number(response.code ?? 0),
    log: String(response.raw_log ?? ''),
    events: [...eventsOfCosmosTx(events), ...eventsOfEvmLogs(evmLogsOfCosmosTx(events))],
    asset: assetOfMessages(response.tx?.body?.messages),
  };
}

export function createChainReader(chain: TrackedChain, options: { timeoutMs: number }): ChainReader {
  const comet: CometClient | undefined = chain.rpc ? createCometClient([chain.rpc], options) : undefined;
  const rest: RestClient | undefined = chain.rest ? createRestClient([chain.rest], options) : undefined;
  const evm: JsonRpcClient | undefined = chain.jsonRpc
    ? createJsonRpcClient([chain.jsonRpc], options)
    : undefined;
  const chainId = chain.chainId;

  const cosmosBlock = async (height: number): Promise<BlockEvents> => {
    const [block, results] = await Promise.all([comet!.block(height), comet!.blockResults(height)]);
    return cosmosBlockOf(chainId, height, block, results);
  };

  const evmBlock = async (height: number, time?: string): Promise<BlockEvents> => {
    const receipts = await evm!.blockReceipts(height);
    const hashes = receipts.map((r) => normalizeHash(String(r.transactionHash)));
    const txs: TxEvents[] = [];
    for (const receipt of receipts) {
      if (receipt.status !== '0x1') continue;
      const events = eventsOfEvmLogs(receipt.logs ?? []);
      if (events.length === 0) continue;
      time ??= isoOfSeconds(await evm!.blockTimestamp(height));
      txs.push({
        tx: { chainId, txHash: String(receipt.transactionHash).toLowerCase(), height, time },
        events,
      });
    }
    return { height, time, hashes, txs };
  };

  const answers = (events: readonly TrackEvent[], key: string) =>
    events.some((e) => keyOfEvent(e, chainId) === key);

  /** Heights of the txs `/tx_search` finds for the queries whose events answer the key. */
  const searchHeights = async (lookup: Lookup, heights: Set<number>) => {
    for (const query of lookup.queries ?? []) {
      for (let page = 1; page <= MAX_PAGES; page++) {
        const { txs, totalCount } = await comet!.txSearch(query, { page, perPage: 100 });
        for (const tx of txs) {
          if (Number(tx.txResult.code ?? 0) !== 0) continue;
          if (answers(eventsOfCosmosTx((tx.txResult.events ?? []) as AbciEvent[]), lookup.key))
            heights.add(tx.height);
        }
        if (txs.length === 0 || page * 100 >= totalCount) break;
      }
    }
  };

  /** Scans logs back from the head, a span at a time, until found or past the hop's send. */
  const scanLogs = async (lookup: Lookup, heights: Set<number>) => {
    const since = Date.parse(lookup.since) / 1000 - CLOCK_SLACK_S;
    for (let to = await evm!.blockNumber(); to >= 1; ) {
      const from = Math.max(1, to - LOG_SPAN + 1);
      for (const log of await evm!.logs({ fromBlock: from, toBlock: to, topics: [lookup.topic!] }))
        if (answers(eventsOfEvmLogs([log as { topics: `0x${string}`[]; data: `0x${string}` }]), lookup.key))
          heights.add(Number(log.blockNumber));
      if (heights.size > 0 || from === 1 || !(since > 0)) return;
      if ((await evm!.blockTimestamp(from)) < since) return;
      to = from - 1;
    }
  };

  const reader: ChainReader = {
    chain,
    async head() {
      if (comet) return (await comet.status()).latestHeight;
      return evm!.blockNumber();
    },
    async block(height) {
      if (!comet) return evmBlock(height);
      const cosmos = await cosmosBlock(height);
      if (!evm) return cosmos;
      const eth = await evmBlock(height, cosmos.txs[0]?.tx.time);
      return { ...cosmos, hashes: [...cosmos.hashes, ...eth.hashes], txs: [...cosmos.txs, ...eth.txs] };
    },
    async sourceTx(hash) {
      const bare = normalizeHash(hash);
      if (rest && !hash.startsWith('0x')) {
        const response = await rest.txResponse(bare.toUpperCase());
        if (response) return sourceOfTxResponse(chainId, response);
      }
      if (evm && bare.length === 64) {
        const receipt = await evm.transactionReceipt(`0x${bare}`);
        if (receipt) {
          const height = Number(receipt.blockNumber);
          const success = receipt.status === '0x1';
          return {
            tx: {
              chainId,
              txHash: `0x${bare}`,
              height,
              time: isoOfSeconds(await evm.blockTimestamp(height)),
            },
            code: success ? 0 : 1,
            log: success ? '' : 'execution reverted',
            events: success ? eventsOfEvmLogs(receipt.logs ?? []) : [],
          };
        }
      }
      return undefined;
    },
    async search(lookup) {
      const heights = new Set<number>();
      if (lookup.queries && comet) await searchHeights(lookup, heights);
      if (lookup.topic && evm) await scanLogs(lookup, heights);
      const found: TxEvents[] = [];
      for (const height of [...heights].sort((a, b) => a - b))
        for (const tx of (await reader.block(height)).txs) if (answers(tx.events, lookup.key)) found.push(tx);
      return found;
    },
    async close() {
      await Promise.all([comet?.endpoints.close(), rest?.endpoints.close(), evm?.endpoints.close()]);
    },
  };
  return reader;
}
