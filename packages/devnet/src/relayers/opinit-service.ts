import { getAddress } from 'viem';
import { l2Denom } from 'weft/protocol/opinit.js';
import type { NetworkChain } from '../devnet.js';
import { evmKeys } from '../evm/state-keys.js';
import type { NetworkService } from '../network/services.js';
import { coinWrapperAddress, coinWrapperAsset } from '../opinit/evm-wrapper.js';
import { l1Executors, networkBridges, opinitProposer } from '../opinit/network.js';
import { type OpinitRelayers, startOpinitRelayers } from './opinit-relayers.js';
import type { RelayerControl } from './opinit-schedule.js';

/** A relayer as the control surface drives it; `wake` makes a resume or a new delay act at once. */
const controlOf = (name: string, description: string, relayer: RelayerControl, wake: () => void) => ({
  name,
  description,
  pause: () => relayer.pause(),
  resume: () => {
    relayer.resume();
    wake();
  },
  setDelay: (ms: number) => {
    relayer.setDelay(ms);
    wake();
  },
  status: () => ({ paused: relayer.paused, delayMs: relayer.delayMs }),
});

/**
 * One executor and output submitter per bridge of the network, each executor with its HTTP surface;
 * registered with the control surface, published in the manifest and the registry (`executor_uri`,
 * `op_bridge_id`, `op_denoms`, the `l2/…` asset of the L1's fee denom).
 */
export const opinitService: NetworkService = {
  name: 'opinit',
  appliesTo: (chains) => chains.some((c) => c.role === 'l1') && chains.some((c) => c.role === 'rollup'),
  async start(ctx) {
    const l1 = ctx.chains.find((c) => c.role === 'l1')!;
    const bridges = networkBridges(
      ctx.seed,
      ctx.chains.map((c) => c.plan),
      ctx.settings,
    );
    const l1Denom = l1.chain.info.denom;
    const started: Array<{ chain: NetworkChain; bridgeId: bigint; relayers: OpinitRelayers }> = [];
    try {
      for (const bridge of bridges) {
        const rollup = ctx.chains.find((c) => c.chain.info.chainId === bridge.rollup.chainId)!;
        const relayers = await startOpinitRelayers({
          bridgeId: bridge.bridgeId,
          l1: l1.chain,
          l2: rollup.chain,
          executor: bridge.executor,
          proposer: opinitProposer(ctx.seed, bridge.bridgeId),
          outputIntervalMs: ctx.settings.opinit.outputIntervalMs,
          host: ctx.host,
          logger: ctx.logger.child({ bridgeId: String(bridge.bridgeId) }),
        });
        started.push({ chain: rollup, bridgeId: bridge.bridgeId, relayers });
      }
    } catch (err) {
      await Promise.all(started.map((s) => s.relayers.close()));
      throw err;
    }
    const executors = l1Executors(l1.chain);
    for (const { chain, bridgeId, relayers } of started) {
      const id = chain.chain.info.chainId;
      const path = `${l1.chain.info.chainId} -> ${id}, bridge ${bridgeId}`;
      executors.push(relayers.executor);
      ctx.control.registerRelayer(
        controlOf(`opinit-executor-${id}`, `deposits ${path}`, relayers.executor, relayers.wake),
      );
      ctx.control.registerRelayer(
        controlOf(
          `opinit-submitter-${id}`,
          `outputs ${id} -> ${l1.chain.info.chainId}`,
          relayers.submitter,
          relayers.wake,
        ),
      );
      const denom = l2Denom(bridgeId, l1Denom);
      // On the EVM rollup, the wrapper deployed at genesis over the coin's ERC20 (see evm-wrapper.ts).
      const underlying =
        chain.plan.vm === 'evm' ? chain.chain.state().get(evmKeys.contractOfDenom(denom)) : undefined;
      const wrapperAssets = underlying
        ? [
            coinWrapperAsset({
              chainName: chain.plan.chainName,
              chainId: id,
              wrapper: coinWrapperAddress(getAddress(`0x${underlying}`)),
              underlyingDenom: denom,
            }),
          ]
        : [];
      ctx.registry.contribute({
        chainId: id,
        opBridgeId: String(bridgeId),
        opDenoms: [l1Denom],
        executorUri: relayers.executorUrl,
        assets: [
          {
            description: 'INIT bridged from the L1 through OPinit',
            denom_units: [
              { denom, exponent: 0 },
              { denom: 'INIT', exponent: 6 },
            ],
            base: denom,
            display: 'INIT',
            name: 'Initia',
            symbol: 'INIT',
            traces: [
              {
                type: 'op',
                counterparty: { chain_name: l1.plan.chainName, base_denom: l1Denom },
                chain: { bridge_id: String(bridgeId) },
              },
            ],
          },
          ...wrapperAssets,
        ],
      });
    }
    return {
      // Relay what the blocks of this step emitted; between steps only a wait that ends wakes them.
      async afterStep() {
        await Promise.all(started.map((s) => s.relayers.poll()));
      },
      manifest: () => ({
        l1: l1.chain.info.chainId,
        output_interval_ms: ctx.settings.opinit.outputIntervalMs,
        finalization_period_ms: ctx.settings.opinit.finalizationPeriodMs,
        bridges: started.map(({ chain, bridgeId, relayers }) => ({
          chain_id: chain.chain.info.chainId,
          bridge_id: String(bridgeId),
          executor_uri: relayers.executorUrl,
          l2_denom: l2Denom(bridgeId, l1Denom),
        })),
      }),
      async close() {
        await Promise.all(started.map((s) => s.relayers.close()));
      },
    };
  },
};
