import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  makeSignDoc as makeSignDocAmino,
  Secp256k1HdWallet,
  type StdFee,
  serializeSignDoc,
} from '@cosmjs/amino';
import { fromHex, toBase64 } from '@cosmjs/encoding';
import {
  DirectSecp256k1HdWallet,
  type EncodeObject,
  type GeneratedType,
  type OfflineSigner,
  Registry,
} from '@cosmjs/proto-signing';
import {
  AminoTypes,
  BroadcastTxError,
  type DeliverTxResponse,
  SigningStargateClient,
} from '@cosmjs/stargate';
import { aminoConverters, protoRegistry } from '@initia/amino-converter';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { l2Denom } from 'weft/protocol/opinit.js';
import type { Devnet, DevnetChain } from 'weft-devnet/devnet.js';
import { type DevAccount, deriveAccount } from 'weft-devnet/keys.js';
import { testDevnet } from 'weft-devnet/test-support/devnet.js';
import { until } from 'weft-devnet/test-support/until.js';
import { EthereumAminoSigner, parseAccount, signEip191 } from './eth-signer-support.js';

/**
 * Broadcast from outside: txs signed by wallet libraries as Initia wallets sign them, on the L1 and a
 * rollup of the network, through CometBFT RPC. cosmjs `SigningStargateClient` with the registry and the
 * amino converters of `@initia/amino-converter` signs in SIGN_MODE_DIRECT and SIGN_MODE_LEGACY_AMINO_JSON;
 * an Ethereum key signs the amino JSON as a personal message (SIGN_MODE_EIP_191, ethsecp256k1 pubkey),
 * as interwovenkit's signer does. Each tx takes effect; a tampered one is refused with the SDK's texts.
 */

// The converter package builds against its own cosmjs copy: same shapes, other declarations.
const registry = new Registry(protoRegistry as unknown as Iterable<[string, GeneratedType]>);
const aminoTypes = new AminoTypes(aminoConverters);

const dir = mkdtempSync(join(tmpdir(), 'weft-wallets-'));
let devnet: Devnet;
let l1: DevnetChain;
let rollup: DevnetChain;
let bridgeId: bigint;
/** An Ethereum key with no funds at genesis: funded on both chains by the direct-mode sends. */
const ethUser = deriveAccount({ seed: 'wallets/eth', index: 0, keyType: 'ethsecp256k1', prefix: 'init' });

beforeAll(async () => {
  devnet = await testDevnet({
    seed: 'wallets',
    vms: ['wasm'],
    network: 'full',
    accounts: 3,
    txsPerBlock: 0,
    blockTimeMs: 200,
    registryDir: join(dir, 'registry'),
  });
  l1 = devnet.l1!;
  rollup = devnet.rollups[0]!;
  const bridges = (
    devnet.manifest().services.opinit as { bridges: Array<{ chain_id: string; bridge_id: string }> }
  ).bridges;
  bridgeId = BigInt(bridges.find((b) => b.chain_id === rollup.chain.info.chainId)!.bridge_id);
  devnet.run();
  await until('first blocks', async () => devnet.all.every((c) => c.chain.latestHeight() >= 2));
}, 120_000);

afterAll(async () => {
  await devnet?.close();
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

const balance = async (chain: DevnetChain, address: string, denom: string) =>
  BigInt((await chain.chain.balances(address)).find((c) => c.denom === denom)?.amount ?? '0');

const feeOf = (chain: DevnetChain, gas = 400_000): StdFee => ({
  amount: [{ denom: chain.chain.info.denom, amount: String(Math.ceil(gas * chain.chain.info.minGasPrice)) }],
  gas: String(gas),
});

const connect = (chain: DevnetChain, signer: OfflineSigner) =>
  SigningStargateClient.connectWithSigner(chain.urls.rpc, signer, {
    registry,
    aminoTypes,
    accountParser: parseAccount,
    broadcastPollIntervalMs: 100,
  });

const directWallet = (account: DevAccount) =>
  DirectSecp256k1HdWallet.fromMnemonic(account.mnemonic, { prefix: 'init' });
const aminoWallet = (account: DevAccount) =>
  Secp256k1HdWallet.fromMnemonic(account.mnemonic, { prefix: 'init' });

function eventOf(result: DeliverTxResponse, type: string): Record<string, string> {
  const found = result.events.find((e) => e.type === type);
  expect(found, `${type} event`).toBeDefined();
  return Object.fromEntries(found!.attributes.map((a) => [a.key, a.value]));
}

/** The same signed tx with one bit of its signature flipped. */
function tamperSignature(raw: TxRaw): Uint8Array {
  const signature = Uint8Array.from(raw.signatures[0]!);
  signature[10]! ^= 1;
  return TxRaw.encode({ ...raw, signatures: [signature] }).finish();
}

async function refusal(client: SigningStargateClient, tx: Uint8Array): Promise<BroadcastTxError> {
  const error = await client.broadcastTx(tx).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(BroadcastTxError);
  return error as BroadcastTxError;
}

const sendMsg = (from: string, to: string, denom: string, amount: string): EncodeObject => ({
  typeUrl: '/cosmos.bank.v1beta1.MsgSend',
  value: { fromAddress: from, toAddress: to, amount: [{ denom, amount }] },
});

describe('wallet-signed txs on the network', () => {
  it('accepts a SIGN_MODE_DIRECT bank send on the L1 and the rollup, and refuses a tampered signature', async () => {
    for (const chain of [l1, rollup]) {
      const { denom, chainId } = chain.chain.info;
      const sender = chain.accounts[0]!;
      const client = await connect(chain, await directWallet(sender));
      const amount = 5_000_000n;
      const before = await balance(chain, ethUser.address, denom);
      const msg = sendMsg(sender.address, ethUser.address, denom, String(amount));
      const result = await client.signAndBroadcast(sender.address, [msg], feeOf(chain), 'direct');
      expect(result.code, result.rawLog).toBe(0);
      expect(await balance(chain, ethUser.address, denom)).toBe(before + amount);

      const { accountNumber, sequence } = await client.getSequence(sender.address);
      const signed = await client.sign(sender.address, [msg], feeOf(chain), 'direct');
      const error = await refusal(client, tamperSignature(signed));
      expect([error.code, error.codespace]).toEqual([4, 'sdk']);
      expect(error.log).toBe(
        `signature verification failed; please verify account number (${accountNumber}) and chain-id (${chainId}): (unable to verify single signer signature): unauthorized`,
      );
      expect((await client.getSequence(sender.address)).sequence).toBe(sequence);
      client.disconnect();
    }
  }, 60_000);

  it('accepts an amino-signed OPinit deposit on the L1 and an amino-signed withdrawal on the rollup', async () => {
    const l2 = l2Denom(bridgeId, 'uinit');
    const depositor = l1.accounts[1]!;
    const amount = 777_000n;
    const l1Client = await connect(l1, await aminoWallet(depositor));
    const l1Before = await balance(l1, depositor.address, 'uinit');
    const l2Before = await balance(rollup, depositor.address, l2);
    const fee = feeOf(l1);
    const deposit: EncodeObject = {
      typeUrl: '/opinit.ophost.v1.MsgInitiateTokenDeposit',
      value: {
        sender: depositor.address,
        bridgeId,
        to: depositor.address,
        amount: { denom: 'uinit', amount: String(amount) },
        data: new Uint8Array(),
      },
    };
    const deposited = await l1Client.signAndBroadcast(
      depositor.address,
      [deposit],
      fee,
      'amino <deposit> & more',
    );
    expect(deposited.code, deposited.rawLog).toBe(0);
    expect(eventOf(deposited, 'initiate_token_deposit')).toMatchObject({
      bridge_id: String(bridgeId),
      from: depositor.address,
      to: depositor.address,
      amount: String(amount),
    });
    expect(await balance(l1, depositor.address, 'uinit')).toBe(
      l1Before - amount - BigInt(fee.amount[0]!.amount),
    );
    await until('the deposit on the rollup', async () =>
      (await balance(rollup, depositor.address, l2)) === l2Before + amount ? true : undefined,
    );

    const rollupClient = await connect(rollup, await aminoWallet(depositor));
    const withdrawn = 300_000n;
    const withdrawal: EncodeObject = {
      typeUrl: '/opinit.opchild.v1.MsgInitiateTokenWithdrawal',
      value: {
        sender: depositor.address,
        to: depositor.address,
        amount: { denom: l2, amount: String(withdrawn) },
      },
    };
    const result = await rollupClient.signAndBroadcast(depositor.address, [withdrawal], feeOf(rollup), '');
    expect(result.code, result.rawLog).toBe(0);
    expect(eventOf(result, 'initiate_token_withdrawal')).toMatchObject({
      from: depositor.address,
      to: depositor.address,
      denom: l2,
      amount: String(withdrawn),
    });
    expect(await balance(rollup, depositor.address, l2)).toBe(l2Before + amount - withdrawn);

    // The amino doc holds the sequence, so the SDK names it; a tampered msg fails the same way.
    const { accountNumber, sequence } = await rollupClient.getSequence(depositor.address);
    const signed = await rollupClient.sign(depositor.address, [withdrawal], feeOf(rollup), '');
    const expected = `signature verification failed; please verify account number (${accountNumber}), sequence (${sequence}) and chain-id (${rollup.chain.info.chainId}): unauthorized`;
    const badSignature = await refusal(rollupClient, tamperSignature(signed));
    expect([badSignature.code, badSignature.codespace, badSignature.log]).toEqual([4, 'sdk', expected]);
    const otherBody = registry.encode({
      typeUrl: '/cosmos.tx.v1beta1.TxBody',
      value: {
        messages: [
          { ...withdrawal, value: { ...withdrawal.value, amount: { denom: l2, amount: '300001' } } },
        ],
        memo: '',
      },
    });
    const badBody = await refusal(rollupClient, TxRaw.encode({ ...signed, bodyBytes: otherBody }).finish());
    expect([badBody.code, badBody.log]).toEqual([4, expected]);
    l1Client.disconnect();
    rollupClient.disconnect();
  }, 60_000);

  it('accepts EIP-191 txs signed by an Ethereum key (ethsecp256k1) on the L1 and the rollup', async () => {
    const signer = new EthereumAminoSigner(ethUser);
    for (const chain of [l1, rollup]) {
      const { denom, chainId } = chain.chain.info;
      await until(`funds of the Ethereum key on ${chainId}`, async () =>
        (await balance(chain, ethUser.address, denom)) > 0n ? true : undefined,
      );
      const client = await connect(chain, signer);
      const recipient = chain.accounts[2]!.address;
      const fee = feeOf(chain, 200_000);
      const send = sendMsg(ethUser.address, recipient, denom, '1234');
      // Twice: the first tx sets the account's ethsecp256k1 pubkey, the second is read back with it.
      for (const memo of ['eip-191 <first>', 'eip-191 second']) {
        const before = await balance(chain, recipient, denom);
        const payerBefore = await balance(chain, ethUser.address, denom);
        const tx = await signEip191(signer, {
          chainId,
          messages: [send],
          fee,
          memo,
          ...(await client.getSequence(ethUser.address)),
        });
        const result = await client.broadcastTx(TxRaw.encode(tx).finish(), 30_000, 100);
        expect(result.code, result.rawLog).toBe(0);
        expect(await balance(chain, recipient, denom)).toBe(before + 1234n);
        expect(await balance(chain, ethUser.address, denom)).toBe(
          payerBefore - 1234n - BigInt(fee.amount[0]!.amount),
        );
      }
      const account = await client.getAccount(ethUser.address);
      expect(account?.pubkey?.value).toBe(toBase64(ethUser.publicKey));

      const { accountNumber, sequence } = await client.getSequence(ethUser.address);
      const tx = await signEip191(signer, {
        chainId,
        messages: [send],
        fee,
        memo: '',
        accountNumber,
        sequence,
      });
      const error = await refusal(client, tamperSignature(tx));
      expect([error.code, error.codespace, error.log]).toEqual([
        4,
        'sdk',
        `signature verification failed; please verify account number (${accountNumber}) and chain-id (${chainId}): (unable to verify single signer signature): unauthorized`,
      ]);
      // Signed over the bare amino JSON (no personal-message envelope): not an EIP-191 signature.
      const doc = makeSignDocAmino([aminoTypes.toAmino(send)], fee, chainId, '', accountNumber, sequence);
      const rawSignature = secp256k1.sign(
        keccak_256(serializeSignDoc(doc)),
        fromHex(ethUser.privateKey.slice(2)),
        {
          prehash: false,
        },
      );
      const notEnveloped = await refusal(
        client,
        TxRaw.encode({ ...tx, signatures: [rawSignature] }).finish(),
      );
      expect(notEnveloped.code).toBe(4);
      expect(sequence).toBe((await client.getSequence(ethUser.address)).sequence);
      client.disconnect();
    }
  }, 60_000);
});
