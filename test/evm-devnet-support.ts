import { createHash } from 'node:crypto';
import { createPublicClient, defineChain, http, type PublicClient } from 'viem';
import type { Devnet, DevnetChain } from 'weft-devnet/devnet.js';
import { testDevnet } from 'weft-devnet/test-support/devnet.js';

/** The hash of no tx, as the EVM JSON-RPC answers for a Cosmos tx without an Ethereum view. */
export const ZERO_HASH = `0x${'0'.repeat(64)}`;

/** The zero address, as the EVM JSON-RPC writes it. */
export const ZERO_ADDRESS = `0x${'0'.repeat(40)}`;

/** CometBFT's tx hash: uppercase hex SHA-256 of the raw tx. */
export const sha256Hex = (bytes: Uint8Array) =>
  createHash('sha256').update(bytes).digest('hex').toUpperCase();

/** An EVM rollup alone, with mixed traffic, read through viem over its JSON-RPC. */
export interface EvmDevnet {
  devnet: Devnet;
  node: DevnetChain;
  client: PublicClient;
  /** A JSON-RPC call viem has no action for. */
  rpc<T>(method: string, params: unknown[]): Promise<T>;
  close(): Promise<void>;
}

/** Starts the rollup (8 accounts, 10 txs a block) and produces `blocks` blocks at once. */
export async function startEvmDevnet(seed: string, blocks: number): Promise<EvmDevnet> {
  const devnet = await testDevnet({ seed, vms: ['evm'], accounts: 8, txsPerBlock: 10 });
  try {
    await devnet.fastForward(blocks);
    const node = devnet.chains[0]!;
    const chain = defineChain({
      id: node.chain.info.evmChainId!,
      name: node.chain.info.chainId,
      nativeCurrency: { name: 'GAS', symbol: 'GAS', decimals: 18 },
      rpcUrls: { default: { http: [node.urls.jsonRpc!] } },
    });
    const client = createPublicClient({ chain, transport: http(node.urls.jsonRpc!) });
    return {
      devnet,
      node,
      client,
      rpc: <T>(method: string, params: unknown[]) =>
        client.request({ method, params } as never) as Promise<T>,
      close: () => devnet.close(),
    };
  } catch (err) {
    await devnet.close();
    throw err;
  }
}
