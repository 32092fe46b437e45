import { toBech32 } from 'weft/chain/address.js';
import { bridgeAddressBytes, l2Denom } from 'weft/protocol/opinit.js';
import type { Chain } from '../chain.js';
import type { EvmModule } from '../evm/module.js';
import { type DevAccount, deriveAccount, deriveAccounts, type KeyType } from '../keys.js';
import type { ModuleBase, NetworkModule } from '../network/modules.js';
import type { ChainPlan, NetworkSettings } from '../network/plan.js';
import { L1_DENOM } from '../network/plan.js';
import type { OpinitExecutor } from '../relayers/opinit-executor.js';
import type { TrafficPlan } from '../traffic/generator.js';
import { opinitClaimPlan, opinitDepositPlan, opinitWithdrawalPlan } from '../traffic/opinit.js';
import { deployCoinWrapper } from './evm-wrapper.js';
import type { BridgeConfig } from './host-state.js';
import { OP_HOOK_FUNDER_FUNDING, opHookFunderAccount } from './op-hook-funder.js';
import { withOpchild, withOphost } from './parts.js';

/**
 * OPinit in the network: the L1 hosts one bridge per rollup (ids 1, 2, … in rollup order), every rollup
 * runs the child module with its own executor. Keys derive from the seed, so the L1's genesis, the
 * rollups' and the executor service agree without talking.
 */

export interface NetworkBridge {
  bridgeId: bigint;
  rollup: ChainPlan;
  config: BridgeConfig;
  executor: DevAccount;
}

const keyTypeOf = (plan: ChainPlan): KeyType => (plan.vm === 'evm' ? 'ethsecp256k1' : 'secp256k1');

/**
 * The proposer, challenger and batch submitter of a bridge (an L1 account); one per bridge, so that the
 * submitters of several bridges do not race for one account's sequence.
 */
export const opinitProposer = (seed: string, bridgeId: bigint) =>
  deriveAccount({
    seed,
    index: 20_100 + Number(bridgeId),
    keyType: 'secp256k1',
    prefix: 'init',
    name: `opinit-proposer-${bridgeId}`,
  });

/** The bridges of a network: one per rollup, when it has an L1. */
export function networkBridges(
  seed: string,
  network: readonly ChainPlan[],
  settings: NetworkSettings,
): NetworkBridge[] {
  const l1 = network.find((p) => p.role === 'l1');
  if (!l1) return [];
  return network
    .filter((p) => p.role === 'rollup')
    .map((rollup, i) => {
      const bridgeId = BigInt(i + 1);
      const proposer = opinitProposer(seed, bridgeId).address;
      return {
        bridgeId,
        rollup,
        config: {
          challenger: proposer,
          proposer,
          batchInfo: { submitter: proposer, chainType: 'INITIA' },
          submissionIntervalMs: settings.opinit.outputIntervalMs,
          finalizationPeriodMs: settings.opinit.finalizationPeriodMs,
          submissionStartHeight: 1,
          metadata: '',
          oracleEnabled: false,
        },
        executor: deriveAccount({
          seed,
          index: 20_000 + i + 1,
          keyType: keyTypeOf(rollup),
          prefix: 'init',
          name: `opinit-executor-${rollup.chainId}`,
        }),
      };
    });
}

// The claim traffic of an L1 uses the proofs of the executors the service starts after the chains.
const executorsByL1 = new WeakMap<Chain, OpinitExecutor[]>();

/** The executors of the bridges an L1 hosts (filled by the executor service). */
export function l1Executors(l1: Chain): OpinitExecutor[] {
  const list = executorsByL1.get(l1) ?? [];
  executorsByL1.set(l1, list);
  return list;
}

function lateClaimPlan(): TrafficPlan {
  let inner: TrafficPlan | undefined;
  return {
    name: 'opinit-claim',
    weight: 1,
    next(ctx) {
      inner ??= opinitClaimPlan(l1Executors(ctx.chain));
      return inner.next(ctx);
    },
  };
}

const accountsOf = (base: ModuleBase, plan: ChainPlan) =>
  deriveAccounts({ seed: base.seed, count: base.accounts.length, keyType: keyTypeOf(plan), prefix: 'init' });

/** The host module on the L1, with a bridge per rollup and the proposer funded. */
export const opinitHostModule: NetworkModule = {
  name: 'opinit-host',
  appliesTo: (plan, network) => plan.role === 'l1' && network.some((p) => p.role === 'rollup'),
  parts(base) {
    const bridges = networkBridges(base.seed, base.network, base.settings);
    const bank = base.own.bank ?? base.bank;
    const { parts } = withOphost(
      { modules: [], plans: [], bank },
      base,
      bridges.map((b) => b.config),
    );
    return {
      modules: parts.modules,
      async genesis(ctx) {
        await parts.genesis?.(ctx);
        for (const { bridgeId } of bridges) {
          const proposer = opinitProposer(base.seed, bridgeId).address;
          base.auth.ensure(ctx.store, proposer);
          await bank.mint(ctx, proposer, [{ denom: base.info.denom, amount: '1000000000000' }]);
        }
      },
      plans: [
        opinitDepositPlan(
          bridges.map((b) => ({
            bridgeId: b.bridgeId,
            recipients: accountsOf(base, b.rollup).map((a) => a.address),
          })),
        ),
        lateClaimPlan(),
      ],
    };
  },
};

/** The child module on every rollup of a network with an L1, its executor funded for the deposits it relays. */
export const opinitChildModule: NetworkModule = {
  name: 'opinit-child',
  appliesTo: (plan, network) => plan.role === 'rollup' && network.some((p) => p.role === 'l1'),
  parts(base) {
    const bridge = networkBridges(base.seed, base.network, base.settings).find(
      (b) => b.rollup.chainId === base.plan.chainId,
    )!;
    const l1 = base.network.find((p) => p.role === 'l1')!;
    const parts = withOpchild({ modules: [], plans: [], bank: base.own.bank ?? base.bank }, base, {
      bridge: {
        bridgeId: String(bridge.bridgeId),
        bridgeAddr: toBech32('init', bridgeAddressBytes(bridge.bridgeId)),
        l1ChainId: l1.chainId,
        l1ClientId: '07-tendermint-0',
        config: bridge.config,
      },
      executors: [bridge.executor.address],
      executorFunding: [
        {
          denom: base.info.denom,
          amount: base.plan.vm === 'evm' ? (10n ** 24n).toString() : '1000000000000',
        },
      ],
    });
    const l1Accounts = deriveAccounts({
      seed: base.seed,
      count: base.accounts.length,
      keyType: 'secp256k1',
      prefix: 'init',
    });
    // The EVM rollup wraps the bridged L1 fee asset into an ERC20 of its own (a deposit hook's target),
    // and funds the account a router creates the hooks' signers' accounts from.
    const evm = base.plan.vm === 'evm' ? (base.own.evm as EvmModule | undefined) : undefined;
    const wrapped = l2Denom(bridge.bridgeId, L1_DENOM);
    const funder = opHookFunderAccount(base.seed);
    return {
      modules: parts.modules,
      async genesis(ctx) {
        await parts.genesis?.(ctx);
        if (!evm) return;
        await deployCoinWrapper(evm, ctx, wrapped);
        base.auth.ensure(ctx.store, funder.address);
        await (base.own.bank ?? base.bank).mint(ctx, funder.address, [
          { denom: base.info.denom, amount: OP_HOOK_FUNDER_FUNDING.toString() },
        ]);
      },
      plans: [opinitWithdrawalPlan(l1Accounts.map((a) => a.address))],
    };
  },
};
