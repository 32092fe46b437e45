import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Secp256k1, Secp256k1Signature } from '@cosmjs/crypto';
import { Comet38Client } from '@cosmjs/tendermint-rpc';
import { RESTClient, Tx } from '@initia/initia.js';
import { AuthInfo, SignDoc, TxBody, TxRaw } from '@initia/initia.proto/cosmos/tx/v1beta1/tx.js';
import { createPublicClient, createWalletClient, defineChain, type Hex, http, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeAny } from 'weft/chain/registry.js';
import type { Devnet, DevnetChain, ExternalCosmosChain } from 'weft-devnet/devnet.js';
import type { ChainJson } from 'weft-devnet/registry/types.js';
import { testDevnet } from 'weft-devnet/test-support/devnet.js';
import { signTx } from 'weft-devnet/tx/sign.js';

/**
 * Acceptance, network half: independent real clients read the L1 and the external Cosmos chain as they
 * read the rollups (Comet38Client, initia.js RESTClient, protobuf decoding and signature verification of
 * every tx); viem reads the external EVM chain and a viem wallet client sends it a tx. The registry and
 * the manifest name every chain with URLs that answer.
 */

const BLOCKS = 40;
const dir = mkdtempSync(join(tmpdir(), 'weft-network-'));
let devnet: Devnet;

beforeAll(async () => {
  devnet = await testDevnet({
    seed: 'network',
    vms: ['move'],
    network: 'full',
    accounts: 6,
    txsPerBlock: 8,
    registryDir: join(dir, 'registry'),
  });
  await devnet.fastForward(BLOCKS);
}, 300_000);

afterAll(async () => {
  await devnet?.close();
  rmSync(dir, { recursive: true, force: true });
});

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest();

/** Verifies a SIGN_MODE_DIRECT signature with cosmjs' secp256k1, not with the devnet's own code. */
async function verifyDirect(raw: Uint8Array, chainId: string, accountNumber: bigint): Promise<boolean> {
  const txRaw = TxRaw.decode(raw);
  const info = AuthInfo.decode(txRaw.authInfoBytes).signerInfos[0]!;
  const key = info.publicKey!.value.subarray(2); // the PubKey proto: field 1, length 33
  const signDoc = SignDoc.encode({
    bodyBytes: txRaw.bodyBytes,
    authInfoBytes: txRaw.authInfoBytes,
    chainId,
    accountNumber,
  }).finish();
  return Secp256k1.verifySignature(
    Secp256k1Signature.fromFixedLength(txRaw.signatures[0]!),
    sha256(signDoc),
    key,
  );
}

/** The L1 or the external Cosmos chain of the network. */
const cosmosChain = (role: 'l1' | 'external-cosmos'): DevnetChain | ExternalCosmosChain =>
  role === 'l1' ? devnet.l1! : devnet.external.cosmos!;

describe('the network', () => {
  it('runs the rollups, the L1 and the external chains, each with its role, ports and registry entry', async () => {
    const manifest = devnet.manifest();
    expect(manifest.network).toBe('full');
    expect(manifest.chains.map((c) => [c.chain_id, c.chain_name, c.role, c.vm])).toEqual([
      ['weft-move-1', 'weftmove', 'rollup', 'move'],
      ['weft-l1-1', 'initia', 'l1', 'move'],
      ['weft-cosmos-1', 'cosmoshub', 'external-cosmos', null],
      ['31337', 'ethereum', 'external-evm', 'evm'],
    ]);
    expect(manifest.chains.map((c) => [c.denom, c.bech32_prefix])).toEqual([
      ['umin', 'init'],
      ['uinit', 'init'],
      ['uatom', 'cosmos'],
      ['wei', 'init'],
    ]);
    expect(manifest.chains[2]!.accounts[0]!.address).toMatch(/^cosmos1/);
    expect(manifest.chains[3]).toMatchObject({ rpc: null, rest: null, evm_chain_id: 31337 });
    expect(manifest.registry).toBe(join(dir, 'registry'));
    const control = await fetch(manifest.control, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'weft_relayers', params: [] }),
    });
    expect(((await control.json()) as { result: unknown[] }).result).toEqual(
      devnet.control.relayers().map(() => expect.anything()),
    );

    // Every registry entry names nodes that answer as that chain.
    const chains = JSON.parse(readFileSync(join(dir, 'registry', 'chains.json'), 'utf8')) as ChainJson[];
    expect(chains.map((c) => c.chain_id)).toEqual(manifest.chains.map((c) => c.chain_id));
    for (const entry of chains) {
      for (const { address } of entry.apis.rpc) {
        const status = (await (await fetch(`${address}/status`)).json()) as {
          result: { node_info: { network: string } };
        };
        expect(status.result.node_info.network).toBe(entry.chain_id);
      }
      for (const { address } of entry.apis.rest) {
        const info = (await (await fetch(`${address}/cosmos/base/tendermint/v1beta1/node_info`)).json()) as {
          default_node_info: { network: string };
        };
        expect(info.default_node_info.network).toBe(entry.chain_id);
      }
      for (const { address } of entry.apis['json-rpc'] ?? []) {
        const client = createPublicClient({ transport: http(address) });
        expect(await client.getChainId()).toBe(entry.evm_chain_id);
      }
    }
  });
});

describe.each(['l1', 'external-cosmos'] as const)('the %s chain read by real clients', (role) => {
  const chainOf = () => cosmosChain(role);

  it('Comet38Client reads status, every block and every block result', async () => {
    const { urls, chain } = chainOf();
    const client = await Comet38Client.connect(urls.rpc);
    const status = await client.status();
    expect(status.nodeInfo.network).toBe(chain.info.chainId);
    expect(status.syncInfo.latestBlockHeight).toBe(BLOCKS);
    let txs = 0;
    let failed = 0;
    for (let height = 1; height <= BLOCKS; height += 1) {
      const [block, results] = await Promise.all([client.block(height), client.blockResults(height)]);
      expect(block.block.header.chainId).toBe(chain.info.chainId);
      expect(results.results.length).toBe(block.block.txs.length);
      for (const [i, raw] of block.block.txs.entries()) {
        const record = chain.getBlock(height)!.txs[i]!;
        expect(Buffer.from(sha256(raw)).toString('hex').toUpperCase()).toBe(record.hash);
        expect(results.results[i]!.code).toBe(record.result.code);
        if (results.results[i]!.code !== 0) failed += 1;
      }
      txs += block.block.txs.length;
    }
    expect(txs).toBeGreaterThan(BLOCKS * 5);
    expect(failed).toBeGreaterThan(0);
    client.disconnect();
  });

  it('every raw tx decodes with the Initia protobuf types and its signature verifies', async () => {
    const { chain } = chainOf();
    let checked = 0;
    for (let height = 1; height <= BLOCKS; height += 1) {
      for (const record of chain.getBlock(height)!.txs) {
        const raw = Buffer.from(record.raw, 'base64');
        const tx = Tx.fromBuffer(raw);
        expect(TxBody.decode(TxRaw.decode(raw).bodyBytes).messages.length).toBe(tx.body.messages.length);
        // Bank sends, Move and bridge msgs name their signer `from_address`, `sender` or (outputs)
        // `proposer`; the IBC relayer's msgs name it `signer`.
        const signer = record.restTx.body.messages[0] as {
          from_address?: string;
          sender?: string;
          proposer?: string;
          signer?: string;
        };
        const address = signer.from_address ?? signer.sender ?? signer.proposer ?? signer.signer!;
        expect(address.startsWith(chain.info.bech32Prefix)).toBe(true);
        expect(await verifyDirect(raw, chain.info.chainId, chain.account(address)!.accountNumber)).toBe(true);
        expect(await verifyDirect(raw, 'weft-other-1', chain.account(address)!.accountNumber)).toBe(false);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(BLOCKS * 5);
  });

  it('initia.js RESTClient reads the txs of every block and the balances', async () => {
    const { urls, chain, accounts } = chainOf();
    const rest = new RESTClient(urls.rest, { chainId: chain.info.chainId });
    for (let height = 1; height <= BLOCKS; height += 1) {
      const infos = await rest.tx.txInfosByHeight(height);
      expect(infos.map((i) => i.txhash)).toEqual(chain.getBlock(height)!.txs.map((r) => r.hash));
    }
    for (const account of accounts) {
      const [coins] = await rest.bank.balance(account.address);
      expect(coins.toData()).toEqual(await chain.balances(account.address));
      // The L1's accounts also hold the omnichain token (a `move/…` denom).
      expect(coins.toData().map((c) => c.denom)).toContain(chain.info.denom);
    }
  });
});

describe('the external EVM chain', () => {
  let client: PublicClient;
  const chain = () => devnet.external.evm!;
  const evmChain = () =>
    defineChain({
      id: 31337,
      name: 'Ethereum (devnet)',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [chain().urls.jsonRpc] } },
    });

  beforeAll(() => {
    client = createPublicClient({ chain: evmChain(), transport: http(chain().urls.jsonRpc) });
  });

  it('viem reads its blocks, receipts and balances', async () => {
    expect(await client.getChainId()).toBe(31337);
    expect(await client.getBlockNumber()).toBe(BigInt(BLOCKS));
    let txs = 0;
    let reverted = 0;
    for (let height = 1n; height <= BigInt(BLOCKS); height += 1n) {
      const block = await client.getBlock({ blockNumber: height, includeTransactions: true });
      for (const tx of block.transactions) {
        const receipt = await client.getTransactionReceipt({ hash: tx.hash });
        expect(receipt.blockNumber).toBe(height);
        expect(receipt.from).toBe(tx.from);
        if (receipt.status === 'reverted') reverted += 1;
        txs += 1;
      }
    }
    expect(txs).toBeGreaterThan(BLOCKS * 5);
    expect(reverted).toBeGreaterThan(0);
    for (const account of chain().accounts) {
      const wei = await client.getBalance({ address: account.hexAddress as Hex });
      const [coin] = await chain().chain.balances(account.address);
      expect(wei).toBe(BigInt(coin!.amount));
    }
  });

  it('a viem wallet client sends it a value transfer', async () => {
    const [from] = chain().accounts;
    // A fresh address the traffic never touches, so its balance is exactly what this tx sends.
    const to = `0x${createHash('sha256').update('network/fresh').digest('hex').slice(0, 40)}` as Hex;
    const wallet = createWalletClient({
      account: privateKeyToAccount(from!.privateKey as Hex),
      chain: evmChain(),
      transport: http(chain().urls.jsonRpc),
    });
    expect(await client.getBalance({ address: to })).toBe(0n);
    const hash = await wallet.sendTransaction({ to, value: 12345n });
    await devnet.step();
    const receipt = await client.getTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    expect(receipt.from).toBe(from!.hexAddress.toLowerCase());
    expect(await client.getBalance({ address: to })).toBe(12345n);
  });

  it('refuses a Cosmos-signed tx: it takes Ethereum-signed txs only', async () => {
    const [from, to] = chain().accounts;
    const account = chain().chain.account(from!.address)!;
    const raw = signTx({
      msgs: [
        encodeAny('/cosmos.bank.v1beta1.MsgSend', {
          fromAddress: from!.address,
          toAddress: to!.address,
          amount: [{ denom: 'wei', amount: '1' }],
        }),
      ],
      fee: { amount: [{ denom: 'wei', amount: String(10n ** 15n) }], gasLimit: 200_000n },
      signer: from!,
      chainId: chain().chain.info.chainId,
      accountNumber: account.accountNumber,
      sequence: account.sequence,
    });
    const result = await chain().chain.submit(raw);
    expect(result.code).toBe(2);
    expect(result.log).toMatch(/signed Ethereum txs only/);
    expect(chain().chain.mempoolSize()).toBe(0);
  });
});
