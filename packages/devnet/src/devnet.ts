import { join } from 'node:path';
import { writeJsonFile } from 'weft/common/json-file.js';
import type { Logger } from 'weft/common/logger.js';
import { type ControlServer, startControlServer } from './control/server.js';
import type { DevChain } from './dev-chain.js';
import { type Manifest, manifestOf } from './manifest.js';
import { createNetworkChain } from './network/chains.js';
import type { NetworkModule } from './network/modules.js';
import {
  type ChainPlan,
  DEFAULT_NETWORK_SETTINGS,
  type NetworkKind,
  type NetworkSettings,
  networkPlan,
} from './network/plan.js';
import { NETWORK_SERVICES, type NetworkService, type RunningService } from './network/services.js';
import { createRegistry, type Registry } from './registry/writer.js';
import type { Rollup } from './rollup.js';
import { type FaultOptions, type NodeServers, startNodeServers } from './servers/index.js';
import type { VmType } from './types.js';

export type { Manifest, ManifestAccount } from './manifest.js';
export { chainIdOf } from './network/plan.js';

export interface DevnetOptions {
  seed: string;
  /** The rollups to run. */
  vms: VmType[];
  /** `rollups` (default): the rollups alone; `full`: with the L1 and the external chains. */
  network?: NetworkKind;
  blockTimeMs: number;
  accounts: number;
  txsPerBlock: number;
  /** Keeps every chain across restarts (one sub-folder per chain). */
  stateDir?: string;
  /** Writes the registry folder here once the network is up. */
  registryDir?: string;
  host: string;
  /** Chain i: RPC on base+10i, REST +1, JSON-RPC +2; the control surface on base+9; 0 picks free ports. */
  portBase: number;
  haltHeight?: number;
  faults?: Partial<FaultOptions>;
  pruneBelow?: number;
  /** The modules the network's parts add to its chains (default: `NETWORK_MODULES`). */
  modules?: readonly NetworkModule[];
  /** The services (relayers, executors) the network runs (default: `NETWORK_SERVICES`). */
  services?: readonly NetworkService[];
  /** Settings of the network's parts (OPinit output interval and finalization period). */
  settings?: Partial<NetworkSettings>;
  logger: Logger;
}

interface Served {
  plan: ChainPlan;
  servers: NodeServers;
}

/** The L1 or a rollup: a VM and the Cosmos node surfaces (and EVM JSON-RPC on an EVM rollup). */
export interface DevnetChain extends Rollup, Served {
  role: 'rollup' | 'l1';
  urls: { rpc: string; rest: string; jsonRpc?: string };
}

/** The external Cosmos chain: bank only, CometBFT RPC and Cosmos REST. */
export interface ExternalCosmosChain extends DevChain, Served {
  role: 'external-cosmos';
  urls: { rpc: string; rest: string };
}

/** The external EVM chain: EVM JSON-RPC only. */
export interface ExternalEvmChain extends DevChain, Served {
  role: 'external-evm';
  vm: 'evm';
  urls: { jsonRpc: string };
}

export type NetworkChain = DevnetChain | ExternalCosmosChain | ExternalEvmChain;

export interface Devnet {
  /** The chains with a VM and the Cosmos node surfaces: the rollups, then the L1. */
  chains: DevnetChain[];
  rollups: DevnetChain[];
  l1?: DevnetChain;
  external: { cosmos?: ExternalCosmosChain; evm?: ExternalEvmChain };
  /** Every chain, in port order. */
  all: NetworkChain[];
  registry: Registry;
  control: ControlServer;
  manifest(): Manifest;
  writeManifest(path: string): void;
  /**
   * Calls `listener` with each interchain transfer the generated traffic starts (an IBC transfer, an
   * OPinit deposit or withdrawal, an OFT send): the chain and hash of its source tx, once accepted.
   */
  onInterchainTx(listener: (tx: { chainId: string; txHash: string }) => void): void;
  /** Writes the registry folder (again: after a part contributed to it). */
  writeRegistry(dir: string): void;
  /** Produces one block on every chain (with traffic), unless halted. */
  step(): Promise<number>;
  /**
   * Produces `blocks` blocks on every chain as fast as possible; returns the figures. `onBlock` hears
   * after each round of blocks how many were produced (over all chains) and the txs in them.
   */
  fastForward(
    blocks: number,
    onBlock?: (done: { round: number; blocks: number; txs: number }) => void,
  ): Promise<FastForwardReport>;
  /** Produces blocks every block time until closed or halted. */
  run(): void;
  close(): Promise<void>;
}

export interface FastForwardReport {
  blocks: number;
  txs: number;
  seconds: number;
  blocksPerSecond: number;
  txsPerSecond: number;
  /** `cpuMs`: the process CPU time (user + system) spent producing this chain's blocks and traffic. */
  perChain: Array<{ chain_id: string; vm: VmType | null; blocks: number; txs: number; cpuMs: number }>;
}

export async function startDevnet(options: DevnetOptions): Promise<Devnet> {
  const { logger } = options;
  const network = options.network ?? 'rollups';
  const all: NetworkChain[] = [];
  const port = (i: number, offset: number) =>
    options.portBase === 0 ? 0 : options.portBase + i * 10 + offset;
  const closing: Array<() => Promise<void>> = [];
  const plans = networkPlan(network, options.vms);
  const settings = { ...DEFAULT_NETWORK_SETTINGS, ...options.settings };
  try {
    for (const [i, plan] of plans.entries()) {
      const chainLogger = logger.child({ chain: plan.chainId });
      const built = await createNetworkChain(plan, {
        seed: options.seed,
        accounts: options.accounts,
        blockTimeMs: options.blockTimeMs,
        stateDir: options.stateDir ? join(options.stateDir, plan.chainId) : undefined,
        logger: chainLogger,
        ...(options.modules ? { modules: options.modules } : {}),
        network: plans,
        settings,
      });
      if (options.pruneBelow) built.chain.prune(options.pruneBelow);
      const ethOnly = plan.role === 'external-evm';
      const servers = await startNodeServers(built.chain, {
        host: options.host,
        ports: { rpc: port(i, 0), rest: port(i, 1), jsonRpc: port(i, 2) },
        ...(ethOnly ? { surfaces: ['jsonRpc'] as const } : {}),
        faults: options.faults,
        // The servers log warnings and errors only; the listen lines repeat what the devnet prints.
        logger: logger.child({ chain: plan.chainId }, { level: 'warn' }),
      });
      closing.push(() => servers.close());
      const urls = ethOnly ? { jsonRpc: servers.urls.jsonRpc! } : servers.urls;
      all.push({ ...built, plan, urls, servers } as NetworkChain);
    }
  } catch (err) {
    await Promise.all(closing.map((close) => close()));
    throw err;
  }

  // The control surface stays on loopback whatever --host says: it can stall the network.
  const control = await startControlServer({
    host: '127.0.0.1',
    port: options.portBase === 0 ? 0 : options.portBase + 9,
    logger: logger.child({ part: 'control' }, { level: 'warn' }),
  });
  const registry = createRegistry(
    all.map((c) => ({ plan: c.plan, info: c.chain.info, keyType: c.accounts[0]!.keyType, urls: c.urls })),
  );
  const services: Array<{ name: string; running: RunningService }> = [];
  for (const service of (options.services ?? NETWORK_SERVICES).filter((s) => s.appliesTo(all))) {
    const running = await service.start({
      chains: all,
      registry,
      control,
      host: options.host,
      blockTimeMs: options.blockTimeMs,
      seed: options.seed,
      settings,
      logger: logger.child({ service: service.name }),
    });
    services.push({ name: service.name, running });
  }
  if (options.registryDir) registry.write(options.registryDir);

  const chains = all.filter((c): c is DevnetChain => c.role === 'rollup' || c.role === 'l1');
  const halted = (chain: NetworkChain) =>
    options.haltHeight !== undefined &&
    options.haltHeight > 0 &&
    chain.chain.latestHeight() >= options.haltHeight;

  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let running: Promise<unknown> = Promise.resolve();

  const produce = async (chain: NetworkChain) => {
    if (halted(chain)) return 0;
    if (options.txsPerBlock > 0) await chain.traffic.fill(options.txsPerBlock);
    const block = await chain.chain.produceBlock();
    chain.traffic.observe(block);
    return block.txs.length;
  };
  const afterStep = async () => {
    for (const { running } of services) await running.afterStep?.();
  };

  const devnet: Devnet = {
    chains,
    rollups: chains.filter((c) => c.role === 'rollup'),
    l1: chains.find((c) => c.role === 'l1'),
    external: {
      cosmos: all.find((c): c is ExternalCosmosChain => c.role === 'external-cosmos'),
      evm: all.find((c): c is ExternalEvmChain => c.role === 'external-evm'),
    },
    all,
    registry,
    control,
    manifest: () =>
      manifestOf({
        seed: options.seed,
        network,
        chains: all,
        registry: options.registryDir ?? null,
        control: control.url,
        services: Object.fromEntries(services.map((s) => [s.name, s.running.manifest?.() ?? {}])),
      }),
    writeManifest: (path) => writeJsonFile(path, devnet.manifest()),
    writeRegistry: (dir) => registry.write(dir),
    onInterchainTx(listener) {
      for (const c of all)
        c.traffic.onInterchainTx((txHash) => listener({ chainId: c.chain.info.chainId, txHash }));
    },
    async step() {
      const counts = await Promise.all(all.map(produce));
      await afterStep();
      return counts.reduce((a, b) => a + b, 0);
    },
    async fastForward(blocks, onBlock) {
      const started = performance.now();
      const perChain = all.map((c) => ({
        chain_id: c.chain.info.chainId,
        vm: vmOf(c),
        blocks: 0,
        txs: 0,
        cpuMs: 0,
      }));
      for (let i = 0; i < blocks; i += 1) {
        for (const [j, chain] of all.entries()) {
          if (halted(chain)) continue;
          const cpu = process.cpuUsage();
          perChain[j]!.txs += await produce(chain);
          const spent = process.cpuUsage(cpu);
          perChain[j]!.cpuMs += (spent.user + spent.system) / 1000;
          perChain[j]!.blocks += 1;
        }
        await afterStep();
        if (onBlock) {
          const total = (pick: (c: (typeof perChain)[number]) => number) =>
            perChain.reduce((a, c) => a + pick(c), 0);
          onBlock({ round: i + 1, blocks: total((c) => c.blocks), txs: total((c) => c.txs) });
        }
      }
      const seconds = (performance.now() - started) / 1000;
      const totalBlocks = perChain.reduce((a, c) => a + c.blocks, 0);
      const totalTxs = perChain.reduce((a, c) => a + c.txs, 0);
      return {
        blocks: totalBlocks,
        txs: totalTxs,
        seconds,
        blocksPerSecond: totalBlocks / seconds,
        txsPerSecond: totalTxs / seconds,
        perChain,
      };
    },
    run() {
      const tick = () => {
        if (closed) return;
        running = devnet
          .step()
          .then((txs) => {
            const height = Math.max(...all.map((c) => c.chain.latestHeight()));
            if (height % 10 === 0) logger.info({ height, txs }, 'blocks produced');
          })
          .catch((err: unknown) => logger.error({ err }, 'block production failed'))
          .finally(() => {
            if (!closed) timer = setTimeout(tick, options.blockTimeMs);
          });
      };
      timer = setTimeout(tick, options.blockTimeMs);
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await running;
      for (const { running } of services.reverse()) await running.close?.();
      await control.close();
      await Promise.all(all.map((c) => c.servers.close()));
    },
  };
  return devnet;
}

/** The VM of a chain as the manifest and reports name it (the external Cosmos chain has none). */
export const vmOf = (chain: NetworkChain): VmType | null => ('vm' in chain ? chain.vm : null);
