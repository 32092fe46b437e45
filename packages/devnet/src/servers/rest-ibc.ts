import type { FastifyInstance } from 'fastify';
import { toBech32 } from 'weft/chain/address.js';
import { revisionNumber } from 'weft/protocol/ibc-timeout.js';
import { escrowAddressBytes, fullDenomPath, parseDenomTrace, traceHash } from 'weft/protocol/ics20.js';
import { type ChannelEnd, getChannel, ibcKeys, listChannels } from '../ibc/core/store.js';
import { denomTraceOf, listDenomTraces, transferKeys } from '../ibc/transfer/denom.js';
import { notFound } from './gateway-errors.js';
import { paginate, parsePageRequest } from './pagination.js';
import { type RestContext, sendJson } from './rest-context.js';

/** ibc-go's channel and transfer queries, read from the chain's IBC state at the requested height. */

type Query = Record<string, unknown>;

function channelJson(c: ChannelEnd) {
  return {
    state: c.state,
    ordering: c.ordering,
    counterparty: { port_id: c.counterparty.portId, channel_id: c.counterparty.channelId },
    connection_hops: c.connectionHops,
    version: c.version,
    upgrade_sequence: '0',
  };
}

const traceJson = (t: { path: string; baseDenom: string }) => ({ path: t.path, base_denom: t.baseDenom });

function connectionJson(c: ChannelEnd) {
  return {
    client_id: c.clientId,
    versions: [{ identifier: '1', features: ['ORDER_ORDERED', 'ORDER_UNORDERED'] }],
    state: 'STATE_OPEN',
    counterparty: {
      client_id: c.counterpartyClientId ?? '',
      connection_id: c.counterpartyConnectionId ?? '',
      prefix: { key_prefix: Buffer.from('ibc').toString('base64') },
    },
    delay_period: '0',
  };
}

export function registerIbcRoutes(app: FastifyInstance, ctx: RestContext): void {
  const { node } = ctx;
  const heightJson = (height: number) => ({
    revision_number: revisionNumber(node.info.chainId).toString(),
    revision_height: String(height),
  });

  app.get('/ibc/core/channel/v1/channels', async (request, reply) => {
    const height = ctx.stateHeight(request, reply);
    const page = paginate(
      listChannels(node.state(height)),
      (c) => Buffer.from(`${c.portId}/${c.channelId}`),
      parsePageRequest(request.query as Query),
    );
    const channels = page.items.map((c) => ({
      ...channelJson(c),
      port_id: c.portId,
      channel_id: c.channelId,
    }));
    return sendJson(
      reply,
      JSON.stringify({ channels, pagination: page.pagination, height: heightJson(height) }),
    );
  });

  app.get('/ibc/core/channel/v1/channels/:channel/ports/:port', async (request, reply) => {
    const height = ctx.stateHeight(request, reply);
    const { channel, port } = request.params as { channel: string; port: string };
    const end = getChannel(node.state(height), port, channel);
    if (!end) throw notFound(`port-id: ${port}, channel-id: ${channel}: channel not found`);
    return sendJson(
      reply,
      JSON.stringify({ channel: channelJson(end), proof: null, proof_height: heightJson(height) }),
    );
  });

  app.get('/ibc/core/channel/v1/channels/:channel/ports/:port/packet_commitments', async (request, reply) => {
    const height = ctx.stateHeight(request, reply);
    const { channel, port } = request.params as { channel: string; port: string };
    const state = node.state(height);
    const keys = state
      .group(ibcKeys.commitments(port, channel))
      .sort((a, b) =>
        Number(BigInt(a.slice(a.lastIndexOf('/') + 1)) - BigInt(b.slice(b.lastIndexOf('/') + 1))),
      );
    const page = paginate(keys, (k) => Buffer.from(k), parsePageRequest(request.query as Query));
    const commitments = page.items.map((key) => ({
      port_id: port,
      channel_id: channel,
      sequence: key.slice(key.lastIndexOf('/') + 1),
      data: Buffer.from(state.get(key)!, 'hex').toString('base64'),
    }));
    return sendJson(
      reply,
      JSON.stringify({ commitments, pagination: page.pagination, height: heightJson(height) }),
    );
  });

  // Every channel has its own connection and client here, so connections are read off the channel ends.
  app.get('/ibc/core/connection/v1/connections', async (request, reply) => {
    const height = ctx.stateHeight(request, reply);
    const ends = listChannels(node.state(height));
    const page = paginate(
      ends,
      (c) => Buffer.from(c.connectionHops[0]!),
      parsePageRequest(request.query as Query),
    );
    const connections = page.items.map((c) => ({ id: c.connectionHops[0], ...connectionJson(c) }));
    return sendJson(
      reply,
      JSON.stringify({ connections, pagination: page.pagination, height: heightJson(height) }),
    );
  });

  app.get('/ibc/core/connection/v1/connections/:connection', async (request, reply) => {
    const height = ctx.stateHeight(request, reply);
    const { connection } = request.params as { connection: string };
    const end = listChannels(node.state(height)).find((c) => c.connectionHops[0] === connection);
    if (!end) throw notFound(`${connection}: connection not found`);
    return sendJson(
      reply,
      JSON.stringify({ connection: connectionJson(end), proof: null, proof_height: heightJson(height) }),
    );
  });

  app.get('/ibc/core/channel/v1/connections/:connection/channels', async (request, reply) => {
    const height = ctx.stateHeight(request, reply);
    const { connection } = request.params as { connection: string };
    const ends = listChannels(node.state(height)).filter((c) => c.connectionHops[0] === connection);
    const channels = ends.map((c) => ({ ...channelJson(c), port_id: c.portId, channel_id: c.channelId }));
    return sendJson(
      reply,
      JSON.stringify({
        channels,
        pagination: { next_key: null, total: String(channels.length) },
        height: heightJson(height),
      }),
    );
  });

  app.get('/ibc/apps/transfer/v1/params', async (request, reply) => {
    ctx.stateHeight(request, reply);
    return sendJson(reply, JSON.stringify({ params: { send_enabled: true, receive_enabled: true } }));
  });

  app.get('/ibc/apps/transfer/v1/denom_traces', async (request, reply) => {
    const height = ctx.stateHeight(request, reply);
    const traces = listDenomTraces(node.state(height)).sort((a, b) => (traceHash(a) < traceHash(b) ? -1 : 1));
    const page = paginate(
      traces,
      (t) => Buffer.from(traceHash(t), 'hex'),
      parsePageRequest(request.query as Query),
    );
    return sendJson(
      reply,
      JSON.stringify({ denom_traces: page.items.map(traceJson), pagination: page.pagination }),
    );
  });

  // The hash may come as `ibc/<hash>`, so the rest of the path is the parameter.
  app.get('/ibc/apps/transfer/v1/denom_traces/*', async (request, reply) => {
    const height = ctx.stateHeight(request, reply);
    const hash = (request.params as { '*': string })['*'];
    const trace = denomTraceOf(node.state(height), hash);
    if (!trace)
      throw notFound(
        `denomination trace for hash ${hash.replace(/^ibc\//, '')}: denomination trace not found`,
      );
    return sendJson(reply, JSON.stringify({ denom_trace: traceJson(trace) }));
  });

  app.get('/ibc/apps/transfer/v1/denom_hashes/*', async (request, reply) => {
    const height = ctx.stateHeight(request, reply);
    const path = decodeURIComponent((request.params as { '*': string })['*']);
    const trace = parseDenomTrace(path);
    const hash = traceHash(trace);
    if (node.state(height).get(transferKeys.trace(hash)) === undefined) {
      throw notFound(`denomination trace for trace ${fullDenomPath(trace)}: denomination trace not found`);
    }
    return sendJson(reply, JSON.stringify({ hash }));
  });

  app.get('/ibc/apps/transfer/v1/channels/:channel/ports/:port/escrow_address', async (request, reply) => {
    ctx.stateHeight(request, reply);
    const { channel, port } = request.params as { channel: string; port: string };
    const escrow = toBech32(node.info.bech32Prefix, escrowAddressBytes(port, channel));
    return sendJson(reply, JSON.stringify({ escrow_address: escrow }));
  });

  app.get('/ibc/apps/transfer/v1/denoms/*', async (request, reply) => {
    const height = ctx.stateHeight(request, reply);
    const rest = (request.params as { '*': string })['*'];
    if (!rest.endsWith('/total_escrow')) throw notFound('Not Implemented');
    const denom = decodeURIComponent(rest.slice(0, -'/total_escrow'.length));
    const amount = node.state(height).get(transferKeys.totalEscrow(denom)) ?? '0';
    return sendJson(reply, JSON.stringify({ amount: { denom, amount } }));
  });
}
