import type { Hex } from 'viem';
import { silentLogger } from 'weft/common/logger.js';
import { evmAddresses, type OmnichainMember, omnichainOperator } from '../omnichain/network.js';
import { createOmnichainRelayerFor, omnichainMembers, omnichainSetupFor } from '../omnichain/wiring.js';
import type { OmnichainRelayer } from '../relayers/omnichain.js';
import { createRollup, type Rollup } from '../rollup.js';
import { type NodeServers, startNodeServers } from '../servers/index.js';
import { vmParts } from '../vms.js';

export interface OmnichainTestChain extends Rollup {
  member: OmnichainMember;
  servers: NodeServers;
}

export interface OmnichainTestNet {
  chains: OmnichainTestChain[];
  relayer: OmnichainRelayer;
  /** Changes the traffic per block and chain (0 stops it). */
  setTraffic(txsPerBlock: number): void;
  endpoint: Hex;
  oft: Hex;
  close(): Promise<void>;
}

/**
 * Two EVM rollups of different chain ids joined by the omnichain bridge and its relayer, on loopback
 * free ports, producing a block every `blockTimeMs` (no traffic unless asked).
 */
export function omnichainEvmPair(options: OmnichainNetOptions): Promise<OmnichainTestNet> {
  return omnichainNet({
    ...options,
    chains: ['weft-evm-1', 'weft-evm-2'].map((chainId) => ({ chainId, vm: 'evm' })),
  });
}

export interface OmnichainNetOptions {
  seed: string;
  /** Txs of seeded traffic per block and chain (default none). */
  txsPerBlock?: number;
  blockTimeMs?: number;
  delayMs?: number;
  retryDelayMs?: number;
}

/** Rollups of the given VMs (`move` stands in for the L1) joined by the bridge and its relayer. */
export async function omnichainNet(
  options: OmnichainNetOptions & { chains: Array<{ chainId: string; vm: 'evm' | 'move' }> },
): Promise<OmnichainTestNet> {
  const logger = silentLogger();
  const members = omnichainMembers(options.chains.map(({ chainId, vm }) => ({ chainId, kind: vm })));
  const chains: OmnichainTestChain[] = [];
  for (const member of members) {
    const rollup = await createRollup(
      {
        vm: member.kind,
        chainId: member.chainId,
        seed: options.seed,
        accounts: 4,
        blockTimeMs: 1000,
        logger,
      },
      (base) =>
        vmParts(member.kind, {
          ...base,
          seed: options.seed,
          logger,
          omnichain: omnichainSetupFor(options.seed, members, member.chainId),
        }),
    );
    const servers = await startNodeServers(rollup.chain, { host: '127.0.0.1', ports: {}, logger });
    chains.push({ ...rollup, member, servers });
  }
  const operator = omnichainOperator(options.seed, 'ethsecp256k1', 'init');
  const { endpoint, oft } = evmAddresses(operator.hexAddress as Hex);
  const relayer = createOmnichainRelayerFor({
    seed: options.seed,
    chains: chains.map((c) => ({ member: c.member, info: c.chain.info, urls: c.servers.urls })),
    delayMs: options.delayMs ?? 0,
    retryDelayMs: options.retryDelayMs ?? 60_000,
    pollMs: 100,
    fromGenesis: true,
    logger,
  });
  let closed = false;
  let producing: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let txsPerBlock = options.txsPerBlock ?? 0;
  const produce = () => {
    if (closed) return;
    const block = async (c: OmnichainTestChain) => {
      if (txsPerBlock > 0) await c.traffic.fill(txsPerBlock);
      c.traffic.observe(await c.chain.produceBlock());
    };
    producing = Promise.all(chains.map(block)).finally(() => {
      if (!closed) timer = setTimeout(produce, options.blockTimeMs ?? 100);
    });
  };
  produce();
  relayer.start();
  return {
    chains,
    relayer,
    setTraffic(n) {
      txsPerBlock = n;
    },
    endpoint,
    oft,
    async close() {
      // The relayer's last pass may wait for a block, so blocks go on until it has stopped.
      await relayer.stop();
      closed = true;
      if (timer) clearTimeout(timer);
      await producing.catch(() => undefined);
      await Promise.all(chains.map((c) => c.servers.close()));
    },
  };
}
