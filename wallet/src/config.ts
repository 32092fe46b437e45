/**
 * What the page needs of the stack, read at start from `config.json` beside it (written by `weft dev`),
 * so one build serves any stack. Every InterwovenKit service URL weft does not provide points at the
 * serving dashboard (`absent`), which answers as a network without that service would (no LP tokens, no
 * vesting positions) or a JSON 404: nothing is asked of a host beyond the stack.
 */
export interface WalletPageConfig {
  defaultChainId: string;
  registryUrl: string;
  routerApiUrl: string;
  /** Base URL (absolute, or a path of the page's server) of the services weft does not run: glyph, DEX, VIP, Minity. */
  absent: string;
  /** EVM JSON-RPC URL per EVM chain id, for the test wallet's chain switching. */
  evmRpcUrls: Record<string, string>;
  /** Move module addresses of the L1's usernames, lock staking and CLAMM vaults. */
  modules: { usernames: string; lockStaking: string; clammVault: string };
  /** The bridge form's opening assets: InterwovenKit's own defaults name Initia's public chains. */
  bridge: { srcChainId: string; srcDenom: string; dstChainId: string; dstDenom: string };
}

export async function loadConfig(): Promise<WalletPageConfig> {
  const response = await fetch('./config.json', { cache: 'no-store' });
  if (!response.ok) throw new Error(`config.json: HTTP ${response.status}`);
  const config = (await response.json()) as WalletPageConfig;
  return { ...config, absent: new URL(config.absent, location.href).href.replace(/\/$/, '') };
}

/**
 * A test wallet's key from the page's fragment (`#key=0x…`, never sent to a server): the devnet's keys
 * are public, and a browser test signs with one. Without it the page offers the browser's wallets.
 */
export function testKey(): `0x${string}` | undefined {
  const key = new URLSearchParams(location.hash.slice(1)).get('key');
  return key && /^0x[0-9a-fA-F]{64}$/.test(key) ? (key as `0x${string}`) : undefined;
}
