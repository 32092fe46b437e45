import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { AuthInfo, TxBody, TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { hexToBytes } from 'weft/chain/address.js';
import { encodeAny } from 'weft/chain/registry.js';
import type { DevAccount } from '../keys.js';
import type { AnyMsg, Coin } from '../types.js';
import { SIGN_MODE_DIRECT, signDocBytes } from './verify.js';

export interface SignTxInput {
  msgs: AnyMsg[];
  memo?: string;
  fee: { amount: Coin[]; gasLimit: bigint };
  signer: DevAccount;
  chainId: string;
  accountNumber: bigint;
  sequence: bigint;
  timeoutHeight?: bigint;
}

/**
 * Builds and signs a one-signer SIGN_MODE_DIRECT tx, returning its `TxRaw` bytes. The signature is
 * deterministic (RFC 6979), 64 bytes r‖s with low S, over sha256(signDoc) for secp256k1 keys and
 * keccak256(signDoc) for ethsecp256k1 keys, as @initia/initia.js signs.
 */
export function signTx(input: SignTxInput): Uint8Array {
  const { signer } = input;
  const bodyBytes = TxBody.encode(
    TxBody.fromPartial({
      messages: input.msgs,
      memo: input.memo ?? '',
      timeoutHeight: input.timeoutHeight ?? 0n,
    }),
  ).finish();
  const authInfoBytes = AuthInfo.encode(
    AuthInfo.fromPartial({
      signerInfos: [
        {
          publicKey: encodeAny(signer.pubKeyTypeUrl, { key: signer.publicKey }),
          modeInfo: { single: { mode: SIGN_MODE_DIRECT } },
          sequence: input.sequence,
        },
      ],
      fee: { amount: input.fee.amount, gasLimit: input.fee.gasLimit, payer: '', granter: '' },
    }),
  ).finish();
  const signDoc = signDocBytes({
    bodyBytes,
    authInfoBytes,
    chainId: input.chainId,
    accountNumber: input.accountNumber,
  });
  const digest = signer.keyType === 'ethsecp256k1' ? keccak_256(signDoc) : sha256(signDoc);
  const signature = secp256k1.sign(digest, hexToBytes(signer.privateKey), { prehash: false, lowS: true });
  return TxRaw.encode({ bodyBytes, authInfoBytes, signatures: [signature] }).finish();
}
