import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { TxSubmitNotServedError } from './errors.js';
import {
  ErrorResponse,
  RECENT_DEFAULT,
  RecentQuery,
  RecentResponse,
  StatusQuery,
  StatusResponse,
  TrackRequest,
  TrackResponse,
} from './schemas.js';
import type { Tracker } from './tracker.js';

/**
 * `POST /v2/tx/track`, `GET /v2/tx/status`, `POST /v2/tx/submit` (a 501: the router never broadcasts) and
 * weft's `GET /v2/tx/recent`, as a plugin the router's API
 * server mounts. Their errors are answered by the server's handler (`common/http-errors.ts`):
 * `{code, message, details}` with Skip's gRPC codes (a request failing its schema is code 3).
 */

const TAGS = ['Tracking'];
const errors = { 400: ErrorResponse, 404: ErrorResponse, 500: ErrorResponse, 503: ErrorResponse };
const trackErrors = { ...errors, 429: ErrorResponse };

export function trackingRoutes(options: { tracker: Tracker }): FastifyPluginAsync {
  const { tracker } = options;
  return async (instance: FastifyInstance) => {
    const app = instance.withTypeProvider<TypeBoxTypeProvider>();

    app.post(
      '/v2/tx/track',
      {
        schema: {
          tags: TAGS,
          summary: 'Track a transfer by its source tx',
          description:
            'Starts durable tracking of the transfers a source tx initiates (idempotent: tracking a tracked tx answers the same; an abandoned one is tracked again). A new tx while too many tracked txs are not yet seen on chain is a 429 (code 8) with Retry-After.',
          body: TrackRequest,
          response: { 200: TrackResponse, ...trackErrors },
        },
      },
      async (request) => tracker.track(request.body.chain_id, request.body.tx_hash),
    );

    app.post(
      '/v2/tx/submit',
      {
        schema: {
          tags: TAGS,
          summary: 'Not served: the router never broadcasts',
          description:
            "Skip's broadcast of a signed tx (`@skip-go/client`'s `executeRoute` calls it). Whatever the body, a 501 (code 12) at once that says what to do instead: broadcast with the chain's own node, then `POST /v2/tx/track`.",
          response: { 501: ErrorResponse },
        },
      },
      // The shared handler answers a 501 without logging it: a client calling it is no fault of the router's.
      async () => {
        throw new TxSubmitNotServedError();
      },
    );

    app.get(
      '/v2/tx/status',
      {
        schema: {
          tags: TAGS,
          summary: 'Status of a tracked transfer',
          description:
            'The state machine of docs/router.md: per hop `transfer_sequence`, `next_blocking_transfer`, `transfer_asset_release`, `error` and `status`.',
          querystring: StatusQuery,
          response: { 200: StatusResponse, ...errors },
        },
      },
      async (request) => tracker.status(request.query.chain_id, request.query.tx_hash),
    );

    app.get(
      '/v2/tx/recent',
      {
        schema: {
          tags: TAGS,
          summary: 'The most recently tracked transfers (weft extension)',
          description:
            'Not in Skip Go API: the transfers last registered with `POST /v2/tx/track` (or tracked by the dev stack), newest first, each in the state `GET /v2/tx/status` answers. `chain_id` keeps those of one source chain (one the router does not follow is a 404, code 5), `state` those in one state. A bad parameter is a 400 (code 3) naming it.',
          querystring: RecentQuery,
          response: { 200: RecentResponse, ...errors },
        },
      },
      async (request) => {
        const { limit, chain_id, state } = request.query;
        return tracker.recent({ limit: limit ?? RECENT_DEFAULT, chainId: chain_id, state });
      },
    );
  };
}
