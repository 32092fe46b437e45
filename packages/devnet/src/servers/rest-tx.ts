import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { cached } from 'weft/common/lru.js';
import type { BlockRecord, CheckTxResult } from '../node.js';
import { decodeBase64 } from './comet-params.js';
import { invalidArgument, invalidHeight, invalidRequest, notFound, unknownError } from './gateway-errors.js';
import {
  base64ToUpperHex,
  gatewayBlock,
  gatewayBlockId,
  sdkBlock,
  sdkEvents,
  txResponseJson,
} from './gateway-json.js';
import {
  APP_VERSION,
  appName,
  COMET_VERSION,
  COSMOS_SDK_VERSION,
  nodeId,
  P2P_CHANNELS_HEX,
} from './node-facts.js';
import { DEFAULT_LIMIT } from './pagination.js';
import { type RestContext, sendJson } from './rest-context.js';
import { parseTxQuery, QuerySyntaxError, queryFromLegacyEvents, searchTxs } from './tx-query.js';

/** The tendermint and tx services of the gateway: blocks, node info, txs by block/hash/query, broadcast, simulate. */

type Query = Record<string, unknown>;

function pathInt(name: string, text: string): number {
  if (!/^-?\d+$/.test(text)) {
    throw invalidArgument(
      `type mismatch, parameter: ${name}, error: strconv.ParseInt: parsing ${JSON.stringify(text)}: invalid syntax`,
    );
  }
  return Number(text);
}

function queryUint(query: Query, name: string): number | undefined {
  const raw = query[name];
  const text = Array.isArray(raw) ? raw[0] : raw;
  if (text === undefined || text === '') return undefined;
  if (!/^\d+$/.test(String(text))) {
    throw invalidArgument(
      `type mismatch, parameter: ${name}, error: strconv.ParseUint: parsing ${JSON.stringify(text)}: invalid syntax`,
    );
  }
  return Number(text);
}

/** A committed block through CometBFT's client, with its texts for pruned heights (checked before any cache). */
function servedBlock(ctx: RestContext, height: number): () => BlockRecord {
  const base = ctx.faults.earliestHeight(ctx.node);
  const missing = () => unknownError(`height ${height} is not available, lowest height is ${base}`);
  if (height <= 0) throw unknownError(`height must be greater than 0, but got ${height}`);
  if (height < base) throw missing();
  return () => {
    const record = ctx.node.getBlock(height);
    if (!record) throw missing();
    return record;
  };
}

function tendermintBlock(ctx: RestContext, height: number): string {
  const load = servedBlock(ctx, height);
  return cached(ctx.cache, `tmblock:${height}`, () => {
    const { block_id, block } = load().block;
    return JSON.stringify({
      block_id: gatewayBlockId(block_id),
      block: gatewayBlock(block),
      sdk_block: sdkBlock(block, ctx.node.info.bech32Prefix),
    });
  });
}

function uint64Key(value: number): string {
  const key = Buffer.alloc(8);
  key.writeBigUInt64BE(BigInt(value));
  return key.toString('base64');
}

function broadcastResponse(result: CheckTxResult): string {
  return JSON.stringify({
    tx_response: {
      height: '0',
      txhash: result.hash,
      codespace: result.codespace,
      code: result.code,
      data: base64ToUpperHex(result.data),
      raw_log: result.log,
      logs: [],
      info: '',
      gas_wanted: '0',
      gas_used: '0',
      tx: null,
      timestamp: '',
      events: [],
    },
  });
}

const BROADCAST_MODES: Record<string, string> = {
  BROADCAST_MODE_UNSPECIFIED: 'unspecified',
  '0': 'unspecified',
  BROADCAST_MODE_BLOCK: 'unspecified',
  '1': 'unspecified',
  BROADCAST_MODE_SYNC: 'sync',
  '2': 'sync',
  BROADCAST_MODE_ASYNC: 'async',
  '3': 'async',
};

function txBytesOf(body: Record<string, unknown>, empty: string): Uint8Array {
  const text = body.tx_bytes;
  if (text === undefined || text === null || text === '') throw invalidArgument(empty);
  if (typeof text !== 'string') throw invalidArgument('tx_bytes: bytes must be a base64 string');
  try {
    return decodeBase64(text);
  } catch (err) {
    throw invalidArgument(`bad Base64-encoded tx_bytes: ${(err as Error).message}`);
  }
}

/** A `sdk.Dec` as its JSON renders it: 18 decimals (from the shortest decimal of `value`, not its binary). */
const legacyDec = (value: number) => {
  const text = String(value).includes('e') ? value.toFixed(18) : String(value);
  const [whole, fraction = ''] = text.split('.');
  return `${whole}.${fraction.padEnd(18, '0')}`;
};

export function registerTxRoutes(app: FastifyInstance, ctx: RestContext): void {
  const { node } = ctx;

  // initia's tx module (the L1 only): the gas prices its fee check accepts, one per fee denom. A
  // wallet (InterwovenKit) prices an L1 tx's fee from it; rollups publish theirs in the registry.
  if (node.info.role === 'l1') {
    const gasPrice = () => ({ denom: node.info.denom, amount: legacyDec(node.info.minGasPrice) });
    app.get('/initia/tx/v1/gas_prices', async (_request, reply) =>
      sendJson(reply, JSON.stringify({ gas_prices: [gasPrice()] })),
    );
    app.get('/initia/tx/v1/gas_prices/:denom', async (request, reply) => {
      const { denom } = request.params as { denom: string };
      if (denom !== node.info.denom) throw notFound(`${denom}: not found`);
      return sendJson(reply, JSON.stringify({ gas_price: gasPrice() }));
    });
  }

  app.get('/cosmos/base/tendermint/v1beta1/node_info', async (_request, reply) =>
    sendJson(
      reply,
      JSON.stringify({
        default_node_info: {
          protocol_version: { p2p: '8', block: '11', app: '0' },
          default_node_id: nodeId(node),
          listen_addr: 'tcp://0.0.0.0:26656',
          network: node.info.chainId,
          version: COMET_VERSION,
          channels: Buffer.from(P2P_CHANNELS_HEX, 'hex').toString('base64'),
          moniker: node.validator().moniker,
          other: { tx_index: 'on', rpc_address: 'tcp://0.0.0.0:26657' },
        },
        application_version: {
          name: appName(node),
          app_name: 'minitiad',
          version: APP_VERSION,
          git_commit: '',
          build_tags: 'netgo,ledger',
          go_version: 'go version go1.23.8 linux/amd64',
          build_deps: [],
          cosmos_sdk_version: COSMOS_SDK_VERSION,
        },
      }),
    ),
  );

  app.get('/cosmos/base/tendermint/v1beta1/syncing', async (_request, reply) =>
    sendJson(reply, '{"syncing":false}'),
  );

  app.get('/cosmos/base/tendermint/v1beta1/blocks/latest', async (_request, reply) =>
    sendJson(reply, tendermintBlock(ctx, node.latestHeight())),
  );

  app.get('/cosmos/base/tendermint/v1beta1/blocks/:height', async (request, reply) => {
    const height = pathInt('height', (request.params as { height: string }).height);
    if (height > node.latestHeight())
      throw invalidArgument('requested block height is bigger then the chain length');
    return sendJson(reply, tendermintBlock(ctx, height));
  });

  app.get('/cosmos/tx/v1beta1/txs/block/:height', async (request, reply) => {
    const height = pathInt('height', (request.params as { height: string }).height);
    const latest = node.latestHeight();
    if (height < 1 || height > latest) {
      throw invalidHeight(
        `requested height ${height} but height must not be less than 1 or greater than the current height ${latest}`,
      );
    }
    const load = servedBlock(ctx, height);
    const parts = cached(ctx.blockTxs, `${height}`, () => {
      const record = load();
      return {
        blockId: JSON.stringify(gatewayBlockId(record.block.block_id)),
        block: JSON.stringify(gatewayBlock(record.block.block)),
        txs: record.txs.map((tx) => JSON.stringify(tx.restTx)),
      };
    });
    const query = request.query as Query;
    const keyText = query['pagination.key'];
    let offset = queryUint(query, 'pagination.offset') ?? 0;
    if (typeof keyText === 'string' && keyText !== '') {
      if (offset > 0) throw invalidRequest('invalid request, either offset or key is expected, got both');
      const key = Buffer.from(keyText.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
      offset =
        key.length > 8 ? 0 : Number(Buffer.concat([Buffer.alloc(8 - key.length), key]).readBigUInt64BE(0));
    }
    const limit = queryUint(query, 'pagination.limit') || DEFAULT_LIMIT;
    const total = parts.txs.length;
    if (offset >= total && total !== 0) {
      throw invalidRequest(
        `out of range: cannot paginate ${total} txs with offset ${offset} and limit ${limit}`,
      );
    }
    let page: string[];
    let nextOffset: number | undefined;
    if (query['pagination.reverse'] === 'true') {
      // The SDK walks down from `offset` and never reaches index 0.
      page = [];
      for (let i = offset; i > 0 && page.length !== limit; i -= 1) page.push(parts.txs[i]!);
    } else {
      page = parts.txs.slice(offset, offset + limit);
      if (offset + page.length < total) nextOffset = offset + page.length;
    }
    const nextKey =
      nextOffset === undefined || ctx.options.nullNextKey ? 'null' : `"${uint64Key(nextOffset)}"`;
    return sendJson(
      reply,
      `{"txs":[${page.join(',')}],"block_id":${parts.blockId},"block":${parts.block},"pagination":{"next_key":${nextKey},"total":"${total}"}}`,
    );
  });

  app.get('/cosmos/tx/v1beta1/txs/:hash', async (request, reply) => {
    const { hash } = request.params as { hash: string };
    if (hash === '') throw invalidArgument('tx hash cannot be empty');
    const bad = hash.search(/[^0-9a-fA-F]/);
    if (bad !== -1)
      throw unknownError(
        `encoding/hex: invalid byte: U+00${hash.charCodeAt(bad).toString(16).toUpperCase()} '${hash[bad]}'`,
      );
    if (hash.length % 2 !== 0) throw unknownError('encoding/hex: odd length hex string');
    const found = node.findTx(hash.toUpperCase());
    const record =
      found && found.height >= ctx.faults.earliestHeight(node) ? node.getBlock(found.height) : undefined;
    const tx = record?.txs[found!.index];
    if (!record || !tx) throw notFound(`tx not found: ${hash}`);
    const response = txResponseJson(tx, record.height, record.block.block.header.time);
    return sendJson(reply, `{"tx":${JSON.stringify(tx.restTx)},"tx_response":${JSON.stringify(response)}}`);
  });

  app.get('/cosmos/tx/v1beta1/txs', async (request, reply) => {
    const query = request.query as Query;
    let text = typeof query.query === 'string' ? query.query : '';
    const events = query.events === undefined ? [] : ([] as unknown[]).concat(query.events).map(String);
    let conditions: ReturnType<typeof parseTxQuery>;
    try {
      if (text === '' && events.length > 0) text = queryFromLegacyEvents(events);
      if (text === '') throw invalidArgument('query cannot be empty');
      conditions = parseTxQuery(text);
    } catch (err) {
      if (err instanceof QuerySyntaxError) throw invalidArgument(err.message);
      throw err;
    }
    const orderBy = String(query.order_by ?? '');
    const order = orderBy === 'ORDER_BY_DESC' || orderBy === '2' ? 'desc' : 'asc';
    const limit = Math.min(
      queryUint(query, 'limit') || queryUint(query, 'pagination.limit') || DEFAULT_LIMIT,
      100,
    );
    const legacyOffset = queryUint(query, 'pagination.offset');
    const page = queryUint(query, 'page') || (legacyOffset ? Math.floor(legacyOffset / limit) + 1 : 1);
    const range = { earliest: ctx.faults.earliestHeight(node), latest: node.latestHeight() };
    const matches = searchTxs(node, range, conditions, order);
    const pages = Math.max(1, Math.ceil(matches.length / limit));
    if (page > pages) throw unknownError(`page should be within [1, ${pages}] range, given ${page}`);
    const slice = matches.slice((page - 1) * limit, page * limit);
    const txs = slice.map((m) => JSON.stringify(m.tx.restTx));
    const responses = slice.map((m) => {
      const time = node.getBlock(m.height)!.block.block.header.time;
      return JSON.stringify(txResponseJson(m.tx, m.height, time));
    });
    return sendJson(
      reply,
      `{"txs":[${txs.join(',')}],"tx_responses":[${responses.join(',')}],"pagination":null,"total":"${matches.length}"}`,
    );
  });

  app.post('/cosmos/tx/v1beta1/txs', async (request, reply) => {
    const body = ctx.jsonBody(request);
    const modeName = String(body.mode ?? 'BROADCAST_MODE_UNSPECIFIED');
    const mode = BROADCAST_MODES[modeName];
    if (!mode) throw invalidArgument(`invalid value for enum type: ${JSON.stringify(body.mode)}`);
    const txBytes = txBytesOf(body, 'invalid empty tx');
    if (mode === 'sync') return sendJson(reply, broadcastResponse(await node.broadcastTx(txBytes)));
    if (mode === 'async') {
      node.broadcastTx(txBytes).catch(() => undefined);
      const hash = createHash('sha256').update(txBytes).digest('hex').toUpperCase();
      return sendJson(
        reply,
        broadcastResponse({ code: 0, codespace: '', log: '', data: '', hash, gasWanted: '0', gasUsed: '0' }),
      );
    }
    throw unknownError(`unsupported return type ${mode}; supported types: sync, async`);
  });

  app.post('/cosmos/tx/v1beta1/simulate', async (request, reply) => {
    const txBytes = txBytesOf(ctx.jsonBody(request), 'empty txBytes is not allowed');
    let result: Awaited<ReturnType<typeof node.simulateTx>>;
    try {
      result = await node.simulateTx(txBytes);
    } catch (err) {
      throw unknownError(`${(err as Error).message}: tx parse error With gas wanted: '0' and gas used: '0' `);
    }
    if (result.error !== undefined) {
      throw unknownError(
        `${result.error} With gas wanted: '${result.gasWanted}' and gas used: '${result.gasUsed}' `,
      );
    }
    return sendJson(
      reply,
      JSON.stringify({
        gas_info: { gas_wanted: result.gasWanted.toString(), gas_used: result.gasUsed.toString() },
        result: { data: '', log: '', events: sdkEvents(result.events), msg_responses: [] },
      }),
    );
  });
}
