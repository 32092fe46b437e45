import { toBech32 } from 'weft/chain/address.js';
import { silentLogger } from 'weft/common/logger.js';
import { bridgeAddressBytes } from 'weft/protocol/opinit.js';
import { type DevAccount, deriveAccount } from '../keys.js';
import type { BridgeConfig } from '../opinit/host-state.js';
import { withOpchild, withOphost } from '../opinit/parts.js';
import type { OpinitExecutor } from '../relayers/opinit-executor.js';
import type { OutputSubmitter } from '../relayers/opinit-output-submitter.js';
import { startOpinitRelayers } from '../relayers/opinit-relayers.js';
import { createRollup, type Rollup } from '../rollup.js';
import { type NodeServers, startNodeServers } from '../servers/index.js';
import type { VmType } from '../types.js';
import { vmParts } from '../vms.js';

export interface OpinitTestbedChain extends Rollup {
  servers: NodeServers;
}

export interface OpinitTestbed {
  host: OpinitTestbedChain;
  child: OpinitTestbedChain;
  bridgeId: bigint;
  executor: OpinitExecutor;
  submitter: OutputSubmitter;
  executorAccount: DevAccount;
  proposer: DevAccount;
  executorUrl: string;
  /** One block on each chain, then one poll of the relayers (which also poll on their own timer). */
  step(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Two devnet chains joined by one OPinit bridge: a move chain playing the host (the L1's part) and a
 * rollup of `childVm` with the child module, the executor (with its HTTP surface) and the output
 * submitter, each chain behind its node servers on loopback.
 */
export async function createOpinitTestbed(options: {
  childVm: Exclude<VmType, 'move'>;
  finalizationPeriodMs: number;
  outputIntervalMs?: number;
  seed?: string;
}): Promise<OpinitTestbed> {
  const seed = options.seed ?? 'opinit';
  const logger = silentLogger();
  const bridgeId = 1n;
  const proposer = deriveAccount({
    seed,
    index: 20_000,
    keyType: 'secp256k1',
    prefix: 'init',
    name: 'proposer',
  });
  const config: BridgeConfig = {
    challenger: proposer.address,
    proposer: proposer.address,
    batchInfo: { submitter: proposer.address, chainType: 'INITIA' },
    submissionIntervalMs: options.outputIntervalMs ?? 0,
    finalizationPeriodMs: options.finalizationPeriodMs,
    submissionStartHeight: 1,
    metadata: '',
    oracleEnabled: false,
  };
  const host = await createRollup(
    { vm: 'move', chainId: 'weft-host-1', seed, accounts: 3, blockTimeMs: 1000, logger },
    async (base) => {
      const parts = await vmParts('move', { ...base, seed, logger });
      const withHost = withOphost(parts, base, [config]);
      const genesis = withHost.parts.genesis!;
      return {
        ...withHost.parts,
        async genesis(ctx) {
          await genesis(ctx);
          base.auth.ensure(ctx.store, proposer.address);
          await base.bank.mint(ctx, proposer.address, [{ denom: base.info.denom, amount: '1000000000000' }]);
        },
      };
    },
  );
  const keyType = options.childVm === 'evm' ? 'ethsecp256k1' : 'secp256k1';
  const executorAccount = deriveAccount({ seed, index: 20_001, keyType, prefix: 'init', name: 'executor' });
  const child = await createRollup(
    {
      vm: options.childVm,
      chainId: `weft-${options.childVm}-child-1`,
      seed,
      accounts: 3,
      blockTimeMs: 1000,
      logger,
    },
    async (base) =>
      withOpchild(await vmParts(options.childVm, { ...base, seed, logger }), base, {
        bridge: {
          bridgeId: String(bridgeId),
          bridgeAddr: toBech32('init', bridgeAddressBytes(bridgeId)),
          l1ChainId: 'weft-host-1',
          l1ClientId: '07-tendermint-0',
          config,
        },
        executors: [executorAccount.address],
        executorFunding: [
          {
            denom: base.info.denom,
            amount: options.childVm === 'evm' ? (10n ** 24n).toString() : '1000000000000',
          },
        ],
      }),
  );
  const serve = (chain: Rollup['chain']) => startNodeServers(chain, { host: '127.0.0.1' });
  const hostChain = { ...host, servers: await serve(host.chain) };
  const childChain = { ...child, servers: await serve(child.chain) };
  const relayers = await startOpinitRelayers({
    bridgeId,
    l1: host.chain,
    l2: child.chain,
    executor: executorAccount,
    proposer,
    outputIntervalMs: options.outputIntervalMs ?? 0,
    logger,
  });
  return {
    host: hostChain,
    child: childChain,
    bridgeId,
    executor: relayers.executor,
    submitter: relayers.submitter,
    executorAccount,
    proposer,
    executorUrl: relayers.executorUrl,
    async step() {
      await host.chain.produceBlock();
      await child.chain.produceBlock();
      await relayers.poll();
    },
    async close() {
      await relayers.close();
      await hostChain.servers.close();
      await childChain.servers.close();
    },
  };
}
