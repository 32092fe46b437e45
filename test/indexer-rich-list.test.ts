import { createPublicClient, encodeFunctionData, type Hex, http, parseAbi } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDb } from 'weft/store/test-support/backends.js';
import type { Devnet, DevnetChain } from 'weft-devnet/devnet.js';
import { evmAddresses, omnichainOperator } from 'weft-devnet/omnichain/network.js';
import { omnichainModule } from 'weft-devnet/omnichain/network-module.js';
import { captureLogger, configFor, reached, startIndexer, testDevnet, waitFor } from './indexer-support.js';

/**
 * The rich list of a plain ERC20 (not a bank denom) whose balances were minted at genesis: the network's
 * OFT. The snapshot cannot see it through the bank, so the list must read it when it first meets it,
 * before a transfer takes its sender below zero.
 */

const SEED = 'rich-list-genesis';
const ERC20_ABI = parseAbi([
  'function transfer(address to, uint256 amount) returns (bool)',
  'function balanceOf(address) view returns (uint256)',
]);

let devnet: Devnet;
let chain: DevnetChain;

beforeAll(async () => {
  // The full network with the omnichain bridge alone: the EVM rollup gets the OFT at genesis.
  devnet = await testDevnet({
    seed: SEED,
    vms: ['evm'],
    network: 'full',
    accounts: 3,
    txsPerBlock: 0,
    blockTimeMs: 3_600_000,
    modules: [omnichainModule],
    services: [],
  });
  chain = devnet.chains.find((c) => c.vm === 'evm')!;
}, 60_000);

afterAll(() => devnet?.close());

describe('rich list of a token minted at genesis', () => {
  const testDb = useTestDb('pglite');

  it('holds the genesis balances and follows a transfer without a negative balance', async () => {
    const oft = evmAddresses(omnichainOperator(SEED, 'ethsecp256k1', 'init').hexAddress as Hex).oft;
    const client = createPublicClient({ transport: http(chain.urls.jsonRpc!) });
    const [sender, recipient, idle] = chain.accounts;
    await devnet.fastForward(2);
    const key = privateKeyToAccount(sender!.privateKey as Hex);
    const raw = await key.signTransaction({
      type: 'eip1559',
      chainId: chain.chain.info.evmChainId!,
      nonce: await client.getTransactionCount({ address: key.address }),
      to: oft,
      data: encodeFunctionData({
        abi: ERC20_ABI,
        functionName: 'transfer',
        args: [recipient!.hexAddress as Hex, 5n],
      }),
      gas: 200_000n,
      maxFeePerGas: await client.getGasPrice(),
      maxPriorityFeePerGas: 0n,
    });
    const hash = await client.sendRawTransaction({ serializedTransaction: raw });
    await devnet.fastForward(2);
    expect((await client.getTransactionReceipt({ hash })).status).toBe('success');

    const { logger, records } = captureLogger();
    const config = configFor(chain, { internalTx: false });
    const db = await testDb.fresh();
    const running = startIndexer(config, db, logger);
    try {
      await waitFor('the rich list at height 4', () => reached(running, config, 4), 30_000);
    } finally {
      await running.stop();
    }

    const rows = await db.query<{ address: Buffer; amount: string }>(
      `SELECT a.address, r.amount FROM rich_list r JOIN denom d ON d.id = r.denom_id
       JOIN account a ON a.id = r.account_id WHERE d.name = $1`,
      [oft.toLowerCase()],
    );
    const listed = new Map(rows.map((r) => [`0x${r.address.toString('hex')}`, BigInt(r.amount)]));
    for (const holder of [sender!, recipient!, idle!]) {
      const onChain = await client.readContract({
        address: oft,
        abi: ERC20_ABI,
        functionName: 'balanceOf',
        args: [holder.hexAddress as Hex],
        blockNumber: 4n,
      });
      expect(onChain).toBeGreaterThan(0n);
      expect(listed.get(holder.hexAddress.toLowerCase())).toBe(onChain);
    }
    expect(records.filter((r) => r.level >= 40).map((r) => r.msg)).toEqual([]);
  }, 60_000);
});
