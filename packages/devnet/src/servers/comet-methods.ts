import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { cached, type Lru } from 'weft/common/lru.js';
import type { ChainNode, CheckTxResult } from '../node.js';
import { abciQuery } from './comet-abci-query.js';
import { internalError } from './comet-errors.js';
import type { MethodParams } from './comet-params.js';
import type { Faults } from './faults.js';
import { base64ToUpperHex } from './gateway-json.js';
import { APP_VERSION, appName, COMET_VERSION, nodeId, P2P_CHANNELS_HEX } from './node-facts.js';
import { parseTxQuery, QuerySyntaxError, searchTxs } from './tx-query.js';

/** The CometBFT v0.38 RPC methods the devnet serves. Every method returns its `result` already serialised. */

const DEFAULT_PER_PAGE = 30;
const MAX_PER_PAGE = 100;
const BLOCKCHAIN_LIMIT = 20;
const COMMIT_TIMEOUT_MS = 10_000;

export interface CometContext {
  node: ChainNode;
  faults: Faults;
  /** Serialised results by `<kind>:<height>`. */
  cache: Lru<string, string>;
  /** `tcp://host:port` of the RPC server, for `/status`. */
  rpcAddress(): string;
}

export interface CometMethod {
  /** Argument names, in positional order (also the URI query names). */
  params: readonly string[];
  run(ctx: CometContext, params: MethodParams): Promise<string> | string;
}

type Json = Record<string, any>;

/** CometBFT's `getHeight`: absent = latest, then the future and pruned checks with its exact texts. */
function resolveHeight(ctx: CometContext, requested: number | undefined): number {
  const latest = ctx.node.latestHeight();
  if (requested === undefined) return latest;
  if (requested <= 0) throw internalError(`height must be greater than 0, but got ${requested}`);
  if (requested > latest) {
    throw internalError(
      `height ${requested} must be less than or equal to the current blockchain height ${latest}`,
    );
  }
  const base = ctx.faults.earliestHeight(ctx.node);
  if (requested < base) {
    throw internalError(`height ${requested} is not available, lowest height is ${base}`);
  }
  return requested;
}

function blockRecord(ctx: CometContext, height: number) {
  const record = ctx.node.getBlock(height);
  if (!record)
    throw internalError(
      `height ${height} is not available, lowest height is ${ctx.faults.earliestHeight(ctx.node)}`,
    );
  return record;
}

function perPageOf(perPage: number | undefined): number {
  if (perPage === undefined || perPage < 1) return DEFAULT_PER_PAGE;
  return Math.min(perPage, MAX_PER_PAGE);
}

function pageOf(page: number | undefined, perPage: number, total: number): number {
  if (page === undefined) return 1;
  const pages = Math.max(1, Math.trunc((total - 1) / perPage) + 1);
  if (page <= 0 || page > pages)
    throw internalError(`page should be within [1, ${pages}] range, given ${page}`);
  return page;
}

const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex').toUpperCase();

function validatorJson(node: ChainNode): Json {
  const validator = node.validator();
  return {
    address: validator.consensusAddress,
    pub_key: { type: 'tendermint/PubKeyEd25519', value: validator.pubKeyBase64 },
    voting_power: '1',
  };
}

function status(ctx: CometContext): string {
  const { node } = ctx;
  const latest = node.latestHeight();
  const latestBlock = latest > 0 ? node.getBlock(latest) : undefined;
  const earliestBlock = latest > 0 ? node.getBlock(ctx.faults.earliestHeight(node)) : undefined;
  const blockFacts = (record: typeof latestBlock) => ({
    hash: (record?.block.block_id.hash as string | undefined) ?? '',
    appHash: (record?.block.block.header.app_hash as string | undefined) ?? '',
    height: String(record?.height ?? 0),
    time: (record?.block.block.header.time as string | undefined) ?? '1970-01-01T00:00:00Z',
  });
  const head = blockFacts(latestBlock);
  const tail = blockFacts(earliestBlock);
  return JSON.stringify({
    node_info: {
      protocol_version: { p2p: '8', block: '11', app: '0' },
      id: nodeId(node),
      listen_addr: 'tcp://0.0.0.0:26656',
      network: node.info.chainId,
      version: COMET_VERSION,
      channels: P2P_CHANNELS_HEX,
      moniker: node.validator().moniker,
      other: { tx_index: 'on', rpc_address: ctx.rpcAddress() },
    },
    sync_info: {
      latest_block_hash: head.hash,
      latest_app_hash: head.appHash,
      latest_block_height: head.height,
      latest_block_time: head.time,
      earliest_block_hash: tail.hash,
      earliest_app_hash: tail.appHash,
      earliest_block_height: tail.height,
      earliest_block_time: tail.time,
      catching_up: false,
    },
    validator_info: validatorJson(node),
  });
}

function resultTx(height: number, tx: { hash: string; index: number; result: unknown; raw: string }): Json {
  return { hash: tx.hash, height: String(height), index: tx.index, tx_result: tx.result, tx: tx.raw };
}

function broadcastResult(result: CheckTxResult): string {
  return JSON.stringify({
    code: result.code,
    data: base64ToUpperHex(result.data),
    log: result.log,
    codespace: result.codespace,
    hash: result.hash,
  });
}

function checkTxJson(result: CheckTxResult): Json {
  return {
    code: result.code,
    data: result.data || null,
    log: result.log,
    info: '',
    gas_wanted: result.gasWanted,
    gas_used: result.gasUsed,
    events: [],
    codespace: result.codespace,
  };
}

const requireTx = (params: MethodParams) => params.bytes('tx') ?? new Uint8Array();

export const COMET_METHODS: Record<string, CometMethod> = {
  health: { params: [], run: () => '{}' },
  status: { params: [], run: status },
  abci_info: {
    params: [],
    run(ctx) {
      const latest = ctx.node.latestHeight();
      const record = latest > 0 ? ctx.node.getBlock(latest) : undefined;
      return JSON.stringify({
        response: {
          data: appName(ctx.node),
          version: APP_VERSION,
          last_block_height: String(latest),
          last_block_app_hash: record ? Buffer.from(record.appHash, 'hex').toString('base64') : '',
        },
      });
    },
  },
  abci_query: {
    params: ['path', 'data', 'height', 'prove'],
    run: (ctx, params) => abciQuery(ctx.node, params),
  },
  block: {
    params: ['height'],
    run(ctx, params) {
      const height = resolveHeight(ctx, params.int('height'));
      return cached(ctx.cache, `block:${height}`, () => JSON.stringify(blockRecord(ctx, height).block));
    },
  },
  block_results: {
    params: ['height'],
    run(ctx, params) {
      // CometBFT checks the block store's base first (pruned heights say so); a height inside the store
      // whose ABCI results are gone gets the state store's "no results" text.
      const missing = (h: number) => `could not find results for height #${h}`;
      const height = resolveHeight(ctx, params.int('height'));
      return cached(ctx.cache, `results:${height}`, () => {
        const record = ctx.node.getBlock(height);
        if (!record) throw internalError(missing(height));
        return JSON.stringify(record.blockResults);
      });
    },
  },
  commit: {
    params: ['height'],
    run(ctx, params) {
      const height = resolveHeight(ctx, params.int('height'));
      const record = blockRecord(ctx, height);
      const next = ctx.node.getBlock(height + 1);
      // A later block carries the canonical commit; for the head only the (unsigned here) seen commit exists.
      const commit = next
        ? next.block.block.last_commit
        : { height: String(height), round: 0, block_id: record.block.block_id, signatures: [] };
      return JSON.stringify({
        signed_header: { header: record.block.block.header, commit },
        canonical: next !== undefined,
      });
    },
  },
  blockchain: {
    params: ['minHeight', 'maxHeight'],
    run(ctx, params) {
      let min = params.int('minHeight') ?? 0;
      let max = params.int('maxHeight') ?? 0;
      const latest = ctx.node.latestHeight();
      if (min < 0 || max < 0) throw internalError('heights must be non-negative');
      if (min === 0) min = 1;
      if (max === 0) max = latest;
      max = Math.min(latest, max);
      min = Math.max(ctx.faults.earliestHeight(ctx.node), min, max - BLOCKCHAIN_LIMIT + 1);
      if (min > max) throw internalError(`min height ${min} can't be greater than max height ${max}`);
      const metas: Json[] = [];
      for (let height = max; height >= min; height -= 1) {
        const record = ctx.node.getBlock(height);
        if (!record) continue;
        const txBytes = record.txs.reduce((sum, tx) => sum + Buffer.byteLength(tx.raw, 'base64'), 0);
        metas.push({
          block_id: record.block.block_id,
          block_size: String(txBytes + 512),
          header: record.block.block.header,
          num_txs: String(record.txs.length),
        });
      }
      return JSON.stringify({ last_height: String(latest), block_metas: metas });
    },
  },
  validators: {
    params: ['height', 'page', 'per_page'],
    run(ctx, params) {
      const height = resolveHeight(ctx, params.int('height'));
      const all = [{ ...validatorJson(ctx.node), proposer_priority: '0' }];
      const perPage = perPageOf(params.int('per_page'));
      const page = pageOf(params.int('page'), perPage, all.length);
      const validators = all.slice((page - 1) * perPage, page * perPage);
      return JSON.stringify({
        block_height: String(height),
        validators,
        count: String(validators.length),
        total: String(all.length),
      });
    },
  },
  tx: {
    params: ['hash', 'prove'],
    run(ctx, params) {
      const hash = Buffer.from(params.bytes('hash') ?? [])
        .toString('hex')
        .toUpperCase();
      const found = ctx.node.findTx(hash);
      const record =
        found && found.height >= ctx.faults.earliestHeight(ctx.node)
          ? ctx.node.getBlock(found.height)
          : undefined;
      const tx = record?.txs[found!.index];
      if (!tx) throw internalError(`tx (${hash}) not found`);
      return JSON.stringify(resultTx(record!.height, tx));
    },
  },
  tx_search: {
    params: ['query', 'prove', 'page', 'per_page', 'order_by'],
    run(ctx, params) {
      const orderBy = params.string('order_by') ?? '';
      if (orderBy !== '' && orderBy !== 'asc' && orderBy !== 'desc') {
        throw internalError('expected order_by to be either `asc` or `desc` or empty');
      }
      let conditions: ReturnType<typeof parseTxQuery>;
      try {
        conditions = parseTxQuery(params.string('query') ?? '');
      } catch (err) {
        if (err instanceof QuerySyntaxError) throw internalError(err.message);
        throw err;
      }
      const range = { earliest: ctx.faults.earliestHeight(ctx.node), latest: ctx.node.latestHeight() };
      const matches = searchTxs(ctx.node, range, conditions, orderBy === 'desc' ? 'desc' : 'asc');
      const perPage = perPageOf(params.int('per_page'));
      const page = pageOf(params.int('page'), perPage, matches.length);
      const txs = matches.slice((page - 1) * perPage, page * perPage).map((m) => resultTx(m.height, m.tx));
      return JSON.stringify({ txs, total_count: String(matches.length) });
    },
  },
  broadcast_tx_sync: {
    params: ['tx'],
    run: async (ctx, params) => broadcastResult(await ctx.node.broadcastTx(requireTx(params))),
  },
  broadcast_tx_async: {
    params: ['tx'],
    run(ctx, params) {
      const tx = requireTx(params);
      // The answer does not wait for CheckTx; a rejected tx is only dropped, as in CometBFT.
      ctx.node.broadcastTx(tx).catch(() => undefined);
      return JSON.stringify({ code: 0, data: '', log: '', codespace: '', hash: sha256Hex(tx) });
    },
  },
  broadcast_tx_commit: {
    params: ['tx'],
    async run(ctx, params) {
      const check = await ctx.node.broadcastTx(requireTx(params));
      const answer = (txResult: unknown, height: number) =>
        JSON.stringify({
          check_tx: checkTxJson(check),
          tx_result: txResult,
          hash: check.hash,
          height: String(height),
        });
      if (check.code !== 0)
        return answer(
          {
            code: 0,
            data: null,
            log: '',
            info: '',
            gas_wanted: '0',
            gas_used: '0',
            events: [],
            codespace: '',
          },
          0,
        );
      const deadline = Date.now() + COMMIT_TIMEOUT_MS;
      while (Date.now() < deadline) {
        const found = ctx.node.findTx(check.hash);
        const tx = found && ctx.node.getBlock(found.height)?.txs[found.index];
        if (tx) return answer(tx.result, found.height);
        await sleep(50);
      }
      throw internalError('timed out waiting for tx to be included in a block');
    },
  },
};
