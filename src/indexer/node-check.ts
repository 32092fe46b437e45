import { type CometClient, type CometStatus, createCometClient } from '../chain/comet-client.js';
import { createJsonRpcClient } from '../chain/json-rpc-client.js';
import { createRestClient } from '../chain/rest-client.js';
import { ConfigError, errorMessage } from '../common/errors.js';
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

/**
 * Waits for the node to answer (telling once that it waits), then checks that it serves the configured
 * chain: indexing another chain's blocks into this database would be a silent disaster.
 */
export async function checkNode(
  comet: CometClient,
  config: Pick<IndexerConfig, 'chainId'>,
  logger: Logger,
  signal: AbortSignal,
): Promise<CometStatus> {
  let told = false;
  const status = await withRetry((s) => comet.status(s), {
    signal,
    backoffMs: (attempt) => Math.min(5000, 250 * 2 ** attempt),
    // One failed answer is a scattered fault, retried quietly; the third in a row is a node that is down.
    onRetry: (err, attempt) => {
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
