import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Devnet } from 'weft-devnet/devnet.js';
import { testDevnet } from 'weft-devnet/test-support/devnet.js';
import { loadRegistry } from './load.js';

const dir = mkdtempSync(join(tmpdir(), 'weft-registry-'));
let devnet: Devnet;
let server: Server;
let base = '';

/** Serves `root` as files over HTTP on loopback, as a registry web service would. */
function serveFolder(root: string): Promise<string> {
  server = createServer((request, response) => {
    try {
      const body = readFileSync(join(root, decodeURIComponent(new URL(request.url!, 'http://x').pathname)));
      response.writeHead(200, { 'content-type': 'application/json' }).end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}`),
    ),
  );
}

describe('loadRegistry from a URL', () => {
  beforeAll(async () => {
    devnet = await testDevnet({
      seed: 'registry-url',
      vms: ['evm', 'move'],
      accounts: 1,
      txsPerBlock: 0,
      registryDir: join(dir, 'folder'),
    });
    base = await serveFolder(join(dir, 'site'));
  }, 60_000);

  afterAll(async () => {
    server?.close();
    await devnet?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("reads each chain's asset list where metadata.assetlist points, as registry.initia.xyz publishes them", async () => {
    // The web layout: chains.json at the root, asset lists under chains/<chain_name>/, named by URL.
    const folder = join(dir, 'folder');
    const chains = JSON.parse(readFileSync(join(folder, 'chains.json'), 'utf8')) as Array<{
      chain_name: string;
      metadata?: object;
    }>;
    for (const chain of chains) {
      cpSync(
        join(folder, chain.chain_name, 'assetlist.json'),
        join(dir, 'site', 'chains', chain.chain_name, 'assetlist.json'),
      );
      chain.metadata = { ...chain.metadata, assetlist: `${base}/chains/${chain.chain_name}/assetlist.json` };
    }
    writeFileSync(join(dir, 'site', 'chains.json'), JSON.stringify(chains));

    const fromFolder = await loadRegistry(folder);
    const fromUrl = await loadRegistry(base);
    expect(fromFolder.assets.length).toBeGreaterThanOrEqual(2);
    expect(fromUrl.chains.map((c) => c.chainId)).toEqual(fromFolder.chains.map((c) => c.chainId));
    expect(fromUrl.assets).toEqual(fromFolder.assets);

    // Without metadata.assetlist, chains/<chain_name>/assetlist.json beside chains.json is found too.
    for (const chain of chains) delete (chain.metadata as { assetlist?: string }).assetlist;
    writeFileSync(join(dir, 'site', 'chains.json'), JSON.stringify(chains));
    expect((await loadRegistry(base)).assets).toEqual(fromFolder.assets);
  });
});

/** A chain.json as initia-registry writes one: an L1 or a rollup with its channels. */
const chainJson = (chain_id: string, chain_name: string, metadata: object) => ({
  chain_id,
  chain_name,
  bech32_prefix: 'init',
  network_type: 'mainnet',
  apis: { rpc: [{ address: 'http://127.0.0.1:9' }], rest: [{ address: 'http://127.0.0.1:9' }] },
  metadata,
});

const WASM_ICS721 = 'wasm.init1wug8sewp6cedgkmrmvhl3lf3tulagm9hnvy8p0rppz9yjw0g4wtq7947m6';
const FEE_ICS20 = '{"fee_version":"ics29-1","app_version":"ics20-1"}';
const FEE_ICS721 = '{"fee_version":"ics29-1","app_version":"ics721-1"}';

const l1 = chainJson('l1-1', 'initia', {
  is_l1: true,
  ibc_channels: [
    { chain_id: 'roll-1', port_id: 'transfer', channel_id: 'channel-69', version: FEE_ICS20 },
    { chain_id: 'roll-1', port_id: WASM_ICS721, channel_id: 'channel-70', version: FEE_ICS721 },
    { chain_id: 'evm-1', port_id: 'nft-transfer', channel_id: 'channel-71', version: 'ics721-1' },
    { chain_id: 'noble-1', port_id: 'transfer', channel_id: 'channel-3', version: 'ics20-1' },
  ],
});
const evmRollup = chainJson('evm-1', 'evmroll', {
  op_bridge_id: '42',
  ibc_channels: [{ chain_id: 'l1-1', port_id: 'nft-transfer', channel_id: 'channel-1', version: 'ics721-1' }],
});
const rollup = chainJson('roll-1', 'rollup', {
  op_bridge_id: '32',
  op_denoms: ['uinit'],
  minitia: { type: 'miniwasm', version: 'v1.1.1' },
  ibc_channels: [
    { chain_id: 'l1-1', port_id: 'transfer', channel_id: 'channel-0', version: FEE_ICS20 },
    { chain_id: 'l1-1', port_id: WASM_ICS721, channel_id: 'channel-1', version: FEE_ICS721 },
  ],
});
const asset = (base: string | undefined, symbol: string, traces?: object[]) => ({
  ...(base === undefined ? {} : { base }),
  symbol,
  name: symbol,
  display: symbol,
  denom_units: [
    { denom: base ?? symbol, exponent: 0 },
    { denom: symbol, exponent: 6 },
  ],
  ...(traces ? { traces } : {}),
});

/** A registry folder of `files` (path → JSON value, or raw text), read with its warnings. */
async function loadFolder(files: Record<string, unknown>, folder = 'registry') {
  const root = mkdtempSync(join(tmpdir(), 'weft-registry-files-'));
  try {
    for (const [path, value] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), typeof value === 'string' ? value : JSON.stringify(value));
    }
    const warnings: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => warnings.push(JSON.parse(line).msg) });
    const registry = await loadRegistry(join(root, folder), {}, { logger });
    return { registry, warnings: warnings.map((w) => w.replaceAll(`${root}/`, '')) };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const files = {
  'registry/initia/chain.json': l1,
  'registry/initia/assetlist.json': { assets: [asset('uinit', 'INIT')] },
  'registry/rollup/chain.json': rollup,
  'registry/evmroll/chain.json': evmRollup,
};

/** A chain.json with more `metadata.ibc_channels` ends. */
const withEnds = (chain: ReturnType<typeof chainJson>, ...ends: object[]) => ({
  ...chain,
  metadata: { ...chain.metadata, ibc_channels: [...(chain.metadata as any).ibc_channels, ...ends] },
});

describe('loading a registry with broken or unknown entries', () => {
  it('skips a chain.json without chain_id, or that is not JSON, naming it; the rest loads', async () => {
    const { registry, warnings } = await loadFolder({
      ...files,
      'registry/broken/chain.json': { ...chainJson('', 'broken', {}), chain_id: undefined },
      'registry/garbled/chain.json': '{"chain_id": "garbled-1",',
    });
    expect(registry.chains.map((c) => c.chainId)).toEqual(['evm-1', 'l1-1', 'roll-1']);
    expect(warnings).toContainEqual('registry/broken/chain.json (broken): has no chain_id: skipped');
    expect(warnings).toContainEqual(
      expect.stringMatching(/^registry\/garbled\/chain\.json: not JSON \(.+\): skipped$/),
    );
  });

  it('skips an asset without base, naming its file, index and symbol; the rest of the list loads', async () => {
    const { registry, warnings } = await loadFolder({
      ...files,
      'registry/initia/assetlist.json': { assets: [asset(undefined, 'NOBASE'), asset('uinit', 'INIT')] },
    });
    expect(registry.assets.map((a) => a.denom)).toEqual(['uinit']);
    expect(warnings).toEqual(['registry/initia/assetlist.json: assets[0] (NOBASE) has no base: skipped']);
  });

  it('skips an _IBC file that names a chain the registry does not list; channels join from chain.json', async () => {
    const { registry, warnings } = await loadFolder({
      ...files,
      'registry/_IBC/initia-minimove.json': {
        chain_1: { chain_name: 'initia' },
        chain_2: { chain_name: 'minimove' },
        channels: [
          {
            chain_1: { channel_id: 'channel-0', port_id: 'transfer' },
            chain_2: { channel_id: 'channel-0', port_id: 'transfer' },
          },
        ],
      },
    });
    expect(warnings).toContainEqual(
      'registry/_IBC/initia-minimove.json: names "minimove", not a chain_name of the registry: skipped',
    );
    expect(registry.chain('l1-1')!.ibcChannels).toMatchObject([
      { counterpartyChainId: 'roll-1', channelId: 'channel-69', counterpartyChannelId: 'channel-0' },
    ]);
  });

  it('reads ICS-20 behind a fee middleware as a transfer channel, ICS-721 ports (nft-transfer, wasm.<addr>) as NFT channels, and skips other ports with a warning', async () => {
    const { registry, warnings } = await loadFolder({
      ...files,
      'registry/initia/chain.json': withEnds(l1, {
        chain_id: 'roll-1',
        port_id: 'icahost',
        channel_id: 'channel-72',
        version: 'ics27-1',
      }),
      // A cw20-ics20 contract's port: ICS-20 packets, but not the transfer module's.
      'registry/rollup/chain.json': withEnds(rollup, {
        chain_id: 'l1-1',
        port_id: 'wasm.init1cw20ics20',
        channel_id: 'channel-2',
        version: 'ics20-1',
      }),
    });
    const [l1Chain, rollupChain] = [registry.chain('l1-1')!, registry.chain('roll-1')!];
    // The fee-middleware version is kept as the registry gives it; the channel is ICS-20 all the same.
    expect(rollupChain.ibcChannels).toEqual([
      {
        counterpartyChainId: 'l1-1',
        portId: 'transfer',
        channelId: 'channel-0',
        counterpartyChannelId: 'channel-69',
        version: FEE_ICS20,
      },
    ]);
    // interwoven-1 lists its end towards the Wasm rollup with the rollup's contract port: the L1's own end
    // is its nft-transfer module, the contract port the far end's.
    expect(l1Chain.nftChannels.map((c) => [c.portId, c.channelId, c.counterpartyPortId])).toEqual([
      ['nft-transfer', 'channel-70', WASM_ICS721],
      ['nft-transfer', 'channel-71', 'nft-transfer'],
    ]);
    expect(rollupChain.nftChannels).toMatchObject([
      {
        portId: WASM_ICS721,
        channelId: 'channel-1',
        counterpartyChannelId: 'channel-70',
        counterpartyPortId: 'nft-transfer',
      },
    ]);
    expect(warnings).toEqual([
      'registry/initia/chain.json: metadata.ibc_channels[4]: port icahost with version "ics27-1" is neither ICS-20 transfer nor ICS-721: skipped',
      'registry/rollup/chain.json: metadata.ibc_channels[2]: port wasm.init1cw20ics20 with version "ics20-1" is neither ICS-20 transfer nor ICS-721: skipped',
    ]);
  });

  it('keeps an asset whose trace is broken, leaving the trace out; a voucher no trace path hashes to is named', async () => {
    const voucher = 'ibc/6490A7EAB61059BFC1CDDEB05917DD70BDF3A611654162A1A47DB930D40D8AF4';
    const { registry, warnings } = await loadFolder({
      ...files,
      'registry/initia/assetlist.json': {
        assets: [
          asset('uinit', 'INIT'),
          asset(voucher, 'USDC', [
            { type: 'ibc', counterparty: { chain_name: 'noble', base_denom: 'uusdc' }, chain: {} },
          ]),
        ],
      },
    });
    expect(registry.asset('l1-1', voucher)).toMatchObject({ symbol: 'USDC', traces: [], ibcPath: undefined });
    expect(warnings).toEqual([
      `registry/initia/assetlist.json: assets[1] (${voucher}): traces[0] (ibc) has no chain.path: left out`,
      `registry/initia/assetlist.json: assets[1] (${voucher}): no ibc trace's chain.path hashes to it: routes cannot tell where it comes from`,
    ]);
  });

  it("reads the profiles beside mainnets/: a retired rollup's chain id keeps its name", async () => {
    const { registry } = await loadFolder(
      {
        'mainnets/initia/chain.json': l1,
        'profiles/embr.json': {
          name: 'embr',
          pretty_name: 'Embr',
          chain_id: 'embrmainnet-1',
          status: 'hidden',
          op_bridge_id: '29',
        },
        'profiles/contro.json': { name: 'contro', pretty_name: 'Contro', status: 'upcoming' },
      },
      'mainnets',
    );
    expect(registry.profile('embrmainnet-1')).toEqual({
      chainId: 'embrmainnet-1',
      name: 'embr',
      prettyName: 'Embr',
      status: 'hidden',
      opBridgeId: '29',
    });
    expect(registry.chain('embrmainnet-1')).toBeUndefined();
  });
});
