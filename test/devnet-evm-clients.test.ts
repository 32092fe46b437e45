import { createHash } from 'node:crypto';
import { keccak256 as keccak256Bytes, Secp256k1, Secp256k1Signature } from '@cosmjs/crypto';
import { fromBech32 } from '@cosmjs/encoding';
import { Comet38Client } from '@cosmjs/tendermint-rpc';
import { RESTClient, Tx } from '@initia/initia.js';
import { MsgSend } from '@initia/initia.proto/cosmos/bank/v1beta1/tx.js';
import { AuthInfo, SignDoc, TxBody, TxRaw } from '@initia/initia.proto/cosmos/tx/v1beta1/tx.js';
import {
  type BaseError,
  createPublicClient,
  decodeFunctionData,
  defineChain,
  encodeFunctionData,
  erc20Abi,
  erc721Abi,
  formatTransactionReceipt,
  type Hex,
  http,
  keccak256,
  type PublicClient,
  parseAbi,
  type RpcTransactionReceipt,
  recoverTransactionAddress,
  serializeTransaction,
  toHex,
} from 'viem';
import { privateKeyToAccount, publicKeyToAddress } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Devnet, DevnetChain } from 'weft-devnet/devnet.js';
import { deriveAccount } from 'weft-devnet/keys.js';
import { testDevnet } from 'weft-devnet/test-support/devnet.js';
import { signTx } from 'weft-devnet/tx/sign.js';

/**
 * Acceptance, EVM half: independent real clients (CometBFT RPC, Cosmos REST, viem over the EVM JSON-RPC)
 * read a 200-block mixed-traffic run of the EVM rollup; every raw tx decodes and its signature verifies
 * with code apart from the devnet's own; nested calls trace as geth's callTracer does; and txs with a
 * bad signature, nonce or balance are rejected with the node's error and change nothing.
 */

const BLOCKS = 200;
const ZERO_HASH = `0x${'0'.repeat(64)}`;
const ZERO_ADDRESS = `0x${'0'.repeat(40)}`;
const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const SIGN_MODE_DIRECT = 1;
const SIGN_MODE_ETHEREUM = 9999;
const ETHSECP256K1 = '/initia.crypto.v1beta1.ethsecp256k1.PubKey';
const NESTER_ABI = parseAbi([
  'function nest(uint256 v) returns (uint256)',
  'function nestWithInnerRevert() returns (bool)',
  'function nestAndRevert()',
  'function leaf() view returns (address)',
  'function middle() view returns (address)',
  'function relay(address leaf) returns (uint256)',
  'function read() view returns (uint256)',
  'function poke(uint256 v)',
  'function boom(string reason)',
]);
/** go-ethereum's callFrame JSON keys, in the order it writes them. */
const GETH_FRAME_KEYS = [
  'from',
  'gas',
  'gasUsed',
  'to',
  'input',
  'output',
  'error',
  'revertReason',
  'calls',
  'value',
  'type',
];

interface RawTx {
  hash: Hex;
  from: Hex;
  to: Hex | null;
  input: Hex;
}

interface Frame {
  from: string;
  gas: string;
  gasUsed: string;
  to?: string;
  input: string;
  output?: string;
  error?: string;
  revertReason?: string;
  calls?: Frame[];
  value?: string;
  type: string;
}

let devnet: Devnet;
let node: DevnetChain;
let client: PublicClient;

beforeAll(async () => {
  devnet = await testDevnet({
    seed: 'evm-clients',
    vms: ['evm'],
    accounts: 8,
    txsPerBlock: 10,
  });
  await devnet.fastForward(BLOCKS);
  node = devnet.chains[0]!;
  const evmChain = defineChain({
    id: node.chain.info.evmChainId!,
    name: node.chain.info.chainId,
    nativeCurrency: { name: 'GAS', symbol: 'GAS', decimals: 18 },
    rpcUrls: { default: { http: [node.urls.jsonRpc!] } },
  });
  client = createPublicClient({ chain: evmChain, transport: http(node.urls.jsonRpc!) });
}, 120_000);

afterAll(async () => {
  await devnet?.close();
});

const heights = Array.from({ length: BLOCKS }, (_, i) => i + 1);
const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex').toUpperCase();
const rpc = <T>(method: string, params: unknown[]) =>
  client.request({ method, params } as never) as Promise<T>;

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

/** Every frame of a tree, depth first. */
const framesOf = (frame: Frame): Frame[] => [frame, ...(frame.calls ?? []).flatMap(framesOf)];

/**
 * geth's field set and order: a subsequence of its callFrame keys. `value` is left out where the tracer
 * got none: STATICCALLs, and minievm's root frame (its OnEnter passes a nil value).
 */
function expectGethFrame(frame: Frame, isRoot: boolean): void {
  const keys = Object.keys(frame);
  expect(keys.filter((k) => GETH_FRAME_KEYS.includes(k))).toEqual(keys);
  expect(GETH_FRAME_KEYS.filter((k) => keys.includes(k))).toEqual(keys);
  for (const key of ['from', 'gas', 'gasUsed', 'input', 'type']) expect(keys).toContain(key);
  expect(keys.includes('value')).toBe(!isRoot && frame.type !== 'STATICCALL');
  expect(BigInt(frame.gasUsed)).toBeLessThanOrEqual(BigInt(frame.gas));
  if (frame.calls) expect(frame.calls.length).toBeGreaterThan(0);
  if (frame.revertReason !== undefined) expect(frame.error).toBe('execution reverted');
}

describe('EVM rollup callTracer', () => {
  it('traces nested calls, caught inner reverts and reverting txs as geth’s callTracer', async () => {
    const tracer = { tracer: 'callTracer' };
    const found = { nest: 0, nestWithInnerRevert: 0, nestAndRevert: 0 };
    const helpers = new Map<string, { leaf: string; middle: string }>();
    const helpersOf = async (nester: Hex) => {
      let known = helpers.get(nester);
      if (!known) {
        const read = (functionName: 'leaf' | 'middle') =>
          client.readContract({
            address: nester,
            abi: NESTER_ABI,
            functionName,
            blockNumber: BigInt(BLOCKS),
          });
        const [leaf, middle] = await Promise.all([read('leaf'), read('middle')]);
        known = { leaf: leaf.toLowerCase(), middle: middle.toLowerCase() };
        helpers.set(nester, known);
      }
      return known;
    };
    const selectors = new Map(
      (['nest', 'nestWithInnerRevert', 'nestAndRevert'] as const).map((name) => [
        encodeFunctionData({
          abi: NESTER_ABI,
          functionName: name,
          args: name === 'nest' ? [0n] : [],
        } as never).slice(0, 10),
        name,
      ]),
    );

    for (const height of heights.filter((h) => h >= 2)) {
      // Raw objects: viem cannot format minievm's stand-ins for Cosmos txs, whose chain id derives from
      // V = 0 in uint64 arithmetic and exceeds a safe integer.
      const block = await rpc<{ transactions: RawTx[] }>('eth_getBlockByNumber', [toHex(height), true]);
      const calls = block.transactions.filter((tx) => tx.to && selectors.has(tx.input.slice(0, 10)));
      if (calls.length === 0) continue;
      const traces = await rpc<Array<{ txHash: string; result: Frame }>>('debug_traceBlockByNumber', [
        toHex(height),
        tracer,
      ]);
      expect(traces.map((t) => t.txHash)).toEqual(block.transactions.map((tx) => tx.hash));
      for (const trace of traces) {
        for (const frame of framesOf(trace.result)) expectGethFrame(frame, frame === trace.result);
      }

      for (const tx of calls) {
        const name = selectors.get(tx.input.slice(0, 10))!;
        const trace = await rpc<Frame>('debug_traceTransaction', [tx.hash, tracer]);
        expect(trace).toEqual(traces.find((t) => t.txHash === tx.hash)!.result);
        const receipt = await rpc<RpcTransactionReceipt>('eth_getTransactionReceipt', [tx.hash]);
        // minievm's tracer wraps the whole Cosmos tx (ante included) in a zero-address CALL.
        expect(trace).toMatchObject({ from: ZERO_ADDRESS, to: ZERO_ADDRESS, input: '0x', type: 'CALL' });
        const sender = tx.from.toLowerCase();
        const main = trace.calls!.find((c) => c.from === sender)!;
        expect(trace.calls!.at(-1)).toBe(main);
        expect(main).toMatchObject({ type: 'CALL', to: tx.to!.toLowerCase(), input: tx.input, value: '0x0' });
        const { leaf, middle } = await helpersOf(tx.to!);
        const nester = tx.to!.toLowerCase();
        const relay = main.calls![0]!;
        expect(relay).toMatchObject({
          type: 'CALL',
          from: nester,
          to: middle,
          input: encodeFunctionData({ abi: NESTER_ABI, functionName: 'relay', args: [leaf as Hex] }),
          value: '0x0',
        });
        expect(relay.calls).toEqual([
          expect.objectContaining({
            type: 'STATICCALL',
            from: middle,
            to: leaf,
            input: encodeFunctionData({ abi: NESTER_ABI, functionName: 'read' }),
          }),
        ]);
        found[name] += 1;
        if (name === 'nest') {
          const v = decodeFunctionData({ abi: NESTER_ABI, data: tx.input }).args![0] as bigint;
          expect(receipt.status).toBe('0x1');
          expect(main.error).toBeUndefined();
          expect(main.calls!.map((c) => c.type)).toEqual(['CALL', 'DELEGATECALL']);
          // A DELEGATECALL runs the leaf's code in the nester: geth reports the nester as `from`.
          expect(main.calls![1]).toEqual({
            from: nester,
            gas: expect.stringMatching(/^0x[0-9a-f]+$/),
            gasUsed: expect.stringMatching(/^0x[0-9a-f]+$/),
            to: leaf,
            input: encodeFunctionData({ abi: NESTER_ABI, functionName: 'poke', args: [v] }),
            value: '0x0',
            type: 'DELEGATECALL',
          });
        } else if (name === 'nestWithInnerRevert') {
          expect(receipt.status).toBe('0x1');
          expect(main.error).toBeUndefined();
          expect(main.output).toBe(toHex(0n, { size: 32 }));
          expect(main.calls!.map((c) => c.type)).toEqual(['CALL', 'CALL']);
          expect(main.calls![1]).toMatchObject({
            from: nester,
            to: middle,
            input: encodeFunctionData({ abi: NESTER_ABI, functionName: 'boom', args: ['inner failure'] }),
            error: 'execution reverted',
            revertReason: 'inner failure',
          });
        } else {
          expect(receipt.status).toBe('0x0');
          expect(receipt.logs).toEqual([]);
          expect(main.calls!.length).toBe(1);
          expect(main).toMatchObject({ error: 'execution reverted', revertReason: 'nester failed' });
          expect(trace).toMatchObject({ error: 'execution reverted', revertReason: 'nester failed' });
        }
      }
    }
    expect(found.nest).toBeGreaterThan(0);
    expect(found.nestWithInnerRevert).toBeGreaterThan(0);
    expect(found.nestAndRevert).toBeGreaterThan(0);
  });
});

/** The node's code and message of a failed JSON-RPC call, from viem's error chain. */
async function rpcFailure(call: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await call;
  } catch (err) {
    const cause = (err as BaseError).walk((e) => typeof (e as { code?: unknown }).code === 'number') as
      | (BaseError & { code: number })
      | null;
    expect(cause).not.toBeNull();
    return { code: cause!.code, message: cause!.details };
  }
  throw new Error('the call succeeded');
}

describe('EVM rollup rejections', () => {
  it('rejects a wrong key, sequence or balance through CometBFT and JSON-RPC and changes nothing', async () => {
    const rest = new RESTClient(node.urls.rest, { chainId: node.chain.info.chainId });
    const comet = await Comet38Client.connect(node.urls.rpc);
    const { chainId, denom } = node.chain.info;
    const evmChainId = node.chain.info.evmChainId!;
    const funder = devnet.manifest().chains[0]!.accounts[0]!;
    const funderKey = privateKeyToAccount(funder.private_key as Hex);
    // An account the traffic never touches, so only this test's txs can change it.
    const outsider = deriveAccount({
      seed: 'evm-clients/outsider',
      index: 0,
      keyType: 'ethsecp256k1',
      prefix: 'init',
    });
    const outsiderKey = privateKeyToAccount(outsider.privateKey as Hex);
    const gasPrice = await client.getGasPrice();
    const signEth = (
      key: typeof funderKey,
      tx: { nonce: number; to: Hex; value?: bigint; gas?: bigint; chainId?: number },
    ) =>
      key.signTransaction({
        type: 'eip1559',
        chainId: evmChainId,
        gas: 100_000n,
        maxFeePerGas: gasPrice,
        maxPriorityFeePerGas: 0n,
        value: 0n,
        ...tx,
      });
    const nonceOf = (address: string, blockTag: 'latest' | 'pending' = 'latest') =>
      client.getTransactionCount({ address: address as Hex, blockTag });

    const funding = await client.sendRawTransaction({
      serializedTransaction: await signEth(funderKey, {
        nonce: await nonceOf(funder.hex_address, 'pending'),
        to: outsider.hexAddress as Hex,
        value: 10n ** 16n,
      }),
    });
    await devnet.step();
    const first = await client.sendRawTransaction({
      serializedTransaction: await signEth(outsiderKey, {
        nonce: 0,
        to: funder.hex_address as Hex,
        value: 1n,
      }),
    });
    await devnet.step();
    for (const hash of [funding, first])
      expect((await client.getTransactionReceipt({ hash })).status).toBe('success');

    const snapshot = async () => {
      const account = await rest.auth.accountInfo(outsider.address);
      return {
        wei: await client.getBalance({ address: outsider.hexAddress as Hex }),
        coins: (await rest.bank.balance(outsider.address))[0].toData(),
        nonce: await nonceOf(outsider.hexAddress),
        pendingNonce: await nonceOf(outsider.hexAddress, 'pending'),
        sequence: account.getSequenceNumber(),
        accountNumber: account.getAccountNumber(),
      };
    };
    const before = await snapshot();
    expect(before.nonce).toBe(1);
    expect(before.wei).toBeGreaterThan(0n);
    const sequence = BigInt(before.sequence);
    const accountNumber = BigInt(before.accountNumber);

    const sendMsg = {
      typeUrl: '/cosmos.bank.v1beta1.MsgSend',
      value: MsgSend.encode({
        fromAddress: outsider.address,
        toAddress: funder.address,
        amount: [{ denom, amount: '1' }],
      }).finish(),
    };
    const minFee = { amount: [{ denom, amount: (200_000n * gasPrice).toString() }], gasLimit: 200_000n };
    const cosmosTx = (overrides: Partial<Parameters<typeof signTx>[0]>) =>
      signTx({
        msgs: [sendMsg],
        fee: minFee,
        signer: outsider,
        chainId,
        accountNumber,
        sequence,
        ...overrides,
      });
    const stranger = deriveAccount({
      seed: 'evm-clients/outsider',
      index: 1,
      keyType: 'ethsecp256k1',
      prefix: 'init',
    });
    const cosmosCases = [
      {
        raw: cosmosTx({ signer: { ...outsider, privateKey: stranger.privateKey } }),
        code: 4,
        log: `signature verification failed; please verify account number (${accountNumber}) and chain-id (${chainId}): (unable to verify single signer signature): unauthorized`,
      },
      {
        raw: cosmosTx({ sequence: sequence - 1n }),
        code: 32,
        log: `account sequence mismatch, expected ${sequence}, got ${sequence - 1n}: incorrect account sequence`,
      },
      {
        raw: cosmosTx({
          fee: { amount: [{ denom, amount: (before.wei + 1n).toString() }], gasLimit: 200_000n },
        }),
        code: 5,
        // minievm's bank moves coins with the denom's ERC20 `sudoTransfer`, so the SDK wraps its revert.
        log: 'revert: ERC20: transfer amount exceeds balance: Reverted: insufficient funds',
      },
    ];
    const rejected: string[] = [];
    for (const { raw, code, log } of cosmosCases) {
      const result = await comet.broadcastTxSync({ tx: raw });
      expect({ code: result.code, codespace: result.codespace, log: result.log }).toEqual({
        code,
        codespace: 'sdk',
        log,
      });
      expect(toHex(result.hash).slice(2).toUpperCase()).toBe(sha256Hex(raw));
      rejected.push(sha256Hex(raw));
    }

    const ethCases = [
      {
        tx: signEth(outsiderKey, { nonce: 0, to: funder.hex_address as Hex }),
        message: `account sequence mismatch, expected ${sequence}, got 0: incorrect account sequence`,
      },
      {
        tx: signEth(outsiderKey, { nonce: 1, to: funder.hex_address as Hex, gas: 20_000_000n }),
        message: 'revert: ERC20: transfer amount exceeds balance: Reverted: insufficient funds',
      },
      {
        tx: signEth(outsiderKey, { nonce: 1, to: funder.hex_address as Hex, chainId: evmChainId + 1 }),
        message: `invalid chain id for signer: have ${evmChainId + 1} want ${evmChainId}`,
      },
      {
        // Over JSON-RPC a wrong key is just another sender: here one without an account.
        tx: signEth(privateKeyToAccount(stranger.privateKey as Hex), {
          nonce: 0,
          to: funder.hex_address as Hex,
        }),
        message: `fee payer address: ${stranger.address} does not exist: unknown address`,
      },
    ];
    const rejectedEth: Hex[] = [];
    for (const { tx, message } of ethCases) {
      const serializedTransaction = await tx;
      expect(await rpcFailure(client.sendRawTransaction({ serializedTransaction }))).toEqual({
        code: -32000,
        message,
      });
      rejectedEth.push(keccak256(serializedTransaction));
    }

    expect(await snapshot()).toEqual(before);
    await devnet.step();
    expect(await snapshot()).toEqual(before);
    for (const hash of rejected) {
      await expect(rest.tx.txInfo(hash)).rejects.toThrow();
      expect(await rpc('cosmos_txHashByCosmosTxHash', [hash])).toBe(ZERO_HASH);
    }
    for (const hash of rejectedEth) expect(await rpc('eth_getTransactionByHash', [hash])).toBeNull();
    comet.disconnect();
  });
});
