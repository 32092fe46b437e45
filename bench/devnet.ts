import { setTimeout as sleep } from 'node:timers/promises';
import { loadSettings, parse } from 'weft/common/config.js';
import { silentLogger } from 'weft/common/logger.js';
import { startDevnet } from 'weft-devnet/devnet.js';
import { NETWORKS, type NetworkKind } from 'weft-devnet/network/plan.js';
import { devnetOptions, devnetSettings } from 'weft-devnet/settings.js';
import type { VmType } from 'weft-devnet/types.js';

/** Fast-forward speed of each rollup alone: blocks/s and txs/s at a given traffic rate. */
export async function run(argv: string[]) {
  const settings = loadSettings(
    {
      blocks: { flag: 'blocks', description: 'blocks per rollup', parse: parse.int(1), default: 300 },
      txsPerBlock: {
        flag: 'txs-per-block',
        description: 'mixed txs per block (0: 20 for each rollup alone, the devnet default for the network)',
        parse: parse.int(0),
        default: 0,
      },
      seconds: {
        flag: 'seconds',
        description: 'full network: wall time of the run at its block time, for the CPU share',
        parse: parse.int(1, 3600),
        default: 60,
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
  if (settings.network === 'full') return network(settings);
  const txsPerBlock = settings.txsPerBlock || 20;
  const results = [];
  for (const vm of settings.vms) {
    const devnet = await startDevnet({
      seed: 'bench',
      vms: [vm],
      blockTimeMs: 1000,
      accounts: 20,
      txsPerBlock,
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
  return { txs_per_block: txsPerBlock, node: process.version, results };
}

/**
 * The whole network in one process, as `weft devnet --network full` runs it at its defaults (block time,
 * accounts, traffic): first served in real time for `seconds`, giving the share of one core the process
 * takes (CPU time over wall time: blocks, traffic, relayers, executors and their timers); then
 * fast-forwarded `blocks` blocks, one chain at a time, giving the CPU time of each chain per block.
 */
async function network(settings: { vms: VmType[]; blocks: number; txsPerBlock: number; seconds: number }) {
  const defaults = devnetOptions(loadSettings(devnetSettings, { argv: [], env: {} }));
  const options = {
    ...defaults,
    seed: 'bench',
    vms: settings.vms,
    network: 'full' as const,
    txsPerBlock: settings.txsPerBlock || defaults.txsPerBlock,
    registryDir: undefined,
    portBase: 0,
    logger: silentLogger(),
  };

  const served = await startDevnet(options);
  const heightsBefore = served.all.map((c) => c.chain.latestHeight());
  const cpu = process.cpuUsage();
  const started = performance.now();
  served.run();
  await sleep(settings.seconds * 1000);
  const spent = process.cpuUsage(cpu);
  const wall = performance.now() - started;
  const blocks = served.all.map((c, i) => c.chain.latestHeight() - heightsBefore[i]!);
  await served.close();
  const cpuMs = (spent.user + spent.system) / 1000;

  const forwarded = await startDevnet(options);
  const report = await forwarded.fastForward(settings.blocks);
  await forwarded.close();
  const perChain = report.perChain.map((c) => ({
    chain_id: c.chain_id,
    vm: c.vm,
    blocks: c.blocks,
    txs: c.txs,
    cpu_ms_per_block: Number((c.cpuMs / c.blocks).toFixed(2)),
  }));
  const chainsMsPerBlock = perChain.reduce((a, c) => a + c.cpu_ms_per_block, 0);
  return {
    node: process.version,
    block_time_ms: options.blockTimeMs,
    accounts: options.accounts,
    txs_per_block: options.txsPerBlock,
    served: {
      seconds: Number((wall / 1000).toFixed(1)),
      blocks_per_chain: Math.min(...blocks),
      cpu_seconds: Number((cpuMs / 1000).toFixed(2)),
      core_share: Number((cpuMs / wall).toFixed(3)),
    },
    fast_forward: {
      blocks: settings.blocks,
      network: perChain,
      chains_cpu_ms_per_block: Number(chainsMsPerBlock.toFixed(2)),
      chains_core_share_at_block_time: Number((chainsMsPerBlock / options.blockTimeMs).toFixed(3)),
    },
  };
}
