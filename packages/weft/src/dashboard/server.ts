import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import Fastify, { LogController } from 'fastify';
import type { Logger } from '../common/logger.js';
import type { DashboardChain } from './settings.js';

/** What the page reads at start: the public APIs it shows, nothing else. */
export interface DashboardConfig {
  router: string | null;
  chains: DashboardChain[];
  /** The wallet page's URL, when this server serves one. */
  wallet?: string | null;
}

/** A built wallet page (the `wallet/` package's `dist/`) and the configuration it reads at start. */
export interface WalletPage {
  dir: string;
  config: Record<string, unknown>;
}

/**
 * Where a wallet page's services that weft does not run point (InterwovenKit's DEX, VIP, glyph and
 * Minity URLs), same origin. A network without a DEX or VIP has no LP tokens, prices or vesting
 * positions: those questions get that answer (empty), everything else a JSON 404.
 */
export const ABSENT_PATH = '/absent';

/** The dashboard's files: ES modules, a stylesheet and one page, served as they are (no build step). */
const WEB_ROOT = fileURLToPath(new URL('./web/', import.meta.url));

/**
 * Serves the dashboard: `/config.json` (the APIs it reads), its files under `/assets/`, and
 * `index.html` for every other GET, so each page's URL can be opened or shared as it is.
 */
export async function createDashboardServer(options: {
  config: DashboardConfig;
  logger: Logger;
  wallet?: WalletPage;
}) {
  const app = Fastify({
    loggerInstance: options.logger,
    logController: new LogController({ disableRequestLogging: true }),
    forceCloseConnections: 'idle',
  });
  await app.register(fastifyStatic, {
    root: WEB_ROOT,
    prefix: '/assets/',
    // The files change with the code, never while it runs: revalidate rather than cache blindly.
    cacheControl: true,
    maxAge: 0,
    index: false,
  });
  app.get('/config.json', async (_request, reply) => {
    void reply.header('cache-control', 'no-store');
    return options.config;
  });
  app.get('/favicon.ico', async (_request, reply) => reply.code(204).send());
  if (options.wallet) {
    const { wallet } = options;
    await app.register(fastifyStatic, {
      root: wallet.dir,
      prefix: '/wallet/',
      decorateReply: false,
      cacheControl: true,
      maxAge: 0,
    });
    app.get('/wallet', async (_request, reply) => reply.redirect('/wallet/'));
    app.get('/wallet/config.json', async (_request, reply) => {
      void reply.header('cache-control', 'no-store');
      return wallet.config;
    });
  }
  app.post(`${ABSENT_PATH}/indexer/dex/v1/check_lp_tokens`, async () => ({ data: {} }));
  app.get(`${ABSENT_PATH}/indexer/price/v1/lp_prices/*`, async () => ({ prices: [] }));
  app.get(`${ABSENT_PATH}/vesting/positions/:address`, async () => []);
  app.all(`${ABSENT_PATH}/*`, async (request, reply) =>
    reply
      .code(404)
      .send({ code: 5, message: `${request.url}: this service is not run by weft`, details: [] }),
  );
  app.setNotFoundHandler(async (request, reply) => {
    if (
      request.method !== 'GET' ||
      request.url.startsWith('/assets/') ||
      request.url.startsWith('/wallet/')
    ) {
      return reply.code(404).send({ code: 5, message: `${request.method} ${request.url} is not served` });
    }
    return reply.type('text/html; charset=utf-8').sendFile('index.html');
  });
  return {
    async listen(host: string, port: number): Promise<string> {
      await app.listen({ host, port });
      const address = app.server.address();
      const bound = typeof address === 'object' && address ? address.port : port;
      return `http://${host}:${bound}`;
    },
    close: () => app.close(),
  };
}
