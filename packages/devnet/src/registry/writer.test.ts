import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { COSMOS_PLAN, ETH_PLAN, L1_PLAN, rollupPlan } from '../network/plan.js';
import type { AssetListJson, ChainJson, RegistryChain } from './types.js';
import { createRegistry } from './writer.js';

const dir = mkdtempSync(join(tmpdir(), 'weft-registry-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const chains: RegistryChain[] = [
  {
    plan: rollupPlan('move'),
    info: {
      chainId: 'weft-move-1',
      vm: 'move',
      role: 'rollup',
      bech32Prefix: 'init',
      denom: 'umin',
      minGasPrice: 0.15,
    },
    keyType: 'secp256k1',
    urls: { rpc: 'http://127.0.0.1:26650', rest: 'http://127.0.0.1:26651' },
  },
  {
    plan: rollupPlan('evm'),
    info: {
      chainId: 'weft-evm-1',
      vm: 'evm',
      role: 'rollup',
      bech32Prefix: 'init',
      denom: 'GAS',
      minGasPrice: 1e9,
      evmChainId: 123,
    },
    keyType: 'ethsecp256k1',
    urls: {
      rpc: 'http://127.0.0.1:26660',
      rest: 'http://127.0.0.1:26661',
      jsonRpc: 'http://127.0.0.1:26662',
    },
  },
  {
    plan: L1_PLAN,
    info: {
      chainId: 'weft-l1-1',
      vm: 'move',
      role: 'l1',
      bech32Prefix: 'init',
      denom: 'uinit',
      minGasPrice: 0.015,
    },
    keyType: 'secp256k1',
    urls: { rpc: 'http://127.0.0.1:26670', rest: 'http://127.0.0.1:26671' },
  },
  {
    plan: COSMOS_PLAN,
    info: {
      chainId: 'weft-cosmos-1',
      vm: 'none',
      role: 'external-cosmos',
      bech32Prefix: 'cosmos',
      denom: 'uatom',
      minGasPrice: 0.005,
    },
    keyType: 'secp256k1',
    urls: { rpc: 'http://127.0.0.1:26680', rest: 'http://127.0.0.1:26681' },
  },
  {
    plan: ETH_PLAN,
    info: {
      chainId: '31337',
      vm: 'evm',
      role: 'external-evm',
      bech32Prefix: 'init',
      denom: 'wei',
      minGasPrice: 1e9,
      evmChainId: 31337,
    },
    keyType: 'ethsecp256k1',
    urls: { jsonRpc: 'http://127.0.0.1:26692' },
  },
];

const readJson = <T>(...path: string[]) => JSON.parse(readFileSync(join(dir, ...path), 'utf8')) as T;
const ibcDenom = (path: string) => `ibc/${createHash('sha256').update(path).digest('hex').toUpperCase()}`;

describe('registry writer', () => {
  const registry = createRegistry(chains);
  // What the IBC and OPinit parts contribute: both ends of L1 ↔ move channel-0/channel-1, the bridge.
  registry.contribute({
    chainId: 'weft-l1-1',
    ibcChannels: [
      {
        chain_id: 'weft-move-1',
        port_id: 'transfer',
        channel_id: 'channel-0',
        version: 'ics20-1',
        client_id: '07-tendermint-0',
        connection_id: 'connection-0',
        counterparty: {
          port_id: 'transfer',
          channel_id: 'channel-1',
          client_id: '07-tendermint-2',
          connection_id: 'connection-3',
        },
      },
    ],
  });
  const voucher = ibcDenom('transfer/channel-1/uinit');
  registry.contribute({
    chainId: 'weft-move-1',
    ibcChannels: [
      { chain_id: 'weft-l1-1', port_id: 'transfer', channel_id: 'channel-1', version: 'ics20-1' },
    ],
    assets: [
      {
        denom_units: [{ denom: voucher, exponent: 0 }],
        base: voucher,
        display: voucher,
        name: 'Initia',
        symbol: 'INIT',
        type_asset: 'ics20',
        traces: [
          {
            type: 'ibc',
            counterparty: {
              chain_name: 'initia',
              chain_id: 'weft-l1-1',
              base_denom: 'uinit',
              channel_id: 'channel-0',
            },
            chain: { channel_id: 'channel-1', path: 'transfer/channel-1/uinit' },
          },
        ],
      },
    ],
  });
  registry.contribute({
    chainId: 'weft-move-1',
    opBridgeId: '1',
    opDenoms: ['uinit'],
    executorUri: 'http://127.0.0.1:3000',
  });
  registry.write(dir);

  it('writes a folder per chain_name and chains.json, as the registry lays them out', () => {
    expect(readdirSync(dir).sort()).toEqual([
      '_IBC',
      'chains.json',
      'cosmoshub',
      'ethereum',
      'initia',
      'weftevm',
      'weftmove',
    ]);
    for (const name of ['cosmoshub', 'ethereum', 'initia', 'weftevm', 'weftmove']) {
      expect(readdirSync(join(dir, name)).sort()).toEqual(['assetlist.json', 'chain.json']);
    }
    const all = readJson<ChainJson[]>('chains.json');
    expect(all.map((c) => c.chain_id)).toEqual(chains.map((c) => c.info.chainId));
    for (const chain of all) expect(readJson<ChainJson>(chain.chain_name, 'chain.json')).toEqual(chain);
  });

  it('fills every required chain.json field, and the router finds nodes and fees in them', () => {
    for (const chain of readJson<ChainJson[]>('chains.json')) {
      for (const key of [
        'chain_name',
        'chain_id',
        'bech32_prefix',
        'network_type',
        'apis',
        'fees',
      ] as const) {
        expect(chain[key]).toBeDefined();
      }
      expect(chain.network_type).toBe('devnet');
      expect(chain.fees.fee_tokens[0]!.fixed_min_gas_price).toBeGreaterThan(0);
    }
    const l1 = readJson<ChainJson>('initia', 'chain.json');
    expect(l1).toMatchObject({
      chain_id: 'weft-l1-1',
      bech32_prefix: 'init',
      key_algos: ['secp256k1'],
      slip44: 118,
      fees: { fee_tokens: [{ denom: 'uinit', fixed_min_gas_price: 0.015 }] },
      apis: { rpc: [{ address: 'http://127.0.0.1:26670' }], rest: [{ address: 'http://127.0.0.1:26671' }] },
    });
    expect(l1.metadata.is_l1).toBe(true);
    expect(l1.metadata.op_bridge_id).toBeUndefined();
    const evm = readJson<ChainJson>('weftevm', 'chain.json');
    expect(evm).toMatchObject({ evm_chain_id: 123, key_algos: ['initia_ethsecp256k1'], slip44: 60 });
    expect(evm.apis['json-rpc']).toEqual([{ address: 'http://127.0.0.1:26662', provider: 'weft devnet' }]);
    expect(evm.metadata.minitia).toEqual({ type: 'minievm', version: 'v1.1.0' });
    const eth = readJson<ChainJson>('ethereum', 'chain.json');
    expect(eth).toMatchObject({ chain_id: '31337', evm_chain_id: 31337, apis: { rpc: [], rest: [] } });
    expect(eth.metadata.ibc_channels).toBeUndefined();
    expect(readJson<ChainJson>('cosmoshub', 'chain.json')).toMatchObject({
      bech32_prefix: 'cosmos',
      metadata: { ibc_channels: [] },
    });
  });

  it('carries the contributed channels and OPinit bridge into the metadata the router builds its edges from', () => {
    const move = readJson<ChainJson>('weftmove', 'chain.json');
    expect(move.metadata).toMatchObject({
      op_bridge_id: '1',
      op_denoms: ['uinit'],
      executor_uri: 'http://127.0.0.1:3000',
      minitia: { type: 'minimove' },
    });
    // The router's IBC edges: ICS-20 channels of each chain, matched with the counterparty's channel back.
    const all = readJson<ChainJson[]>('chains.json');
    const edges = all.flatMap((c) =>
      (c.metadata.ibc_channels ?? [])
        .filter((ch) => ch.port_id === 'transfer')
        .map((ch) => `${c.chain_id}/${ch.channel_id} -> ${ch.chain_id}`),
    );
    expect(edges).toEqual(['weft-move-1/channel-1 -> weft-l1-1', 'weft-l1-1/channel-0 -> weft-move-1']);
    expect(
      Object.keys(readJson<ChainJson>('initia', 'chain.json').metadata.ibc_channels![0]!).sort(),
    ).toEqual(['chain_id', 'channel_id', 'port_id', 'version']);
    expect(readJson('_IBC', 'initia-weftmove.json')).toEqual({
      $schema: '../ibc_data.schema.json',
      chain_1: { chain_name: 'initia', client_id: '07-tendermint-0', connection_id: 'connection-0' },
      chain_2: { chain_name: 'weftmove', client_id: '07-tendermint-2', connection_id: 'connection-3' },
      channels: [
        {
          chain_1: { channel_id: 'channel-0', port_id: 'transfer' },
          chain_2: { channel_id: 'channel-1', port_id: 'transfer' },
          ordering: 'unordered',
          version: 'ics20-1',
          tags: { status: 'live', preferred: true },
        },
      ],
    });
  });

  it('lists each chain fee token first and the contributed assets, whose IBC trace hashes to the denom', () => {
    const l1 = readJson<AssetListJson>('initia', 'assetlist.json');
    expect(l1.chain_name).toBe('initia');
    expect(l1.assets).toEqual([
      expect.objectContaining({
        base: 'uinit',
        display: 'INIT',
        symbol: 'INIT',
        denom_units: [
          { denom: 'uinit', exponent: 0 },
          { denom: 'INIT', exponent: 6 },
        ],
      }),
    ]);
    const move = readJson<AssetListJson>('weftmove', 'assetlist.json');
    expect(move.assets.map((a) => a.base)).toEqual(['umin', voucher]);
    const trace = move.assets[1]!.traces![0] as {
      chain: { path: string };
      counterparty: { base_denom: string };
    };
    expect(ibcDenom(trace.chain.path)).toBe(move.assets[1]!.base);
    expect(trace.counterparty.base_denom).toBe('uinit');
    const eth = readJson<AssetListJson>('ethereum', 'assetlist.json');
    expect(eth.assets[0]).toMatchObject({ base: 'wei', display: 'eth', symbol: 'ETH' });
    expect(eth.assets[0]!.denom_units.at(-1)).toEqual({ denom: 'eth', exponent: 18 });
  });

  it('rewrites the written folder when a part contributes later', () => {
    registry.contribute({
      chainId: '31337',
      metadata: { oft_endpoint: '0x1a44076050125825900e736c501f859c50fe728c' },
    });
    expect(readJson<ChainJson>('ethereum', 'chain.json').metadata.oft_endpoint).toBe(
      '0x1a44076050125825900e736c501f859c50fe728c',
    );
    expect(readJson<ChainJson[]>('chains.json')[4]!.metadata.oft_endpoint).toBeDefined();
  });

  it('refuses a contribution to a chain the network does not have', () => {
    expect(() => registry.contribute({ chainId: 'weft-nope-1', opBridgeId: '9' })).toThrow(
      /no chain weft-nope-1/,
    );
  });
});
