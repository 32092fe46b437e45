import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Logger } from '../common/logger.js';
import type { DevAccount } from './keys.js';
import { createRollup, type Rollup } from './rollup.js';
import { type FaultOptions, type NodeServers, startNodeServers } from './servers/index.js';
import type { VmType } from './types.js';
import { vmParts } from './vms.js';

export interface DevnetOptions {
  seed: string;
  vms: VmType[];
  blockTimeMs: number;
  accounts: number;
  txsPerBlock: number;
  /** Keeps every chain across restarts (one sub-folder per chain). */
  stateDir?: string;
  host: string;
  /** Chain i: RPC on base+10i, REST +1, JSON-RPC +2; 0 picks free ports. */
  portBase: number;
  haltHeight?: number;
  faults?: Partial<FaultOptions>;
  pruneBelow?: number;
  logger: Logger;
}

export interface DevnetChain extends Rollup {
  urls: { rpc: string; rest: string; jsonRpc?: string };
  servers: NodeServers;
}

export interface ManifestAccount {
  name: string;
  address: string;
  hex_address: string;
  mnemonic: string;
  private_key: string;
  key_type: string;
}

export interface Manifest {
  seed: string;
  chains: Array<{
    chain_id: string;
    vm: VmType;
    rpc: string;
    rest: string;
    json_rpc: string | null;
    denom: string;
    bech32_prefix: string;
    evm_chain_id: number | null;
    accounts: ManifestAccount[];
  }>;
}

export interface Devnet {
  chains: DevnetChain[];
  manifest(): Manifest;
  writeManifest(path: string): void;
  /** Produces one block on every chain (with traffic), unless halted. */
  step(): Promise<number>;
  /** Produces `blocks` blocks on every chain as fast as possible; returns the figures. */
  fastForward(blocks: number): Promise<FastForwardReport>;
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
  perChain: Array<{ chain_id: string; vm: VmType; blocks: number; txs: number }>;
}

export const chainIdOf = (vm: VmType) => `weft-${vm}-1`;

export async function startDevnet(options: DevnetOptions): Promise<Devnet> {
  const { logger } = options;
  const chains: DevnetChain[] = [];
  for (const [i, vm] of options.vms.entries()) {
    const chainId = chainIdOf(vm);
    const rollup = await createRollup(
      {
        vm,
        chainId,
        seed: options.seed,
        accounts: options.accounts,
        blockTimeMs: options.blockTimeMs,
        stateDir: options.stateDir ? join(options.stateDir, chainId) : undefined,
        logger: logger.child({ chain: chainId }),
      },
      (base) => vmParts(vm, { ...base, seed: options.seed, logger }),
    );
    if (options.pruneBelow) rollup.chain.prune(options.pruneBelow);
    const port = (offset: number) => (options.portBase === 0 ? 0 : options.portBase + i * 10 + offset);
    const servers = await startNodeServers(rollup.chain, {
      host: options.host,
      ports: { rpc: port(0), rest: port(1), jsonRpc: port(2) },
      faults: options.faults,
      // The servers log warnings and errors only; the listen lines repeat what the devnet prints.
      logger: logger.child({ chain: chainId }, { level: 'warn' }),
    });
    chains.push({ ...rollup, urls: servers.urls, servers });
  }

  const halted = (chain: DevnetChain) =>
    options.haltHeight !== undefined &&
    options.haltHeight > 0 &&
    chain.chain.latestHeight() >= options.haltHeight;

  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let running: Promise<unknown> = Promise.resolve();

  const produce = async (chain: DevnetChain) => {
    if (halted(chain)) return 0;
    if (options.txsPerBlock > 0) await chain.traffic.fill(options.txsPerBlock);
    const block = await chain.chain.produceBlock();
    chain.traffic.observe(block);
    return block.txs.length;
  };

  const devnet: Devnet = {
    chains,
    manifest: () => ({
      seed: options.seed,
      chains: chains.map((c) => ({
        chain_id: c.chain.info.chainId,
        vm: c.vm,
        rpc: c.urls.rpc,
        rest: c.urls.rest,
        json_rpc: c.urls.jsonRpc ?? null,
        denom: c.chain.info.denom,
        bech32_prefix: c.chain.info.bech32Prefix,
        evm_chain_id: c.chain.info.evmChainId ?? null,
        accounts: c.accounts.map(manifestAccount),
      })),
    }),
    writeManifest(path) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, `${JSON.stringify(devnet.manifest(), null, 2)}\n`);
    },
    async step() {
      const counts = await Promise.all(chains.map(produce));
      return counts.reduce((a, b) => a + b, 0);
    },
    async fastForward(blocks) {
      const started = performance.now();
      const perChain = chains.map((c) => ({ chain_id: c.chain.info.chainId, vm: c.vm, blocks: 0, txs: 0 }));
      for (let i = 0; i < blocks; i += 1) {
        for (const [j, chain] of chains.entries()) {
          if (halted(chain)) continue;
          perChain[j]!.txs += await produce(chain);
          perChain[j]!.blocks += 1;
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
            const height = Math.max(...chains.map((c) => c.chain.latestHeight()));
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
      await Promise.all(chains.map((c) => c.servers.close()));
    },
  };
  return devnet;
}

function manifestAccount(account: DevAccount): ManifestAccount {
  return {
    name: account.name,
    address: account.address,
    hex_address: account.hexAddress,
    mnemonic: account.mnemonic,
    private_key: account.privateKey,
    key_type: account.keyType,
  };
}
