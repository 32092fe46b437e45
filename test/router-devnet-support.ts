import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createRouterServer, type RouterServer } from 'weft/router/api/server.js';
import { loadRegistry } from 'weft/router/registry/load.js';
import type { Devnet, DevnetChain, ExternalEvmChain } from 'weft-devnet/devnet.js';
import { testDevnet } from 'weft-devnet/test-support/devnet.js';
import { until } from 'weft-devnet/test-support/until.js';

/** The full devnet (the L1, a rollup of each VM, the external EVM chain) and a router on its registry. */
export interface RouterDevnet {
  devnet: Devnet;
  l1: DevnetChain;
  evmRollup: DevnetChain;
  moveRollup: DevnetChain;
  eth: ExternalEvmChain;
  /** The registry folder the devnet wrote. */
  registryDir: string;
  /** The router's base URL. */
  url: string;
  close(): Promise<void>;
}

/** Starts the devnet (blocks every 200 ms, fast OPinit outputs) and the router, once its chains have blocks. */
export async function startRouterDevnet(seed: string): Promise<RouterDevnet> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-router-'));
  const registryDir = join(dir, 'registry');
  let server: RouterServer | undefined;
  let devnet: Devnet | undefined;
  const close = async () => {
    await server?.close();
    await devnet?.close();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    devnet = await testDevnet({
      seed,
      vms: ['evm', 'move', 'wasm'],
      network: 'full',
      accounts: 3,
      txsPerBlock: 0,
      blockTimeMs: 200,
      registryDir,
      settings: { opinit: { outputIntervalMs: 1_000, finalizationPeriodMs: 2_000 } },
    });
    const net = devnet;
    net.run();
    await until('first blocks', async () => net.all.every((c) => c.chain.latestHeight() >= 2));
    server = await createRouterServer({ registry: await loadRegistry(registryDir) });
    const url = await server.listen('127.0.0.1', 0);
    return {
      devnet: net,
      l1: net.l1!,
      evmRollup: net.rollups.find((c) => c.vm === 'evm')!,
      moveRollup: net.rollups.find((c) => c.vm === 'move')!,
      eth: net.external.evm!,
      registryDir,
      url,
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * The router devnet of a test file: starts it before the file's tests and closes it after them. Its
 * fields are set once the file's `beforeAll` has run, so read them inside a test.
 */
export function useRouterDevnet(seed: string): RouterDevnet {
  const net = {} as RouterDevnet;
  beforeAll(async () => {
    Object.assign(net, await startRouterDevnet(seed));
  }, 120_000);
  afterAll(async () => {
    await net.close?.();
  }, 60_000);
  return net;
}

/** InterwovenKit's `/nft` body for a Move NFT on the L1 sent to the EVM rollup. */
export const nftBody = ({ l1, evmRollup }: RouterDevnet) => ({
  from_address: l1.accounts[0]!.address,
  from_chain_id: l1.chain.info.chainId,
  to_address: evmRollup.accounts[0]!.address,
  to_chain_id: evmRollup.chain.info.chainId,
  collection_address: `0x${'ab'.repeat(32)}`,
  token_ids: ['1'],
  object_addresses: [`0x${'cd'.repeat(32)}`],
  class_id: `move/${'ab'.repeat(32)}`,
  timeout: 600,
});
