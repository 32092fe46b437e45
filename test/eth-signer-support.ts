import {
  type AccountData,
  type AminoSignResponse,
  encodeSecp256k1Pubkey,
  makeSignDoc as makeSignDocAmino,
  type OfflineAminoSigner,
  type StdFee,
  type StdSignDoc,
  serializeSignDoc,
} from '@cosmjs/amino';
import { toBase64 } from '@cosmjs/encoding';
import { decodeOptionalPubkey, type EncodeObject, makeAuthInfoBytes } from '@cosmjs/proto-signing';
import { type Account, accountFromAny, StargateClient } from '@cosmjs/stargate';
import { BaseAccount } from 'cosmjs-types/cosmos/auth/v1beta1/auth';
import { PubKey } from 'cosmjs-types/cosmos/crypto/secp256k1/keys';
import { SignMode } from 'cosmjs-types/cosmos/tx/signing/v1beta1/signing';
import { TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import type { Any } from 'cosmjs-types/google/protobuf/any';
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { expect } from 'vitest';
import type { DevnetChain } from 'weft-devnet/devnet.js';
import type { DevAccount } from 'weft-devnet/keys.js';
import { aminoTypes, protos } from './router-wallet-support.js';

/** interwovenkit's signer for an Ethereum key: amino JSON signed as a personal message (SIGN_MODE_EIP_191). */

export const ETHSECP256K1_PUBKEY_TYPE = '/initia.crypto.v1beta1.ethsecp256k1.PubKey';

/** Initia wallets read accounts whose pubkey is an ethsecp256k1 key (cosmjs' parser knows none). */
export function parseAccount(any: Any): Account {
  if (any.typeUrl !== '/cosmos.auth.v1beta1.BaseAccount') return accountFromAny(any);
  const { address, pubKey, accountNumber, sequence } = BaseAccount.decode(any.value);
  const pubkey =
    pubKey?.typeUrl === ETHSECP256K1_PUBKEY_TYPE
      ? encodeSecp256k1Pubkey(PubKey.decode(pubKey.value).key)
      : decodeOptionalPubkey(pubKey);
  return { address, pubkey, accountNumber, sequence: Number(sequence) };
}

/**
 * interwovenkit's `OfflineSigner`: an Ethereum wallet signs the sorted, escaped amino JSON with
 * `personal_sign`; the recovery byte is dropped and the key reported as ethsecp256k1.
 */
export class EthereumAminoSigner implements OfflineAminoSigner {
  private readonly wallet;
  constructor(readonly account: DevAccount) {
    this.wallet = privateKeyToAccount(account.privateKey as Hex);
  }
  async getAccounts(): Promise<readonly AccountData[]> {
    return [{ address: this.account.address, algo: 'ethsecp256k1' as never, pubkey: this.account.publicKey }];
  }
  async signAmino(signerAddress: string, signDoc: StdSignDoc): Promise<AminoSignResponse> {
    if (signerAddress !== this.account.address) throw new Error('signer address does not match');
    const message = new TextDecoder().decode(serializeSignDoc(signDoc));
    const signature = Buffer.from((await this.wallet.signMessage({ message })).slice(2), 'hex').subarray(
      0,
      64,
    );
    return {
      signed: signDoc,
      signature: {
        pub_key: { type: 'initia/PubKeyEthSecp256k1', value: toBase64(this.account.publicKey) },
        signature: toBase64(signature),
      },
    };
  }
}

/** interwovenkit's `signWithEthSecp256k1`: SIGN_MODE_EIP_191 with the ethsecp256k1 pubkey Any. */
export async function signEip191(
  signer: EthereumAminoSigner,
  input: {
    chainId: string;
    messages: EncodeObject[];
    fee: StdFee;
    memo: string;
    accountNumber: number | bigint;
    sequence: number;
  },
): Promise<TxRaw> {
  const { address, publicKey } = signer.account;
  const pubkey = { typeUrl: ETHSECP256K1_PUBKEY_TYPE, value: PubKey.encode({ key: publicKey }).finish() };
  const signDoc = makeSignDocAmino(
    input.messages.map((m) => aminoTypes.toAmino(m)),
    input.fee,
    input.chainId,
    input.memo,
    input.accountNumber,
    input.sequence,
  );
  const { signature, signed } = await signer.signAmino(address, signDoc);
  const bodyBytes = protos.encode({
    typeUrl: '/cosmos.tx.v1beta1.TxBody',
    value: { messages: signed.msgs.map((m) => aminoTypes.fromAmino(m)), memo: input.memo },
  });
  const authInfoBytes = makeAuthInfoBytes(
    [{ pubkey, sequence: Number(signed.sequence) }],
    signed.fee.amount,
    Number(signed.fee.gas),
    signed.fee.granter,
    signed.fee.payer,
    SignMode.SIGN_MODE_EIP_191,
  );
  return TxRaw.fromPartial({
    bodyBytes,
    authInfoBytes,
    signatures: [Buffer.from(signature.signature, 'base64')],
  });
}

/**
 * A `cosmos_tx` on an Initia chain signed as InterwovenKit signs it with an Ethereum key: the account's
 * number and sequence read over CometBFT, SIGN_MODE_EIP_191 with a fee of `gas` at the chain's minimum
 * gas price; broadcast, then awaited in a block. Answers the tx hash (uppercase hex); the tx must succeed.
 */
export async function signAndBroadcastEip191(
  chain: DevnetChain,
  from: DevAccount,
  messages: EncodeObject[],
  gas = 1_000_000,
): Promise<string> {
  const client = await StargateClient.connect(chain.urls.rpc, { accountParser: parseAccount });
  try {
    const { accountNumber, sequence } = await client.getSequence(from.address);
    const { denom, minGasPrice } = chain.chain.info;
    const tx = await signEip191(new EthereumAminoSigner(from), {
      chainId: chain.chain.info.chainId,
      messages,
      fee: { amount: [{ denom, amount: String(Math.ceil(gas * minGasPrice)) }], gas: String(gas) },
      memo: '',
      accountNumber,
      sequence,
    });
    const result = await client.broadcastTx(TxRaw.encode(tx).finish(), 30_000, 100);
    expect(result.code, result.rawLog).toBe(0);
    return result.transactionHash;
  } finally {
    client.disconnect();
  }
}
