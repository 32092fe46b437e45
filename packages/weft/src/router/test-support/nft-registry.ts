import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from '@cosmjs/proto-signing';
import { AminoTypes } from '@cosmjs/stargate';
import { aminoConverters, protoRegistry } from '@initia/amino-converter';
import { afterAll, beforeAll, expect } from 'vitest';
import { toBech32 } from '../../chain/address.js';
import type { NftTransferRequest } from '../msgs/nft.js';
import { loadRegistry } from '../registry/load.js';
import type { RouterRegistry } from '../registry/types.js';

/** What a wallet decodes the answered msgs with, and the proto registry it encodes them with. */
export const aminoTypes = new AminoTypes(aminoConverters);
// amino-converter types its registry with its own copy of @cosmjs/proto-signing: the same shapes.
export const protos = new Registry(protoRegistry as never);

/** Two accounts of the L1. */
export const alice = toBech32(
  'init',
  Uint8Array.from({ length: 20 }, (_, i) => i + 1),
);
export const bob = toBech32(
  'init',
  Uint8Array.from({ length: 20 }, (_, i) => 40 - i),
);

/**
 * An initia-registry folder with ICS-721 channels, which the devnet has none of: a Move L1, an EVM rollup
 * and a Wasm rollup. L1 ↔ EVM: an ICS-20 `transfer` channel and two `nft-transfer` channels, all in the
 * `_IBC` pair file; L1 ↔ Wasm: an `nft-transfer` end facing the Wasm rollup's ics721 contract
 * (`wasm.<contract>`), listed only in the chains' `metadata.ibc_channels`.
 */
export const NFT_L1 = 'nft-l1-1';
export const NFT_EVM = 'nft-evm-1';
export const NFT_WASM = 'nft-wasm-1';
/** A Move rollup with no ICS-721 channel at all. */
export const NFT_PLAIN = 'nft-plain-1';
export const ICS721_CONTRACT = toBech32(
  'init',
  Uint8Array.from({ length: 32 }, (_, i) => i + 7),
);
export const WASM_PORT = `wasm.${ICS721_CONTRACT}`;

const end = (chain_id: string, port_id: string, channel_id: string, version: string) => ({
  chain_id,
  port_id,
  channel_id,
  version,
});

const chainJson = (
  chain_id: string,
  chain_name: string,
  metadata: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) => ({
  $schema: '../chain.schema.json',
  chain_name,
  chain_id,
  pretty_name: chain_name,
  bech32_prefix: 'init',
  network_type: 'devnet',
  key_algos: ['initia_ethsecp256k1', 'secp256k1'],
  // Never asked: /nft reads the registry only.
  apis: { rpc: [{ address: 'http://127.0.0.1:9' }], rest: [{ address: 'http://127.0.0.1:9' }] },
  fees: { fee_tokens: [{ denom: 'uinit', fixed_min_gas_price: 0.015 }] },
  metadata,
  ...extra,
});

const pairChannel = (one: [string, string], two: [string, string], version: string) => ({
  chain_1: { port_id: one[0], channel_id: one[1] },
  chain_2: { port_id: two[0], channel_id: two[1] },
  ordering: 'unordered',
  version,
  tags: { status: 'live', preferred: true },
});

/** Writes the folder and answers its path. */
export function writeNftRegistry(dir = mkdtempSync(join(tmpdir(), 'weft-nft-registry-'))): string {
  const chains = [
    chainJson(NFT_L1, 'initia', {
      is_l1: true,
      ibc_channels: [
        end(NFT_EVM, 'transfer', 'channel-0', 'ics20-1'),
        end(NFT_EVM, 'nft-transfer', 'channel-1', 'ics721-1'),
        end(NFT_WASM, 'nft-transfer', 'channel-4', 'ics721-1'),
        end(NFT_EVM, 'nft-transfer', 'channel-7', 'ics721-1'),
      ],
    }),
    chainJson(
      NFT_EVM,
      'nftevm',
      {
        op_bridge_id: '1',
        op_denoms: ['uinit'],
        minitia: { type: 'minievm', version: 'v1.0.0' },
        ibc_channels: [
          end(NFT_L1, 'transfer', 'channel-0', 'ics20-1'),
          end(NFT_L1, 'nft-transfer', 'channel-2', 'ics721-1'),
          end(NFT_L1, 'nft-transfer', 'channel-3', 'ics721-1'),
        ],
      },
      { evm_chain_id: 4242 },
    ),
    chainJson(NFT_WASM, 'nftwasm', {
      op_bridge_id: '2',
      op_denoms: ['uinit'],
      minitia: { type: 'miniwasm', version: 'v1.0.0' },
      ibc_channels: [end(NFT_L1, WASM_PORT, 'channel-5', 'ics721-1')],
    }),
    chainJson(NFT_PLAIN, 'nftplain', {
      op_bridge_id: '3',
      op_denoms: ['uinit'],
      minitia: { type: 'minimove', version: 'v1.0.0' },
      ibc_channels: [],
    }),
  ];
  for (const chain of chains) {
    mkdirSync(join(dir, chain.chain_name), { recursive: true });
    writeFileSync(join(dir, chain.chain_name, 'chain.json'), JSON.stringify(chain, null, 2));
  }
  mkdirSync(join(dir, '_IBC'), { recursive: true });
  writeFileSync(
    join(dir, '_IBC', 'initia-nftevm.json'),
    JSON.stringify({
      $schema: '../ibc_data.schema.json',
      chain_1: { chain_name: 'initia', client_id: '07-tendermint-0', connection_id: 'connection-0' },
      chain_2: { chain_name: 'nftevm', client_id: '07-tendermint-0', connection_id: 'connection-0' },
      channels: [
        pairChannel(['transfer', 'channel-0'], ['transfer', 'channel-0'], 'ics20-1'),
        pairChannel(['nft-transfer', 'channel-1'], ['nft-transfer', 'channel-2'], 'ics721-1'),
        pairChannel(['nft-transfer', 'channel-7'], ['nft-transfer', 'channel-3'], 'ics721-1'),
      ],
    }),
  );
  return dir;
}

/** A `POST /nft` request in the router's terms: alice on the L1 to bob on the EVM rollup, unless `over` says. */
export const nftRequest = (nowMs: number, over: Partial<NftTransferRequest>): NftTransferRequest => ({
  fromAddress: alice,
  fromChainId: NFT_L1,
  toAddress: bob,
  toChainId: NFT_EVM,
  collectionAddress: '0xabc',
  tokenIds: ['1'],
  timeoutSeconds: 1800,
  nowMs,
  ...over,
});

/** A cw721 collection of the Wasm rollup. */
export const CW721 = toBech32(
  'init',
  Uint8Array.from({ length: 32 }, (_, i) => 200 - i),
);

/** A `send_nft` msg, decoded as the chain would: the collection, the contract it goes to and the IbcOutgoingMsg. */
export function sendNftOf(msg: { type: string; value: unknown }) {
  const decoded = walletDecode(msg).value as { sender: string; contract: string; msg: Uint8Array };
  const body = JSON.parse(Buffer.from(decoded.msg).toString()) as {
    send_nft: { contract: string; token_id: string; msg: string };
  };
  return {
    sender: decoded.sender,
    collection: decoded.contract,
    contract: body.send_nft.contract,
    tokenId: body.send_nft.token_id,
    outgoing: JSON.parse(Buffer.from(body.send_nft.msg, 'base64').toString()),
  };
}

/** What InterwovenKit does with the answer: `fromAmino` with the Initia amino types; then the proto encoding it signs. */
export function walletDecode(msg: { type: string; value: unknown }) {
  const decoded = aminoTypes.fromAmino(msg as never);
  const bytes = protos.encode(decoded);
  // Proto defaults the amino form leaves out (MsgCall's auth_list) come back empty.
  expect(protos.decode({ typeUrl: decoded.typeUrl, value: bytes })).toMatchObject(decoded.value);
  return decoded;
}

/** A test file's registry of these chains: written and loaded before its tests, removed after. */
export function useNftRegistry(loaded: (registry: RouterRegistry) => void): void {
  let dir: string;
  beforeAll(async () => {
    dir = writeNftRegistry();
    loaded(await loadRegistry(dir));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
}
