import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'weft/common/logger.js';
import type { IndexerConfig } from 'weft/indexer/config.js';
import { createIndexer, type Indexer, type IndexerDeps } from 'weft/indexer/indexer.js';
import { captureRecords } from 'weft/indexer/test-support/logger.js';
import type { Db } from 'weft/store/db.js';
import type { DevnetChain } from 'weft-devnet/devnet.js';

/** What the end-to-end indexer tests share: a config for a devnet chain, captured logs, waiting. */

export { testDevnet } from 'weft-devnet/test-support/devnet.js';

/** Records at info and above, for the test to read. */
export const captureLogger = () => captureRecords('info');

export function configFor(chain: DevnetChain, overrides: Partial<IndexerConfig> = {}): IndexerConfig {
  return {
    chainId: chain.chain.info.chainId,
    vm: chain.vm as IndexerConfig['vm'],
    bech32Prefix: chain.chain.info.bech32Prefix,
    rpcUrls: [chain.urls.rpc],
    restUrls: [chain.urls.rest],
    jsonRpcUrls: chain.urls.jsonRpc ? [chain.urls.jsonRpc] : [],
    dataDir: 'memory://',
    startHeight: 0,
    internalTx: chain.vm === 'evm',
    richList: chain.vm === 'evm',
    maxConcurrentRequests: 16,
    queryTimeoutMs: 5000,
    pollIntervalMs: 500,
    batchSize: 50,
    metrics: { enabled: false, host: '127.0.0.1', port: 0, path: '/metrics' },
    log: { level: 'info', format: 'json' },
    ...overrides,
  };
}

export async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

export interface RunningIndexer {
  indexer: Indexer;
  done: Promise<void>;
  stop(): Promise<void>;
}

/** Starts an indexer over `db`; `stop` aborts it and waits for it to finish its batch. */
export function startIndexer(
  config: IndexerConfig,
  db: Db,
  logger: Logger,
  deps: Omit<IndexerDeps, 'logger' | 'db'> = {},
): RunningIndexer {
  const indexer = createIndexer(config, { ...deps, logger, db });
  const controller = new AbortController();
  const done = indexer.run(controller.signal);
  return {
    indexer,
    done,
    async stop() {
      controller.abort();
      await done;
    },
  };
}

/** True once blocks and every extension the config turns on have reached `height`. */
export function reached(running: RunningIndexer, config: IndexerConfig, height: number): boolean {
  const status = running.indexer.status();
  return (
    status.written >= height &&
    (!config.internalTx || (status.internalTxHeight ?? 0) >= height) &&
    (!config.richList || (status.richListHeight ?? 0) >= height)
  );
}
