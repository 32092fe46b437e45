import { setTimeout as sleep } from 'node:timers/promises';
import { type CometClient, type CometStatus, createCometClient } from '../chain/comet-client.js';
import { createJsonRpcClient } from '../chain/json-rpc-client.js';
import { createRestClient } from '../chain/rest-client.js';
import { BaseError, ConfigError, errorMessage } from '../common/errors.js';
import type { Logger } from '../common/logger.js';
import type { IndexerConfig } from './config.js';
import type { NodeClients } from './fetch.js';
import { withRetry } from './retry.js';

/** The clients of the configured node URLs. */
export function createNodeClients(config: IndexerConfig): NodeClients {
  const timing = { timeoutMs: config.queryTimeoutMs };
  return {
    comet: createCometClient(config.rpcUrls, timing),
    rest: createRestClient(config.restUrls, timing),
    ...(config.vm === 'evm' ? { jsonRpc: createJsonRpcClient(config.jsonRpcUrls, timing) } : {}),
  };
}

export async function closeNodeClients(clients: NodeClients): Promise<void> {
  await Promise.all([clients.comet, clients.rest, clients.jsonRpc].map((c) => c?.endpoints.close()));
}

/** Socket errors that say nothing listens at a URL (or its host is unknown): not a struggling node. */
const NOTHING_THERE: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'unknown host',
  EAI_AGAIN: 'unknown host',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

/** `connection refused (ECONNREFUSED)` when `err` (or its cause) is such a socket error. */
function nothingThere(err: unknown): string | undefined {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth += 1) {
    const code = (e as { code?: string }).code ?? '';
    if (Object.hasOwn(NOTHING_THERE, code)) return `${NOTHING_THERE[code]} (${code})`;
  }
  return undefined;
}

/**
 * How long a start waits for a node URL where nothing listens before it stops: the node may be starting
 * too; a URL that is wrong stops the indexer with an error naming it rather than waiting for ever.
 */
export const START_PATIENCE_MS = 5000;

/** The error of a node surface where nothing answered during the start's patience. */
function unreachable(setting: string, flag: string, urls: readonly string[], err: unknown): BaseError {
  return new BaseError(
    'WEFT_ERR_NODE_UNREACHABLE',
    `nothing answers at ${urls.join(', ')} (${setting}): ${nothingThere(err) ?? errorMessage(err)}`,
    {
      cause: err,
      hint: `start the node, or set ${flag} / ${setting} to the URL of one that answers`,
    },
  );
}

/** Gives up on `err` (throwing) once nothing has answered at the URLs for the start's patience. */
function patience(setting: string, flag: string, urls: readonly string[], patienceMs: number) {
  const started = Date.now();
  return (err: unknown) => {
    if (nothingThere(err) && Date.now() - started >= patienceMs) throw unreachable(setting, flag, urls, err);
  };
}

/**
 * Asks the REST and JSON-RPC URLs once each: a surface where nothing listens (a wrong URL) stops the
 * start with an error naming it, after the start's patience. Any answer, even an error, will do.
 */
export async function checkSurfaces(
  clients: NodeClients,
  signal: AbortSignal,
  patienceMs = START_PATIENCE_MS,
): Promise<void> {
  const probes = [
    {
      setting: 'REST_URL',
      flag: '--rest-url',
      urls: clients.rest.endpoints.urls,
      ask: (s: AbortSignal) => clients.rest.nodeInfo(s),
    },
    ...(clients.jsonRpc
      ? [
          {
            setting: 'JSON_RPC_URL',
            flag: '--json-rpc-url',
            urls: clients.jsonRpc.endpoints.urls,
            ask: (s: AbortSignal) => clients.jsonRpc!.blockNumber(s),
          },
        ]
      : []),
  ];
  for (const probe of probes) {
    const giveUp = patience(probe.setting, probe.flag, probe.urls, patienceMs);
    for (let attempt = 1; !signal.aborted; attempt += 1) {
      try {
        await probe.ask(signal);
        break;
      } catch (err) {
        if (signal.aborted || !nothingThere(err)) break;
        giveUp(err);
        await sleep(Math.min(2000, 250 * 2 ** attempt), undefined, { signal }).catch(() => undefined);
      }
    }
  }
}

/**
 * Waits for the node to answer (telling once that it waits), then checks that it serves the configured
 * chain: indexing another chain's blocks into this database would be a silent disaster. Where nothing
 * listens at RPC_URL for `patienceMs`, it stops with an error naming it.
 */
export async function checkNode(
  comet: CometClient,
  config: Pick<IndexerConfig, 'chainId'>,
  logger: Logger,
  signal: AbortSignal,
  patienceMs = START_PATIENCE_MS,
): Promise<CometStatus> {
  let told = false;
  const giveUp = patience('RPC_URL', '--rpc-url', comet.endpoints.urls, patienceMs);
  const status = await withRetry((s) => comet.status(s), {
    signal,
    backoffMs: (attempt) => Math.min(5000, 250 * 2 ** attempt),
    // One failed answer is a scattered fault, retried quietly; the third in a row is a node that is down.
    onRetry: (err, attempt) => {
      giveUp(err);
      if (told || attempt < 3) return;
      told = true;
      logger.warn(
        { rpc: comet.endpoints.urls, reason: errorMessage(err) },
        'node is not answering; waiting for it',
      );
    },
  });
  if (told) logger.info('node answers; starting');
  if (status.chainId !== config.chainId) {
    throw new ConfigError(
      'CHAIN_ID',
      `is ${config.chainId}, but the node at ${comet.endpoints.urls.join(', ')} serves chain ${status.chainId}`,
    );
  }
  return status;
}

/** Internal txs need minievm ≥ v1.1.0 (its tracer); older nodes cannot give them. */
export function supportsInternalTxs(appVersion: string): boolean {
  const m = /^v?(\d+)\.(\d+)\.(\d+)/.exec(appVersion);
  if (!m) return true;
  const [major, minor] = [Number(m[1]), Number(m[2])];
  return major > 1 || (major === 1 && minor >= 1);
}
