import { loadSettings } from '../common/config.js';
import { writeJsonFile } from '../common/json-file.js';
import { createLogger } from '../common/logger.js';
import { createShutdown, onProcessSignals } from '../common/shutdown.js';
import { loadIndexerConfig } from '../indexer/config.js';
import { record } from '../record/recorder.js';
import { startReplay } from '../record/replay.js';
import { recordSettings, replaySettings } from '../record/settings.js';

/** `weft record`: a range of heights of a chain's nodes, as `weft indexer` reads them, into a folder. */
export async function runRecord(argv: string[]): Promise<void> {
  const s = loadSettings(recordSettings, { argv, env: process.env });
  const config = loadIndexerConfig({
    argv: [],
    env: {
      CHAIN_ID: s.chainId,
      VM_TYPE: s.vm,
      BECH32_PREFIX: s.bech32Prefix,
      RPC_URL: s.rpcUrls.join(','),
      REST_URL: s.restUrls.join(','),
      JSON_RPC_URL: s.jsonRpcUrls.join(','),
      QUERY_TIMEOUT: `${s.queryTimeout}ms`,
      ...(s.internalTx === null ? {} : { INTERNAL_TX: String(s.internalTx) }),
      ...(s.richList === null ? {} : { RICH_LIST: String(s.richList) }),
    },
  });
  const logger = createLogger({ level: s.logLevel, format: s.logFormat, name: 'record' });
  const shutdown = createShutdown(logger);
  onProcessSignals(shutdown, logger);
  const result = await record({
    config,
    from: s.from,
    to: s.to,
    out: s.out,
    logger,
    signal: shutdown.signal,
  });
  logger.info({ out: s.out, ...result }, 'recording complete');
  if (!shutdown.isKilled()) await shutdown.kill('recorded');
}

/** `weft replay DIR`: serves a recording on the node surfaces until stopped. */
export async function runReplay(argv: string[]): Promise<void> {
  const dir = argv[0] && !argv[0].startsWith('-') ? argv[0] : undefined;
  const s = loadSettings(replaySettings, { argv: dir ? argv.slice(1) : argv, env: process.env });
  if (!dir) {
    process.stderr.write(
      'weft replay: which recording? `weft replay DIR` (a folder `weft record --out` wrote)\n',
    );
    process.exit(2);
  }
  const logger = createLogger({ level: s.logLevel, format: s.logFormat, name: 'replay' });
  const shutdown = createShutdown(logger);
  onProcessSignals(shutdown, logger);
  const replay = await startReplay({ dir, host: s.host, portBase: s.portBase, logger });
  shutdown.add(() => replay.close());
  const { manifest, urls } = replay;
  if (s.manifest) {
    writeJsonFile(s.manifest, {
      chains: [
        {
          chain_id: manifest.chain_id,
          vm: manifest.vm_type,
          rpc: urls.rpc,
          rest: urls.rest,
          json_rpc: urls.jsonRpc ?? null,
          heights: { from: manifest.heights[0], to: manifest.heights.at(-1) },
        },
      ],
    });
  }
  logger.info({ chain: manifest.chain_id, head: replay.head(), ...urls }, 'replaying');
  await new Promise<void>((resolve) => shutdown.signal.addEventListener('abort', () => resolve()));
}
