import { keccak256 as keccak256Bytes, Secp256k1, Secp256k1Signature } from '@cosmjs/crypto';
import { fromBech32 } from '@cosmjs/encoding';
import { Comet38Client } from '@cosmjs/tendermint-rpc';
import { RESTClient, Tx } from '@initia/initia.js';
import { AuthInfo, SignDoc, TxBody, TxRaw } from '@initia/initia.proto/cosmos/tx/v1beta1/tx.js';
import {
  erc20Abi,
  erc721Abi,
  formatTransactionReceipt,
  type Hex,
  keccak256,
  type PublicClient,
  type RpcTransactionReceipt,
  recoverTransactionAddress,
  serializeTransaction,
  toHex,
} from 'viem';
import { publicKeyToAddress } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Devnet, DevnetChain } from 'weft-devnet/devnet.js';
import { type EvmDevnet, sha256Hex, startEvmDevnet, ZERO_ADDRESS, ZERO_HASH } from './evm-devnet-support.js';

/**
 * Acceptance, EVM half: independent real clients (CometBFT RPC, Cosmos REST, viem over the EVM JSON-RPC)
 * read a 200-block mixed-traffic run of the EVM rollup; every raw tx decodes and its signature verifies
 * with code apart from the devnet's own. The callTracer is devnet-evm-trace.test.ts; txs with a bad
 * signature, nonce or balance are devnet-evm-rejections.test.ts.
 */

const BLOCKS = 200;
const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const SIGN_MODE_DIRECT = 1;
const SIGN_MODE_ETHEREUM = 9999;
const ETHSECP256K1 = '/initia.crypto.v1beta1.ethsecp256k1.PubKey';

let net: EvmDevnet;
let devnet: Devnet;
let node: DevnetChain;
let client: PublicClient;

beforeAll(async () => {
  net = await startEvmDevnet('evm-clients', BLOCKS);
  ({ devnet, node, client } = net);
}, 120_000);

afterAll(async () => {
  await net?.close();
});

const heights = Array.from({ length: BLOCKS }, (_, i) => i + 1);
const rpc = <T>(method: string, params: unknown[]) => net.rpc<T>(method, params);

/** The 0x address of a compressed secp256k1 key, as Ethereum derives it (keccak of the full point). */
const ethAddressOfKey = (key: Uint8Array) =>
  publicKeyToAddress(toHex(Secp256k1.uncompressPubkey(key))).toLowerCase();
const hexOfBech32 = (address: string) => toHex(fromBech32(address, 90).data).toLowerCase();

/** Verifies a SIGN_MODE_DIRECT signature of an ethsecp256k1 key with cosmjs: keccak256 of the SignDoc. */
async function verifyDirect(raw: Uint8Array, chainId: string, accountNumber: bigint): Promise<boolean> {
  const txRaw = TxRaw.decode(raw);
  const key = AuthInfo.decode(txRaw.authInfoBytes).signerInfos[0]!.publicKey!.value.subarray(2);
  const signDoc = SignDoc.encode({
    bodyBytes: txRaw.bodyBytes,
    authInfoBytes: txRaw.authInfoBytes,
    chainId,
    accountNumber,
  }).finish();
  const signature = Secp256k1Signature.fromFixedLength(txRaw.signatures[0]!);
  return Secp256k1.verifySignature(signature, keccak256Bytes(signDoc), key);
}

const receiptsCache = new Map<number, RpcTransactionReceipt[]>();
async function blockReceipts(height: number): Promise<RpcTransactionReceipt[]> {
  let receipts = receiptsCache.get(height);
  if (!receipts) {
    receipts = await rpc<RpcTransactionReceipt[]>('eth_getBlockReceipts', [toHex(height)]);
    receiptsCache.set(height, receipts);
  }
  return receipts;
}

describe('EVM rollup read by real clients', () => {
  it('Comet38Client reads status, every block and every block result', async () => {
    const comet = await Comet38Client.connect(node.urls.rpc);
    const status = await comet.status();
    expect(status.nodeInfo.network).toBe(node.chain.info.chainId);
    expect(status.syncInfo.latestBlockHeight).toBe(BLOCKS);
    let txs = 0;
    let failed = 0;
    for (const height of heights) {
      const [block, results] = await Promise.all([comet.block(height), comet.blockResults(height)]);
      const records = node.chain.getBlock(height)!.txs;
      expect(block.block.header.height).toBe(height);
      expect(block.block.header.chainId).toBe(node.chain.info.chainId);
      expect(block.block.txs.length).toBe(records.length);
      expect(results.results.length).toBe(records.length);
      for (const [i, raw] of block.block.txs.entries()) {
        expect(sha256Hex(raw)).toBe(records[i]!.hash);
        expect(results.results[i]!.code).toBe(records[i]!.result.code);
        if (results.results[i]!.code !== 0) failed += 1;
      }
      txs += block.block.txs.length;
    }
    expect(txs).toBeGreaterThan(BLOCKS * 5);
    expect(failed).toBeGreaterThan(0);
    comet.disconnect();
  });

  it('initia.js RESTClient reads the txs of every block and every funded balance', async () => {
    const rest = new RESTClient(node.urls.rest, { chainId: node.chain.info.chainId });
    for (const height of heights) {
      const infos = await rest.tx.txInfosByHeight(height);
      const records = node.chain.getBlock(height)!.txs;
      expect(infos.map((i) => i.txhash)).toEqual(records.map((r) => r.hash));
      for (const [i, info] of infos.entries()) {
        expect(info.code).toBe(records[i]!.result.code);
        expect(Number(info.height)).toBe(height);
      }
    }
    for (const account of devnet.manifest().chains[0]!.accounts) {
      const [coins] = await rest.bank.balance(account.address);
      const expected = await node.chain.balances(account.address);
      expect(coins.toData()).toEqual(expected);
      // The fee denom has 18 decimals, so its wei balance is the same number.
      const gas = expected.find((c) => c.denom === node.chain.info.denom)!.amount;
      expect(await client.getBalance({ address: account.hex_address as Hex })).toBe(BigInt(gas));
    }
  });

  it('viem reads every block, every receipt, and the block receipts agree with them', async () => {
    let previousHash: Hex | undefined;
    let ethTxs = 0;
    let reverted = 0;
    let created = 0;
    for (const height of heights) {
      const block = await client.getBlock({ blockNumber: BigInt(height) });
      expect(block.number).toBe(BigInt(height));
      if (previousHash) expect(block.parentHash).toBe(previousHash);
      previousHash = block.hash;
      const receipts = await Promise.all(
        block.transactions.map((hash) => client.getTransactionReceipt({ hash })),
      );
      const raw = await blockReceipts(height);
      expect(receipts).toEqual(raw.map((r) => formatTransactionReceipt(r)));
      for (const [i, receipt] of receipts.entries()) {
        expect(receipt.transactionHash).toBe(block.transactions[i]);
        expect(receipt.blockHash).toBe(block.hash);
        expect(receipt.blockNumber).toBe(BigInt(height));
        if (receipt.status === 'reverted') reverted += 1;
        if (receipt.contractAddress) created += 1;
      }
      ethTxs += block.transactions.length;
    }
    expect(ethTxs).toBeGreaterThan(BLOCKS * 4);
    expect(reverted).toBeGreaterThan(0);
    expect(created).toBeGreaterThanOrEqual(3);
  });

  it('viem reads ERC20 balances and ERC721 owners equal to what the receipts’ Transfer logs imply', async () => {
    const created = new Set<string>();
    const erc20 = new Map<string, Map<string, bigint>>();
    const erc721 = new Map<string, Map<bigint, string>>();
    const word = (topic: string) => `0x${topic.slice(26)}`.toLowerCase();
    for (const height of heights) {
      for (const receipt of await blockReceipts(height)) {
        if (receipt.status !== '0x1') continue;
        if (receipt.contractAddress) created.add(receipt.contractAddress.toLowerCase());
        for (const log of receipt.logs) {
          if (log.topics[0] !== TRANSFER_TOPIC) continue;
          const token = log.address.toLowerCase();
          if (log.topics.length === 3) {
            const holders = erc20.get(token) ?? new Map<string, bigint>();
            erc20.set(token, holders);
            const amount = BigInt(log.data);
            const [from, to] = [word(log.topics[1]!), word(log.topics[2]!)];
            holders.set(from, (holders.get(from) ?? 0n) - amount);
            holders.set(to, (holders.get(to) ?? 0n) + amount);
          } else if (log.topics.length === 4) {
            const owners = erc721.get(token) ?? new Map<bigint, string>();
            erc721.set(token, owners);
            owners.set(BigInt(log.topics[3]!), word(log.topics[2]!));
          }
        }
      }
    }
    // The traffic's tokens are contracts its txs created; the fee denom's ERC20 predates them.
    const tokens = [...erc20.keys()].filter((t) => created.has(t));
    const collections = [...erc721.keys()].filter((c) => created.has(c));
    expect(tokens.length).toBeGreaterThan(0);
    expect(collections.length).toBeGreaterThan(0);
    const blockNumber = BigInt(BLOCKS);
    const accounts = devnet.manifest().chains[0]!.accounts.map((a) => a.hex_address.toLowerCase() as Hex);
    for (const token of tokens) {
      const holders = erc20.get(token)!;
      holders.delete(ZERO_ADDRESS);
      for (const account of accounts) {
        const balance = await client.readContract({
          address: token as Hex,
          abi: erc20Abi,
          functionName: 'balanceOf',
          args: [account],
          blockNumber,
        });
        expect(balance).toBe(holders.get(account) ?? 0n);
      }
      expect(accounts.filter((a) => (holders.get(a) ?? 0n) > 0n).length).toBeGreaterThan(1);
      const supply = [...holders.values()].reduce((a, b) => a + b, 0n);
      expect(
        await client.readContract({
          address: token as Hex,
          abi: erc20Abi,
          functionName: 'totalSupply',
          blockNumber,
        }),
      ).toBe(supply);
    }
    let live = 0;
    let burned = 0;
    for (const collection of collections) {
      for (const [id, owner] of erc721.get(collection)!) {
        const read = client.readContract({
          address: collection as Hex,
          abi: erc721Abi,
          functionName: 'ownerOf',
          args: [id],
          blockNumber,
        });
        if (owner === ZERO_ADDRESS) {
          burned += 1;
          await expect(read).rejects.toThrow('ERC721: invalid token ID');
        } else {
          live += 1;
          expect((await read).toLowerCase()).toBe(owner);
        }
      }
    }
    expect(live).toBeGreaterThan(10);
    expect(burned).toBeGreaterThan(0);
  });
});

/**
 * Checks a SIGN_MODE_ETHEREUM tx against the Ethereum tx viem reads: re-serialized, it hashes to the
 * mapped hash and recovers the Cosmos signer; the Cosmos signature is its r ‖ s ‖ yParity.
 */
async function expectEthereumSigned(txRaw: TxRaw, ethHash: Hex, signer: string, sequence: bigint) {
  const ethTx = await client.getTransaction({ hash: ethHash });
  expect(ethTx.type).toBe('eip1559');
  const serialized = serializeTransaction(
    {
      type: 'eip1559',
      chainId: ethTx.chainId!,
      nonce: ethTx.nonce,
      gas: ethTx.gas,
      maxFeePerGas: ethTx.maxFeePerGas!,
      maxPriorityFeePerGas: ethTx.maxPriorityFeePerGas!,
      ...(ethTx.to ? { to: ethTx.to } : {}),
      value: ethTx.value,
      data: ethTx.input,
      accessList: ethTx.accessList ?? [],
    },
    { r: ethTx.r, s: ethTx.s, yParity: ethTx.yParity! },
  );
  expect(keccak256(serialized)).toBe(ethHash);
  expect((await recoverTransactionAddress({ serializedTransaction: serialized })).toLowerCase()).toBe(signer);
  expect(BigInt(ethTx.nonce)).toBe(sequence);
  const word = (value: Hex) => value.slice(2).padStart(64, '0');
  expect(toHex(txRaw.signatures[0]!)).toBe(`0x${word(ethTx.r)}${word(ethTx.s)}0${ethTx.yParity}`);
}

describe('EVM rollup raw txs', () => {
  it('every raw tx decodes with the Initia protobuf types and its signature verifies', async () => {
    const comet = await Comet38Client.connect(node.urls.rpc);
    const rest = new RESTClient(node.urls.rest, { chainId: node.chain.info.chainId });
    const accountNumbers = new Map<string, Promise<bigint>>();
    const accountNumber = (address: string) => {
      if (!accountNumbers.has(address)) {
        accountNumbers.set(
          address,
          rest.auth.accountInfo(address).then((a) => BigInt(a.getAccountNumber())),
        );
      }
      return accountNumbers.get(address)!;
    };
    const modes = { direct: 0, ethereum: 0 };
    /** Checks one raw tx; returns the Ethereum hash the node maps its Cosmos hash to. */
    const check = async (raw: Uint8Array): Promise<Hex> => {
      const tx = Tx.fromBuffer(Buffer.from(raw));
      const txRaw = TxRaw.decode(raw);
      const body = TxBody.decode(txRaw.bodyBytes);
      expect(body.messages.length).toBeGreaterThan(0);
      expect(body.messages.map((m) => m.typeUrl)).toEqual(tx.body.messages.map((m) => m.packAny().typeUrl));
      const info = AuthInfo.decode(txRaw.authInfoBytes).signerInfos[0]!;
      expect(info.publicKey!.typeUrl).toBe(ETHSECP256K1);
      const signer = ethAddressOfKey(info.publicKey!.value.subarray(2));
      const address = tx.auth_info.signer_infos[0]!.public_key!.address();
      expect(hexOfBech32(address)).toBe(signer);
      expect(BigInt(tx.auth_info.signer_infos[0]!.sequence)).toBe(info.sequence);
      const ethHash = await rpc<Hex>('cosmos_txHashByCosmosTxHash', [sha256Hex(raw)]);
      const mode = info.modeInfo!.single!.mode as number;
      if (mode === SIGN_MODE_ETHEREUM) {
        modes.ethereum += 1;
        await expectEthereumSigned(txRaw, ethHash, signer, info.sequence);
      } else {
        expect(mode).toBe(SIGN_MODE_DIRECT);
        modes.direct += 1;
        expect(await verifyDirect(raw, node.chain.info.chainId, await accountNumber(address))).toBe(true);
      }
      return ethHash;
    };
    for (const height of heights) {
      const [block, ethBlock] = await Promise.all([
        comet.block(height),
        client.getBlock({ blockNumber: BigInt(height) }),
      ]);
      const ethHashes = await Promise.all(block.block.txs.map(check));
      // Txs without an Ethereum view (failed, or Cosmos txs that logged nothing) map to the zero hash.
      expect(ethHashes.filter((h) => h !== ZERO_HASH)).toEqual(ethBlock.transactions);
    }
    expect(modes.direct).toBeGreaterThan(BLOCKS);
    expect(modes.ethereum).toBeGreaterThan(BLOCKS);
    comet.disconnect();
  });
});
