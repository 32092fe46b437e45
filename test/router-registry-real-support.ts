import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodeFunctionData, type Hex, parseAbi } from 'viem';

/**
 * The vendored snapshots of initia-registry (`test/fixtures/registry/`) read straight from their JSON,
 * without the router's loader: what the router's answers are checked against.
 */

export const REGISTRY_FIXTURES = fileURLToPath(new URL('./fixtures/registry/', import.meta.url));

export interface FixtureAsset {
  chainId: string;
  base: string;
  symbol: string;
  decimals: number;
  json: any;
}

export interface Fixture {
  dir: string;
  /** chain.json by chain id. */
  chains: Map<string, any>;
  /** Every asset of every assetlist.json, in file order. */
  assets: FixtureAsset[];
  asset(chainId: string, denom: string): FixtureAsset | undefined;
  chainIdOfName(name: string): string | undefined;
}

const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

export function readFixture(net: string): Fixture {
  const dir = join(REGISTRY_FIXTURES, net);
  const chains = new Map<string, any>();
  const assets: FixtureAsset[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (name.startsWith('_') || !existsSync(join(dir, name, 'chain.json'))) continue;
    const chain = readJson(join(dir, name, 'chain.json'));
    chains.set(chain.chain_id, chain);
    for (const json of readJson(join(dir, name, 'assetlist.json')).assets) {
      const display = json.denom_units.find((u: any) => u.denom === json.display);
      assets.push({
        chainId: chain.chain_id,
        base: json.base,
        symbol: json.symbol,
        decimals: display.exponent,
        json,
      });
    }
  }
  return {
    dir,
    chains,
    assets,
    asset: (chainId, denom) => assets.find((a) => a.chainId === chainId && a.base === denom),
    chainIdOfName: (name) => [...chains.values()].find((c) => c.chain_name === name)?.chain_id,
  };
}

const SAME_ASSET = new Set(['ibc', 'op', 'wrapped']);

/**
 * Where an asset starts, as its `traces` say: the counterparty of the first of their trailing ibc, op
 * and wrapped steps, followed again while that is a listed asset with traces of its own.
 */
export function fixtureOrigin(fixture: Fixture, chainId: string, denom: string, depth = 0): string {
  const traces: any[] = fixture.asset(chainId, denom)?.json.traces ?? [];
  let i = traces.length;
  while (i > 0 && SAME_ASSET.has(traces[i - 1].type)) i--;
  if (i === traces.length || depth > 8) return `${chainId} ${denom}`;
  const { counterparty } = traces[i];
  const from = counterparty.chain_id ?? fixture.chainIdOfName(counterparty.chain_name);
  return fixtureOrigin(fixture, from, counterparty.base_denom, depth + 1);
}

/** The ICS-20 channel a chain.json names towards another chain. */
export function transferChannel(fixture: Fixture, from: string, to: string): string | undefined {
  return fixture.chains
    .get(from)
    ?.metadata?.ibc_channels?.find((c: any) => c.chain_id === to && c.port_id === 'transfer')?.channel_id;
}

/** A rollup's OPinit bridge and the L1 denoms it carries, as its chain.json says. */
export const bridgeOf = (fixture: Fixture, chainId: string) => ({
  id: fixture.chains.get(chainId)?.metadata?.op_bridge_id as string | undefined,
  denoms: (fixture.chains.get(chainId)?.metadata?.op_denoms ?? []) as string[],
});

const HOOK_ABI = parseAbi([
  'function wrapAll() returns (uint256)',
  'function toLocal(address receiver, string remoteDenom, uint8 remoteDecimals)',
]);

/**
 * The conversion a deposit's hook must call for a token whose last trace is `wrapped`, as the trace
 * says it: minievm's ERC20Wrapper (`Decimal Wrapper`) takes the coin with its decimals (those of the L1
 * denom deposited), any other wrapper is a 1:1 `wrapAll()`.
 */
export function hookCall(dest: FixtureAsset, deposited: FixtureAsset, receiver: Hex) {
  const trace = dest.json.traces.at(-1);
  const input =
    trace.provider === 'Decimal Wrapper'
      ? encodeFunctionData({
          abi: HOOK_ABI,
          functionName: 'toLocal',
          args: [receiver, trace.counterparty.base_denom, deposited.decimals],
        })
      : encodeFunctionData({ abi: HOOK_ABI, functionName: 'wrapAll' });
  return { contract: trace.chain.contract as string, input };
}

/** A loopback URL nothing listens on: a port taken from the kernel and given back. */
export function deadUrl(): Promise<string> {
  const server = createServer();
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(`http://127.0.0.1:${port}`));
    }),
  );
}

const short = (denom: string) => (denom.length > 20 ? `${denom.slice(0, 16)}…` : denom);

/** `chain symbol denom` of a snapshot line. */
export const label = (a: FixtureAsset) => `${a.chainId} ${a.symbol} ${short(a.base)}`;

/** One Skip operation in a few words: `ibc channel-27→civitia-1`, `op#12→civitia-1`. */
export function operationWords(op: any): string {
  if (op.transfer) return `ibc ${op.transfer.channel}→${op.transfer.to_chain_id}`;
  if (op.op_init_transfer)
    return `op#${op.op_init_transfer.op_init_bridge_id}→${op.op_init_transfer.to_chain_id}`;
  if (op.layer_zero_transfer) return `oft→${op.layer_zero_transfer.to_chain_id}`;
  return Object.keys(op).join('+');
}

/**
 * A message for a snapshot line that names the pair already: without the pair it repeats, its long
 * denoms and addresses cut to their start.
 */
export const shortened = (message: string) =>
  message
    .replace(/^no route from .+? on \S+ to .+? on \S+: /, 'no route: ')
    .replace(/\b((?:ibc|l2|move|evm)\/[0-9A-Fa-f]{12})[0-9A-Fa-f]{8,}/g, '$1…')
    .replace(/\b(0x[0-9a-fA-F]{8})[0-9a-fA-F]{32}\b/g, '$1…');

/** A message with its specifics (denoms, chains, asides, numbers) masked: what groups answers by reason. */
export function reasonOf(message: string): string {
  return message
    .replace(/^no route from .+? on \S+ to .+? on \S+: /, 'no route: ')
    .replace(/\([^()]*(?:\([^()]*\)[^()]*)*\)/g, '(…)')
    .replace(/\b(?:ibc|l2|move|evm|factory)\/[\w/.…-]+/g, '<denom>')
    .replace(/\b[a-z][a-z0-9]*-\d+\b/g, '<chain>')
    .replace(/\bu[a-z]+\b(?= on )/g, '<denom>')
    .replace(/\b\d+\b/g, 'N');
}
