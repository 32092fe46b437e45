import { loadSettings, parse } from '../src/common/config.js';
import { silentLogger } from '../src/common/logger.js';
import { startDevnet } from '../src/devnet/devnet.js';
import type { VmType } from '../src/devnet/types.js';

/** Fast-forward speed of each rollup alone: blocks/s and txs/s at a given traffic rate. */
export async function run(argv: string[]) {
  const settings = loadSettings(
    {
      blocks: { flag: 'blocks', description: 'blocks per rollup', parse: parse.int(1), default: 300 },
      txsPerBlock: {
        flag: 'txs-per-block',
        description: 'mixed txs per block',
        parse: parse.int(1),
        default: 20,
      },
      vms: {
        flag: 'vms',
        description: 'rollups',
        parse: parse.listOf(parse.oneOf(['evm', 'move', 'wasm'] as const)),
        default: ['evm', 'move', 'wasm'] as VmType[],
      },
    },
    { argv, env: {} },
  );
  const results = [];
  for (const vm of settings.vms) {
    const devnet = await startDevnet({
      seed: 'bench',
      vms: [vm],
      blockTimeMs: 1000,
      accounts: 20,
      txsPerBlock: settings.txsPerBlock,
      host: '127.0.0.1',
      portBase: 0,
      logger: silentLogger(),
    });
    const report = await devnet.fastForward(settings.blocks);
    await devnet.close();
    results.push({
      vm,
      blocks: report.blocks,
      txs: report.txs,
      seconds: Number(report.seconds.toFixed(2)),
      blocks_per_s: Number(report.blocksPerSecond.toFixed(1)),
      txs_per_s: Number(report.txsPerSecond.toFixed(0)),
    });
  }
  return { txs_per_block: settings.txsPerBlock, node: process.version, results };
}
