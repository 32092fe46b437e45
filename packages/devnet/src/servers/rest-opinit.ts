import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ChildBridgeInfo, childState } from '../opinit/child-state.js';
import { type BridgeConfig, type BridgeRecord, hostState, type OutputRecord } from '../opinit/host-state.js';
import type { StateReader } from '../state/store.js';
import { invalidArgument, notFound, notImplemented } from './gateway-errors.js';
import { paginate, parsePageRequest } from './pagination.js';
import { type RestContext, sendJson } from './rest-context.js';

/**
 * OPinit's queries: `/opinit/ophost/v1/*` on a chain with the host module (the L1) and
 * `/opinit/opchild/v1/*` on a chain with the child module (a rollup). A chain without the module
 * answers as for a route no service registered.
 */

type Params = Record<string, string>;
type Query = Record<string, string | undefined>;

const duration = (ms: number) => `${ms / 1000}s`;
/** An output's key under its bridge's prefix (the SDK strips the prefix from `next_key`): uint64 big-endian. */
const outputIndexKey = (index: bigint) => {
  const key = Buffer.alloc(8);
  key.writeBigUInt64BE(index);
  return key;
};
const page = (total: number) => ({ next_key: null, total: String(total) });

const configJson = (config: BridgeConfig) => ({
  challenger: config.challenger,
  proposer: config.proposer,
  batch_info: { submitter: config.batchInfo.submitter, chain_type: config.batchInfo.chainType },
  submission_interval: duration(config.submissionIntervalMs),
  finalization_period: duration(config.finalizationPeriodMs),
  submission_start_height: String(config.submissionStartHeight),
  oracle_enabled: config.oracleEnabled,
  metadata: config.metadata,
  bridge_disabled: false,
  bridge_disabled_at: '0001-01-01T00:00:00Z',
});

const bridgeJson = (bridge: BridgeRecord) => ({
  bridge_id: bridge.bridgeId,
  bridge_addr: bridge.bridgeAddr,
  bridge_config: configJson(bridge.config),
});

const outputJson = (output: OutputRecord) => ({
  output_root: output.outputRoot,
  l1_block_number: String(output.l1BlockNumber),
  l1_block_time: output.l1BlockTime,
  l2_block_number: String(output.l2BlockNumber),
});

const childBridgeJson = (info: ChildBridgeInfo) => ({
  bridge_id: info.bridgeId,
  bridge_addr: info.bridgeAddr,
  l1_chain_id: info.l1ChainId,
  l1_client_id: info.l1ClientId,
  bridge_config: configJson(info.config),
});

const uint = (text: string | undefined, name: string): bigint => {
  if (text === undefined || !/^\d+$/.test(text)) {
    throw invalidArgument(
      `type mismatch, parameter: ${name}, error: strconv.ParseUint: parsing ${JSON.stringify(text ?? '')}: invalid syntax`,
    );
  }
  return BigInt(text);
};

/** A `bytes` query parameter: base64 as grpc-gateway reads it, or 64 hex digits. */
const hashParam = (text: string | undefined): string => {
  const value = text ?? '';
  if (/^[0-9a-fA-F]{64}$/.test(value)) return value.toLowerCase();
  const bytes = Buffer.from(value, 'base64');
  if (bytes.length !== 32) throw invalidArgument('invalid withdrawal hash length');
  return bytes.toString('hex');
};

export function registerOpinitRoutes(app: FastifyInstance, ctx: RestContext): void {
  const { node } = ctx;
  type Handler = (state: StateReader, params: Params, query: Query, height: number) => unknown;

  const route = (path: string, has: (state: StateReader) => boolean, handler: Handler) =>
    app.get(path, async (request: FastifyRequest, reply: FastifyReply) => {
      const height = ctx.stateHeight(request, reply);
      const state = node.state(height);
      if (!has(state)) throw notImplemented();
      const body = handler(state, request.params as Params, request.query as Query, height);
      return sendJson(reply, JSON.stringify(body));
    });
  const host = (path: string, handler: Handler) => route(`/opinit/ophost/v1${path}`, hostState.has, handler);
  const child = (path: string, handler: Handler) =>
    route(`/opinit/opchild/v1${path}`, childState.has, handler);

  const bridgeOf = (state: StateReader, params: Params) => {
    const id = uint(params.bridge_id, 'bridge_id');
    const bridge = hostState.bridge(state, id);
    if (!bridge) throw notFound(`collections: not found: key '${id}' of type uint64`);
    return { id, bridge };
  };

  host('/params', () => ({ params: { registration_fee: [] } }));
  host('/bridges', (state) => {
    const bridges = hostState.bridges(state);
    return { bridges: bridges.map(bridgeJson), pagination: page(bridges.length) };
  });
  host('/bridges/:bridge_id', (state, params) => bridgeJson(bridgeOf(state, params).bridge));
  host('/bridges/:bridge_id/next_l1_sequence', (state, params) => ({
    next_l1_sequence: String(hostState.nextL1Sequence(state, bridgeOf(state, params).id)),
  }));
  host('/bridges/:bridge_id/token_pairs', (state, params) => {
    const pairs = hostState.tokenPairs(state, bridgeOf(state, params).id);
    return {
      token_pairs: pairs.map((p) => ({ l1_denom: p.l1Denom, l2_denom: p.l2Denom })),
      pagination: page(pairs.length),
    };
  });
  for (const side of ['l1', 'l2'] as const) {
    host(`/bridges/:bridge_id/token_pairs/by_${side}_denom`, (state, params, query) => {
      const denom = query[`${side}_denom`] ?? '';
      const pair = hostState
        .tokenPairs(state, bridgeOf(state, params).id)
        .find((p) => (side === 'l1' ? p.l1Denom : p.l2Denom) === denom);
      if (!pair) throw notFound(`collections: not found: key '${denom}' of type string`);
      return { token_pair: { l1_denom: pair.l1Denom, l2_denom: pair.l2Denom } };
    });
  }
  // `OutputProposals` pages the `(bridge id, output index)` collection under the bridge's prefix: an
  // unknown bridge has none. InterwovenKit reads the latest output in reverse with a limit of 1.
  host('/bridges/:bridge_id/outputs', (state, params, query) => {
    const id = uint(params.bridge_id, 'bridge_id');
    const outputs = hostState.outputs(state, id).sort((a, b) => (a.index < b.index ? -1 : 1));
    const { items, pagination } = paginate(
      outputs,
      ({ index }) => outputIndexKey(index),
      parsePageRequest(query),
    );
    return {
      output_proposals: items.map(({ index, output }) => ({
        bridge_id: String(id),
        output_index: String(index),
        output_proposal: outputJson(output),
      })),
      pagination,
    };
  });
  host('/bridges/:bridge_id/outputs/:output_index', (state, params) => {
    const { id } = bridgeOf(state, params);
    const index = uint(params.output_index, 'output_index');
    const output = hostState.output(state, id, index);
    if (!output) throw notFound(`collections: not found: key '(${id}, ${index})' of type (uint64, uint64)`);
    return { bridge_id: String(id), output_index: String(index), output_proposal: outputJson(output) };
  });
  host('/bridges/:bridge_id/last_finalized_output', (state, params, _query, height) => {
    const { id, bridge } = bridgeOf(state, params);
    const time = Date.parse(String(node.getBlock(height)?.block.block.header.time ?? ''));
    const nowSeconds = Math.floor((Number.isNaN(time) ? Date.now() : time) / 1000);
    const finalized = hostState
      .outputs(state, id)
      .filter(
        ({ output }) =>
          Math.floor((output.l1BlockTimeMs + bridge.config.finalizationPeriodMs) / 1000) <= nowSeconds,
      )
      .pop();
    if (!finalized) throw notFound('failed to get last finalized output: not found');
    return { output_index: String(finalized.index), output_proposal: outputJson(finalized.output) };
  });
  host('/bridges/:bridge_id/withdrawals/claimed/by_hash', (state, params, query) => ({
    claimed: hostState.claimed(state, bridgeOf(state, params).id, hashParam(query.withdrawal_hash)),
  }));
  // Bridges never migrate on the devnet: no L1 denom has migration info.
  host('/bridges/:bridge_id/migration_info/by_l1_denom', (_state, params) => {
    uint(params.bridge_id, 'bridge_id');
    throw notFound('migration info not found');
  });
  host('/bridges/:bridge_id/batch_infos', (state, params) => {
    const { bridge } = bridgeOf(state, params);
    const batchInfo = {
      submitter: bridge.config.batchInfo.submitter,
      chain_type: bridge.config.batchInfo.chainType,
    };
    return {
      batch_infos: [
        {
          batch_info: batchInfo,
          output: {
            output_root: null,
            l1_block_number: '0',
            l1_block_time: '0001-01-01T00:00:00Z',
            l2_block_number: '0',
          },
        },
      ],
      pagination: page(1),
    };
  });

  const childParams = (state: StateReader) => childState.params(state)!;
  child('/params', (state) => {
    const params = childParams(state);
    return {
      params: {
        max_validators: 100,
        historical_entries: 10000,
        min_gas_prices: [{ denom: node.info.denom, amount: String(node.info.minGasPrice) }],
        bridge_executors: params.bridgeExecutors,
        admin: params.admin,
        fee_whitelist: [],
        hook_max_gas: params.hookMaxGas,
      },
    };
  });
  child('/bridge_info', (state) => {
    const info = childState.bridgeInfo(state);
    if (!info) throw notFound('bridge info does not exist');
    return { bridge_info: childBridgeJson(info) };
  });
  child('/next_l1_sequence', (state) => ({ next_l1_sequence: String(childState.nextL1Sequence(state)) }));
  child('/next_l2_sequence', (state) => ({ next_l2_sequence: String(childState.nextL2Sequence(state)) }));
  const baseDenom = (state: StateReader, denom: string) => {
    const base = childState.baseDenom(state, denom);
    if (base === undefined) throw notFound(`collections: not found: key '${denom}' of type string`);
    return { base_denom: base };
  };
  child('/base_denom', (state, _params, query) => baseDenom(state, query.denom ?? ''));
  // initia.js puts the denom in the path (`l2/<hash>` keeps its slash).
  child('/base_denom/*', (state, params) => baseDenom(state, decodeURIComponent(params['*'] ?? '')));
}
