import { setTimeout as sleep } from 'node:timers/promises';
import { loadSettings, parse } from 'weft/common/config.js';
import { silentLogger } from 'weft/common/logger.js';
import { createIndexer } from 'weft/indexer/indexer.js';
import { createRng } from 'weft-devnet/random.js';
import { testDevnet } from 'weft-devnet/test-support/devnet.js';

/**
 * How soon a caught-up indexer writes a new block: an in-process devnet produces `--blocks` blocks one
 * at a time, each at a random point of the poll cycle, and an indexer (embedded store in memory, EVM
 * with its extensions) follows it. Reported: the time from a block's production to its write, whose
 * bound is one poll interval plus the fetch and the write.
 */
export async function run(argv: string[]) {
  const settings = loadSettings(
    {
      blocks: { flag: 'blocks', description: 'followed blocks', parse: parse.int(1, 1000), default: 40 },
      pollInterval: {
        flag: 'poll-interval',
        description: 'POLL_INTERVAL of the indexer',
        parse: parse.duration,
        default: 500,
      },
      txsPerBlock: {
        flag: 'txs-per-block',
        description: 'mixed txs per block',
        parse: parse.int(0),
        default: 5,
      },
    },
    { argv, env: {} },
  );
  const devnet = await testDevnet({
    seed: 'bench-follow',
    vms: ['evm'],
    accounts: 4,
    txsPerBlock: settings.txsPerBlock,
  });
  const chain = devnet.chains[0]!;
  const indexer = createIndexer(
    {
      chainId: chain.chain.info.chainId,
      vm: 'evm',
      bech32Prefix: chain.chain.info.bech32Prefix,
      rpcUrls: [chain.urls.rpc],
      restUrls: [chain.urls.rest],
      jsonRpcUrls: [chain.urls.jsonRpc!],
      dataDir: 'memory://',
      startHeight: 0,
      internalTx: true,
      richList: true,
      maxConcurrentRequests: 16,
      queryTimeoutMs: 5000,
      pollIntervalMs: settings.pollInterval,
      batchSize: 50,
      metrics: { enabled: false, host: '127.0.0.1', port: 0, path: '/metrics' },
      log: { level: 'silent', format: 'json' },
    },
    { logger: silentLogger() },
  );
  const controller = new AbortController();
  const done = indexer.run(controller.signal);
  const until = async (condition: () => boolean, what: string) => {
    const deadline = Date.now() + 60_000;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await sleep(2);
    }
  };
  const rng = createRng('bench-follow');
  const latencies: number[] = [];
  try {
    await devnet.fastForward(10);
    await until(() => indexer.status().written >= chain.chain.latestHeight(), 'the backfill');
    for (let i = 0; i < settings.blocks; i += 1) {
      await sleep(rng.next() * settings.pollInterval);
      await devnet.step();
      const produced = performance.now();
      const height = chain.chain.latestHeight();
      await until(() => indexer.status().written >= height, `height ${height}`);
      latencies.push(performance.now() - produced);
    }
  } finally {
    controller.abort();
    await done;
    await devnet.close();
  }
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!);
  return {
    blocks: settings.blocks,
    poll_interval_ms: settings.pollInterval,
    txs_per_block: settings.txsPerBlock,
    produced_to_written_ms: { p50: at(0.5), p90: at(0.9), max: Math.round(latencies.at(-1)!) },
    node: process.version,
  };
}
