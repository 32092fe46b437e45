import { DirectSecp256k1HdWallet, makeAuthInfoBytes, makeSignDoc, Registry } from '@cosmjs/proto-signing';
import { Comet38Client } from '@cosmjs/tendermint-rpc';
import { bcs } from '@initia/initia.js';
import { TxRaw } from '@initia/initia.proto/cosmos/tx/v1beta1/tx.js';
import { MsgExecute } from '@initia/initia.proto/initia/move/v1/tx.js';
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  type Hex,
  http,
  type PublicClient,
  pad,
  parseEventLogs,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePacket } from 'weft/protocol/omnichain.js';
import type { DevAccount } from 'weft-devnet/keys.js';
import { OMNI_MOVE_DENOM } from 'weft-devnet/omnichain/move-module.js';
import { MOVE_FEES, MOVE_PACKAGE, omnichainOperator } from 'weft-devnet/omnichain/network.js';
import { OFT_CLIENT_ABI } from 'weft-devnet/test-support/oft-client.js';
import {
  type OmnichainTestChain,
  type OmnichainTestNet,
  omnichainNet,
} from 'weft-devnet/test-support/omnichain.js';
import { until } from 'weft-devnet/test-support/until.js';

/**
 * Acceptance, omnichain bridge between a Move chain (standing in for the L1, whose module is the same)
 * and an EVM chain: OFT transfers each way — cosmjs-signed `MsgExecute` of `oft::send` on the Move side,
 * viem quoteSend/send on the EVM side — a delivery into a paused Move OFT that fails and is retried, the
 * supply across both chains, and the Move side's events through `/tx_search` and REST `txs?query=`.
 */

const SEED = 'omnichain-move';
const OFT_ABI = OFT_CLIENT_ABI;
const SD = 10n ** 12n; // EVM local units per shared-decimal unit
const PACKAGE = `0x${Buffer.from(MOVE_PACKAGE).toString('hex')}`;

let net: OmnichainTestNet;
let move: OmnichainTestChain;
let evm: OmnichainTestChain;
let comet: Comet38Client;
let viemClient: PublicClient;
const registry = new Registry([['/initia.move.v1.MsgExecute', MsgExecute as never]]);

const evmChain = () =>
  defineChain({
    id: evm.chain.info.evmChainId!,
    name: evm.chain.info.chainId,
    nativeCurrency: { name: 'GAS', symbol: 'GAS', decimals: 18 },
    rpcUrls: { default: { http: [evm.servers.urls.jsonRpc!] } },
  });

const rest = async <T>(path: string): Promise<T> =>
  (await fetch(`${move.servers.urls.rest}${path}`)).json() as Promise<T>;
const moveBalance = async (address: string, denom = OMNI_MOVE_DENOM) =>
  BigInt(
    (
      await rest<{ balance: { amount: string } }>(
        `/cosmos/bank/v1beta1/balances/${address}/by_denom?denom=${encodeURIComponent(denom)}`,
      )
    ).balance.amount,
  );
const moveSupply = async () =>
  BigInt(
    (
      await rest<{ amount: { amount: string } }>(
        `/cosmos/bank/v1beta1/supply/by_denom?denom=${encodeURIComponent(OMNI_MOVE_DENOM)}`,
      )
    ).amount.amount,
  );
const evmBalance = (holder: string) =>
  viemClient.readContract({
    address: net.oft,
    abi: OFT_ABI,
    functionName: 'balanceOf',
    args: [holder as Hex],
  });
/** Supply across both chains, in shared decimals. */
const supply = async () =>
  (await moveSupply()) +
  (await viemClient.readContract({ address: net.oft, abi: OFT_ABI, functionName: 'totalSupply' })) / SD;

/** Signs a `MsgExecute` with cosmjs (SIGN_MODE_DIRECT) as a wallet does and broadcasts it over CometBFT RPC. */
async function execute(signer: DevAccount, moduleName: string, functionName: string, args: Uint8Array[]) {
  const wallet = await DirectSecp256k1HdWallet.fromMnemonic(signer.mnemonic, { prefix: 'init' });
  const [account] = await wallet.getAccounts();
  const info = await rest<{ account: { account_number: string; sequence: string } }>(
    `/cosmos/auth/v1beta1/accounts/${account!.address}`,
  );
  const bodyBytes = registry.encode({
    typeUrl: '/cosmos.tx.v1beta1.TxBody',
    value: {
      messages: [
        {
          typeUrl: '/initia.move.v1.MsgExecute',
          value: MsgExecute.fromPartial({
            sender: account!.address,
            moduleAddress: PACKAGE,
            moduleName,
            functionName,
            typeArgs: [],
            args,
          }),
        },
      ],
    },
  });
  const gasLimit = 400_000;
  const authInfoBytes = makeAuthInfoBytes(
    [
      {
        pubkey: { typeUrl: '/cosmos.crypto.secp256k1.PubKey', value: encodePubKey(account!.pubkey) },
        sequence: Number(info.account.sequence),
      },
    ],
    [{ denom: move.chain.info.denom, amount: String(Math.ceil(gasLimit * move.chain.info.minGasPrice)) }],
    gasLimit,
    undefined,
    undefined,
  );
  const signDoc = makeSignDoc(
    bodyBytes,
    authInfoBytes,
    move.chain.info.chainId,
    Number(info.account.account_number),
  );
  const { signature } = await wallet.signDirect(account!.address, signDoc);
  const tx = TxRaw.encode({
    bodyBytes,
    authInfoBytes,
    signatures: [Buffer.from(signature.signature, 'base64')],
  }).finish();
  const checked = await comet.broadcastTxSync({ tx });
  expect(checked.code, checked.log).toBe(0);
  const found = await until('commit', () => comet.tx({ hash: checked.hash }).catch(() => undefined));
  expect(found.result.code, found.result.log).toBe(0);
  return found;
}

/** `POST /initia/move/v1/view/json` of `oft::quote_send`, as a client asks a node: status and JSON answer. */
async function quoteSend(args: unknown[], address = PACKAGE) {
  const response = await fetch(`${move.servers.urls.rest}/initia/move/v1/view/json`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      address,
      module_name: 'oft',
      function_name: 'quote_send',
      type_args: [],
      args: args.map((a) => JSON.stringify(a)),
    }),
  });
  return { status: response.status, json: (await response.json()) as any };
}

/** The quote_send args of a send of `amount` to `recipient` on the EVM chain. */
const quoteArgs = (recipient: string, amount: bigint, payInZro = false) => [
  evm.member.eid,
  pad(recipient as Hex, { size: 32 }),
  String(amount),
  String(amount),
  '0x',
  '0x',
  '0x',
  payInZro,
];

/** `cosmos.crypto.secp256k1.PubKey { key }`. */
const encodePubKey = (key: Uint8Array) => Uint8Array.from([0x0a, key.length, ...key]);

const attr = (e: { attributes: readonly { key: string; value: string }[] }, key: string) =>
  e.attributes.find((a) => a.key === key)?.value;

/** Txs of the Move chain matching a query, through CometBFT `/tx_search` and REST `txs?query=`. */
async function search(query: string) {
  const viaComet = await comet.txSearchAll({ query });
  const viaRest = await rest<{ tx_responses: Array<{ txhash: string }> }>(
    `/cosmos/tx/v1beta1/txs?query=${encodeURIComponent(query)}`,
  );
  expect(viaRest.tx_responses.map((t) => t.txhash).sort()).toEqual(
    viaComet.txs.map((t) => Buffer.from(t.hash).toString('hex').toUpperCase()).sort(),
  );
  return viaComet.txs;
}

beforeAll(async () => {
  net = await omnichainNet({
    seed: SEED,
    chains: [
      { chainId: 'weft-move-1', vm: 'move' },
      { chainId: 'weft-evm-1', vm: 'evm' },
    ],
  });
  [move, evm] = net.chains as [OmnichainTestChain, OmnichainTestChain];
  comet = await Comet38Client.connect(move.servers.urls.rpc);
  viemClient = createPublicClient({
    chain: evmChain(),
    transport: http(evm.servers.urls.jsonRpc!),
    pollingInterval: 50,
  });
}, 120_000);

afterAll(async () => {
  comet?.disconnect();
  await net?.close();
});

describe('omnichain OFT between a Move chain and an EVM chain', () => {
  it('sends Move → EVM with a cosmjs-signed oft::send: burnt, fee paid, events searchable, minted on EVM', async () => {
    const before = await supply();
    const sender = move.accounts[0]!;
    const recipient = evm.accounts[1]!.hexAddress;
    const [senderBefore, recipientBefore] = [await moveBalance(sender.address), await evmBalance(recipient)];
    const amount = 7_250_000n;
    const quoted = await quoteSend(quoteArgs(recipient, amount));
    expect(quoted.status, JSON.stringify(quoted.json)).toBe(200);
    const fee = BigInt(JSON.parse(quoted.json.data)[0]);
    const feeBefore = await moveBalance(sender.address, move.chain.info.denom);
    const found = await execute(sender, 'oft', 'send', [
      bcs.u32().serialize(evm.member.eid).toBytes(),
      bcs
        .byteVector()
        .serialize(Buffer.from(pad(recipient as Hex, { size: 32 }).slice(2), 'hex'))
        .toBytes(),
      bcs.u64().serialize(amount).toBytes(),
      bcs.u64().serialize(amount).toBytes(),
      bcs.byteVector().serialize(new Uint8Array()).toBytes(),
      bcs.byteVector().serialize(new Uint8Array()).toBytes(),
      bcs.byteVector().serialize(new Uint8Array()).toBytes(),
      bcs.u64().serialize(fee).toBytes(),
      bcs.u64().serialize(0n).toBytes(),
    ]);
    const sent = found.result.events.find((e) => e.type === 'OFTSent')!;
    const guid = attr(sent, 'guid')!;
    const packet = decodePacket(
      attr(found.result.events.find((e) => e.type === 'PacketSent')!, 'encodedPayload') as Hex,
    );
    expect(packet).toMatchObject({ guid, srcEid: move.member.eid, dstEid: evm.member.eid, sender: PACKAGE });
    expect(attr(sent, 'fromAddress')).toBe(sender.address);
    expect(await moveBalance(sender.address)).toBe(senderBefore - amount);
    // The quote is what the send charged, beside the tx fee.
    const txFee = BigInt(Math.ceil(400_000 * move.chain.info.minGasPrice));
    expect(await moveBalance(sender.address, move.chain.info.denom)).toBe(feeBefore - fee - txFee);
    await until('delivery', async () => (await evmBalance(recipient)) === recipientBefore + amount * SD);
    expect(await supply()).toBe(before);
    expect(await search(`OFTSent.guid='${guid}'`)).toHaveLength(1);
    expect(await search(`PacketSent.sendLibrary='${PACKAGE}'`)).not.toHaveLength(0);
  });

  it('sends EVM → Move with viem quoteSend/send: verified, delivered and received on the Move chain', async () => {
    const before = await supply();
    const signer = evm.accounts[0]!;
    const recipient = move.accounts[2]!;
    const recipientBefore = await moveBalance(recipient.address);
    const guid = await evmSend(signer, recipient.hexAddress as Hex, 3n * 10n ** 18n);
    await until(
      'delivery',
      async () => (await moveBalance(recipient.address)) === recipientBefore + 3_000_000n,
    );
    expect(await supply()).toBe(before);
    const [received] = await search(`OFTReceived.guid='${guid}'`);
    const events = received!.result.events;
    const oftReceived = events.find((e) => e.type === 'OFTReceived')!;
    expect(attr(oftReceived, 'toAddress')).toBe(recipient.address);
    expect(attr(oftReceived, 'srcEid')).toBe(String(evm.member.eid));
    expect(events.find((e) => e.type === 'PacketDelivered')).toBeDefined();
    const nonce = attr(events.find((e) => e.type === 'PacketDelivered')!, 'nonce')!;
    expect(
      await search(`PacketVerified.srcEid='${evm.member.eid}' AND PacketVerified.nonce='${nonce}'`),
    ).toHaveLength(1);
  });

  it('alerts on a delivery into the paused Move OFT and delivers it when retried', async () => {
    const operator = omnichainOperator(SEED, 'secp256k1', 'init');
    const before = await supply();
    const recipient = move.accounts[3]!;
    const recipientBefore = await moveBalance(recipient.address);
    await execute(operator, 'oft', 'set_paused', [bcs.bool().serialize(true).toBytes()]);
    const guid = await evmSend(evm.accounts[2]!, recipient.hexAddress as Hex, 2n * 10n ** 18n);
    await until('failed delivery', () =>
      net.relayer.packets().find((p) => p.packet.guid === guid && p.state === 'failed'),
    );
    const [alert] = await search(`LzReceiveAlert.guid='${guid}'`);
    const alertEvent = alert!.result.events.find((e) => e.type === 'LzReceiveAlert')!;
    expect(attr(alertEvent, 'reason')).toMatch(/VM aborted: .*::oft, code=/);
    expect(await moveBalance(recipient.address)).toBe(recipientBefore);
    expect(await supply()).toBe(before - 2_000_000n);
    await execute(operator, 'oft', 'set_paused', [bcs.bool().serialize(false).toBytes()]);
    expect(net.relayer.retry(guid)).toBe(1);
    await until(
      'retried delivery',
      async () => (await moveBalance(recipient.address)) === recipientBefore + 2_000_000n,
    );
    expect(await supply()).toBe(before);
    expect(await search(`OFTReceived.guid='${guid}'`)).toHaveLength(1);
  });

  it('quotes oft::quote_send over REST view/json as the module charges, with the VM errors of a node', async () => {
    const recipient = evm.accounts[0]!.hexAddress;
    const quoted = await quoteSend(quoteArgs(recipient, 5_000_000n));
    expect(quoted.status).toBe(200);
    expect(quoted.json).toEqual({
      data: JSON.stringify([String(MOVE_FEES.base + MOVE_FEES.perByte * 40n), '0']),
      events: [],
      gas_used: expect.stringMatching(/^\d+$/),
    });
    // Paying in the LayerZero token, an unknown peer, slippage: the send's own aborts.
    for (const args of [
      quoteArgs(recipient, 5_000_000n, true),
      [1, ...quoteArgs(recipient, 5_000_000n).slice(1)],
      [...quoteArgs(recipient, 5_000_000n).slice(0, 3), '5000001', '0x', '0x', '0x', false],
    ]) {
      const refused = await quoteSend(args);
      expect(refused.status).toBe(500);
      expect(refused.json).toMatchObject({
        code: 2,
        message: expect.stringMatching(/^VM aborted: location=/),
        details: [],
      });
    }
    // A u64 given as a number, a missing argument, another module: the VM refuses before running.
    for (const args of [
      [
        ...quoteArgs(recipient, 5_000_000n).slice(0, 2),
        5_000_000,
        ...quoteArgs(recipient, 5_000_000n).slice(3),
      ],
      quoteArgs(recipient, 5_000_000n).slice(1),
    ])
      expect((await quoteSend(args)).json.message).toMatch(/^VM error: status/);
    expect((await quoteSend(quoteArgs(recipient, 1n), '0x1')).status).toBe(500);
  });

  it('refuses a send whose fee is below the quote, and changes nothing', async () => {
    const sender = move.accounts[1]!;
    const balance = await moveBalance(sender.address);
    const wallet = await DirectSecp256k1HdWallet.fromMnemonic(sender.mnemonic, { prefix: 'init' });
    expect((await wallet.getAccounts())[0]!.address).toBe(sender.address);
    await expect(
      execute(sender, 'oft', 'send', [
        bcs.u32().serialize(evm.member.eid).toBytes(),
        bcs
          .byteVector()
          .serialize(Buffer.from(pad(evm.accounts[0]!.hexAddress as Hex, { size: 32 }).slice(2), 'hex'))
          .toBytes(),
        bcs.u64().serialize(1_000_000n).toBytes(),
        bcs.u64().serialize(1_000_000n).toBytes(),
        bcs.byteVector().serialize(new Uint8Array()).toBytes(),
        bcs.byteVector().serialize(new Uint8Array()).toBytes(),
        bcs.byteVector().serialize(new Uint8Array()).toBytes(),
        bcs.u64().serialize(1n).toBytes(),
        bcs.u64().serialize(0n).toBytes(),
      ]),
    ).rejects.toThrow(/VM aborted/);
    expect(await moveBalance(sender.address)).toBe(balance);
  });
});

async function evmSend(signer: DevAccount, recipient: Hex, amountLD: bigint): Promise<Hex> {
  const sendParam = {
    dstEid: move.member.eid,
    to: pad(recipient, { size: 32 }),
    amountLD,
    minAmountLD: amountLD,
    extraOptions: '0x' as Hex,
    composeMsg: '0x' as Hex,
    oftCmd: '0x' as Hex,
  };
  const fee = await viemClient.readContract({
    address: net.oft,
    abi: OFT_ABI,
    functionName: 'quoteSend',
    args: [sendParam, false],
  });
  const wallet = createWalletClient({
    chain: evmChain(),
    transport: http(evm.servers.urls.jsonRpc!),
    account: privateKeyToAccount(signer.privateKey as Hex),
  });
  const hash = await wallet.writeContract({
    address: net.oft,
    abi: OFT_ABI,
    functionName: 'send',
    args: [sendParam, fee, signer.hexAddress as Hex],
    value: fee.nativeFee,
  });
  const receipt = await viemClient.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe('success');
  const [sent] = parseEventLogs({ abi: OFT_ABI, eventName: 'OFTSent', logs: receipt.logs });
  return sent!.args.guid;
}
