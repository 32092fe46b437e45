import { ControlError } from '../control/server.js';
import type { NetworkService } from '../network/services.js';
import { networkOmnichainMembers } from '../omnichain/network-module.js';
import { createOmnichainRelayerFor, omnichainRegistry } from '../omnichain/wiring.js';
import { relayerPollMs } from './cadence.js';

/**
 * The omnichain verifier/executor over the members' node surfaces, as the control surface's `omnichain`
 * relayer; the members' endpoints and OFTs go to the registry (`metadata.omnichain`) and the manifest.
 */
export const omnichainService: NetworkService = {
  name: 'omnichain',
  appliesTo: (chains) => networkOmnichainMembers(chains.map((c) => c.plan)).length > 0,
  start(ctx) {
    const members = networkOmnichainMembers(ctx.chains.map((c) => c.plan));
    const chains = members.map((member) => {
      const chain = ctx.chains.find((c) => c.chain.info.chainId === member.chainId)!;
      return { member, chain, info: chain.chain.info, urls: chain.urls as { rpc: string; rest: string } };
    });
    const relayer = createOmnichainRelayerFor({
      seed: ctx.seed,
      chains,
      pollMs: relayerPollMs(ctx.blockTimeMs),
      logger: ctx.logger,
    });
    ctx.control.registerRelayer({
      name: 'omnichain',
      description: `OFT packets between ${members.map((m) => m.chainId).join(', ')}`,
      pause: () => relayer.pause(),
      resume: () => relayer.resume(),
      setDelay: (ms) => relayer.setDelay(ms),
      status: () => ({ paused: relayer.paused, delayMs: relayer.delayMs }),
    });
    // A delivery whose receiver reverted stays verified; anyone may have it executed again, as LayerZero's
    // executors retry `lzReceive`. params: [guid] (0x-hex, 32 bytes) or none for every failed delivery.
    ctx.control.registerMethod('weft_retryDelivery', (params) => {
      const guid = params[0];
      if (guid !== undefined && (typeof guid !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(guid))) {
        throw new ControlError(-32602, 'params[0] must be a packet guid (0x and 64 hex digits), or absent');
      }
      return { retried: relayer.retry(guid as `0x${string}` | undefined) };
    });
    const entries = omnichainRegistry(ctx.seed, members);
    let lastHeights = '';
    for (const entry of entries) {
      ctx.registry.contribute({
        chainId: entry.chain_id,
        metadata: { omnichain: entry },
        assets: [
          {
            description: 'Omnichain (OFT) devnet token',
            denom_units: [
              { denom: entry.denom, exponent: 0 },
              { denom: entry.symbol, exponent: entry.decimals },
            ],
            base: entry.denom,
            display: entry.symbol,
            name: 'Omnichain Devnet Token',
            symbol: entry.symbol,
            type_asset: entry.kind === 'evm' ? 'erc20' : 'sdk.coin',
            ...(entry.kind === 'evm' ? { address: entry.oft } : {}),
          },
        ],
      });
    }
    return {
      // Follows the steps once every member has two blocks (CometBFT's status has an app hash from height
      // 2 on), and reads the members only when one of them has a new block.
      async afterStep() {
        const heights = chains.map((c) => c.chain.chain.latestHeight());
        const seen = heights.join();
        if (heights.some((h) => h < 2) || seen === lastHeights) return;
        lastHeights = seen;
        relayer.follow();
      },
      manifest: () => ({ members: entries }),
      async close() {
        // A relay in flight waits for its block: blocks go on (without traffic) until the relayer stops.
        let stopped = false;
        const stopping = relayer.stop().finally(() => {
          stopped = true;
        });
        while (!stopped) {
          await Promise.race([stopping, new Promise((r) => setTimeout(r, ctx.blockTimeMs))]);
          if (!stopped) await Promise.all(chains.map((c) => c.chain.chain.produceBlock()));
        }
      },
    };
  },
};
