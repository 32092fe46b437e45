import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ABSENT_PATH, type WalletPage } from 'weft/dashboard/server.js';
import type { Devnet } from '../devnet.js';
import { INITIA_MODULES } from '../move/initia-modules.js';

/** The wallet page's package (InterwovenKit), kept apart so its install never weighs on weft's. */
export const WALLET_PACKAGE_DIR = fileURLToPath(new URL('../../../../wallet/', import.meta.url));

/** The one command that installs and builds the wallet page. */
export const WALLET_BUILD_COMMAND = 'npm run wallet:build';

/** The built page's folder, or undefined while it has not been built. */
export function builtWalletDir(packageDir = WALLET_PACKAGE_DIR): string | undefined {
  const dir = join(packageDir, 'dist');
  return existsSync(join(dir, 'index.html')) ? dir : undefined;
}

/**
 * What the wallet page reads at start (`wallet/src/config.ts`): the L1 as its default chain, the stack's
 * registry service and router, the serving dashboard's answers for the services weft does not run, each
 * EVM chain's JSON-RPC for the test wallet's chain switching, and the bridge form's opening assets (the
 * L1's fee asset on both sides: InterwovenKit's own defaults name Initia's public chains).
 */
export function walletPageConfig(
  devnet: Devnet,
  urls: { registry: string; router: string },
): Record<string, unknown> {
  const evmRpcUrls: Record<string, string> = {};
  for (const network of devnet.all) {
    const { evmChainId } = network.chain.info;
    const jsonRpc = (network.urls as { jsonRpc?: string }).jsonRpc;
    if (evmChainId !== undefined && jsonRpc) evmRpcUrls[String(evmChainId)] = jsonRpc;
  }
  const home = (devnet.l1 ?? devnet.chains[0]!).chain.info;
  return {
    defaultChainId: home.chainId,
    registryUrl: urls.registry,
    routerApiUrl: urls.router,
    // Resolved against the page's own origin: the server that serves the page answers these 404s.
    absent: ABSENT_PATH,
    evmRpcUrls,
    // The devnet's L1 publishes InterwovenKit's Initia modules at its own addresses, not mainnet's.
    modules: {
      usernames: INITIA_MODULES.usernames,
      lockStaking: INITIA_MODULES.lockStaking,
      clammVault: INITIA_MODULES.clammVault,
    },
    bridge: {
      srcChainId: home.chainId,
      srcDenom: home.denom,
      dstChainId: home.chainId,
      dstDenom: home.denom,
    },
  };
}

export function walletPage(dir: string | undefined, config: Record<string, unknown>): WalletPage | undefined {
  return dir ? { dir, config } : undefined;
}
