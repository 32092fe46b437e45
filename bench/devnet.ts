import { loadSettings, parse } from '../src/common/config.js';
import { silentLogger } from '../src/common/logger.js';
import { startDevnet } from '../src/devnet/devnet.js';
import { NETWORKS, type NetworkKind } from '../src/devnet/network/plan.js';
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
      network: {
        flag: 'network',
        description:
          'rollups: each rollup alone; full: the whole network at once, with CPU per chain per block',
        parse: parse.oneOf(NETWORKS),
        default: 'rollups' as NetworkKind,
      },
    },
    { argv, env: {} },
  );
  if (settings.network === 'full') return network(settings.vms, settings.blocks, settings.txsPerBlock);
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

/**
 * The whole network in one process, as `weft devnet --network full` runs it: CPU time per chain per block,
 * and the share of one core the network takes at 1 s blocks (the sum over chains of CPU per block).
 */
async function network(vms: VmType[], blocks: number, txsPerBlock: number) {
  const devnet = await startDevnet({
    seed: 'bench',
    vms,
    network: 'full',
    blockTimeMs: 1000,
    accounts: 20,
    txsPerBlock,
    host: '127.0.0.1',
    portBase: 0,
    logger: silentLogger(),
  });
  const report = await devnet.fastForward(blocks);
  await devnet.close();
  const perChain = report.perChain.map((c) => ({
    chain_id: c.chain_id,
    vm: c.vm,
    blocks: c.blocks,
    txs: c.txs,
    cpu_ms_per_block: Number((c.cpuMs / c.blocks).toFixed(2)),
  }));
  const cpuPerSecond = perChain.reduce((a, c) => a + c.cpu_ms_per_block, 0);
  return {
    txs_per_block: txsPerBlock,
    node: process.version,
    network: perChain,
    core_share_at_1s_blocks: Number((cpuPerSecond / 1000).toFixed(3)),
  };
}
