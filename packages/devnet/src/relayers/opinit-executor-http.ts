import cors from '@fastify/cors';
import Fastify, { type FastifyInstance } from 'fastify';
import { serverAddress } from '../servers/http-app.js';
import type { OpinitExecutor } from './opinit-executor.js';

/**
 * The executor's HTTP surface as opinit-bots serves it: `/withdrawal/{sequence}` with the fields
 * `MsgFinalizeTokenWithdrawal` needs, `/withdrawals/{address}` (by L1 receiver, `offset` a sequence,
 * `limit` ≤ 100, `order` desc by default) and `/status`, open to any origin as a browser wallet needs.
 */
export function createExecutorHttpServer(executor: OpinitExecutor): FastifyInstance {
  const app = Fastify({ logger: false, forceCloseConnections: true });
  // Wallets read withdrawals from the browser (InterwovenKit's withdrawal status page).
  void app.register(cors, { origin: '*', methods: ['GET', 'OPTIONS'] });
  const failure = (message: string) => ({ code: 500, message });

  app.get('/withdrawal/:sequence', async (request, reply) => {
    const text = (request.params as { sequence: string }).sequence;
    if (!/^\d+$/.test(text)) return reply.code(500).send(failure('failed to parse sequence'));
    const found = executor.withdrawals.proof(BigInt(text));
    if (!found) return reply.code(500).send(failure('failed to query withdrawal'));
    return reply.send(found);
  });

  app.get('/withdrawals/:address', async (request, reply) => {
    const { address } = request.params as { address: string };
    const query = request.query as Record<string, string | undefined>;
    const int = (value: string | undefined, fallback: number) =>
      value !== undefined && /^\d+$/.test(value) ? Number(value) : fallback;
    const limit = Math.min(int(query.limit, 10), 100);
    const { sequences, next } = executor.withdrawals.byAddress(address, {
      offset: BigInt(int(query.offset, 0)),
      limit,
      descending: query.order !== 'asc',
    });
    const withdrawals = sequences.map((s) => executor.withdrawals.proof(s)!);
    return reply.send(next === undefined ? { withdrawals } : { withdrawals, next: Number(next) });
  });

  app.get('/status', async (_request, reply) =>
    reply.send({
      bridge_id: Number(executor.bridgeId),
      l2_height: executor.l2Height,
      pending_deposits: executor.pendingDeposits,
      paused: executor.paused,
      delay_ms: executor.delayMs,
    }),
  );
  return app;
}

/** Starts the executor's HTTP surface on loopback; returns its URL and a closer. */
export async function startExecutorHttpServer(
  executor: OpinitExecutor,
  options: { host?: string; port?: number } = {},
): Promise<{ url: string; close(): Promise<void> }> {
  const app = createExecutorHttpServer(executor);
  await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
  return { url: serverAddress(app, 'http')!, close: () => app.close() };
}
