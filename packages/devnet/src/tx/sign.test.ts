import { createHash } from 'node:crypto';
import { RawKey } from '@initia/initia.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { describe, expect, it } from 'vitest';
import { encodeAny } from 'weft/chain/registry.js';
import { deriveAccount, type KeyType } from '../keys.js';
import { decodeTx } from './codec.js';
import { signTx } from './sign.js';
import { SIGN_MODE_DIRECT, signDocBytes, verifyTxSignature } from './verify.js';

const CHAIN_ID = 'minievm-1';

function signedTx(keyType: KeyType) {
  const signer = deriveAccount({ seed: 'sign', index: 0, keyType, prefix: 'init' });
  const raw = signTx({
    msgs: [
      encodeAny('/cosmos.bank.v1beta1.MsgSend', {
        fromAddress: signer.address,
        toAddress: signer.address,
        amount: [{ denom: 'GAS', amount: '1' }],
      }),
    ],
    memo: 'hi',
    fee: { amount: [{ denom: 'GAS', amount: '1000' }], gasLimit: 200_000n },
    signer,
    chainId: CHAIN_ID,
    accountNumber: 4n,
    sequence: 7n,
  });
  return { signer, raw, tx: decodeTx(raw) };
}

function verifyDecoded(
  tx: ReturnType<typeof decodeTx>,
  chainId: string,
  accountNumber = 4n,
  signature?: Uint8Array,
) {
  return verifyTxSignature({
    pubKey: tx.authInfo.signerInfos[0]!.publicKey!,
    signDoc: signDocBytes({
      bodyBytes: tx.bodyBytes,
      authInfoBytes: tx.authInfoBytes,
      chainId,
      accountNumber,
    }),
    signature: signature ?? tx.signatures[0]!,
  });
}

describe.each(['secp256k1', 'ethsecp256k1'] as const)('signTx with %s', (keyType) => {
  it('signs a tx that decodes and verifies', () => {
    const { signer, raw, tx } = signedTx(keyType);
    expect(tx.hash).toBe(createHash('sha256').update(raw).digest('hex').toUpperCase());
    expect(tx.body.memo).toBe('hi');
    expect(tx.authInfo.signerInfos).toEqual([
      {
        publicKey: encodeAny(signer.pubKeyTypeUrl, { key: signer.publicKey }),
        modeInfo: { single: { mode: SIGN_MODE_DIRECT } },
        sequence: 7n,
      },
    ]);
    expect(tx.authInfo.fee).toEqual({
      amount: [{ denom: 'GAS', amount: '1000' }],
      gasLimit: 200_000n,
      payer: '',
      granter: '',
    });
    expect(tx.signatures[0]).toHaveLength(64);
    expect(verifyDecoded(tx, CHAIN_ID)).toBe(true);
  });

  it('is deterministic', () => {
    expect(signedTx(keyType).raw).toEqual(signedTx(keyType).raw);
  });

  it('signs exactly as @initia/initia.js does', async () => {
    const { signer, tx } = signedTx(keyType);
    const key = new RawKey(Buffer.from(signer.privateKey.slice(2), 'hex'), keyType === 'ethsecp256k1');
    const signDoc = signDocBytes({
      bodyBytes: tx.bodyBytes,
      authInfoBytes: tx.authInfoBytes,
      chainId: CHAIN_ID,
      accountNumber: 4n,
    });
    expect(new Uint8Array(await key.sign(Buffer.from(signDoc)))).toEqual(tx.signatures[0]);
  });

  it('rejects a tampered sign doc, another chain id or account number, a bad signature', () => {
    const { tx } = signedTx(keyType);
    const tamperedBody = tx.bodyBytes.slice();
    tamperedBody[tamperedBody.length - 1]! ^= 1;
    expect(
      verifyTxSignature({
        pubKey: tx.authInfo.signerInfos[0]!.publicKey!,
        signDoc: signDocBytes({
          bodyBytes: tamperedBody,
          authInfoBytes: tx.authInfoBytes,
          chainId: CHAIN_ID,
          accountNumber: 4n,
        }),
        signature: tx.signatures[0]!,
      }),
    ).toBe(false);
    expect(verifyDecoded(tx, 'minievm-2')).toBe(false);
    expect(verifyDecoded(tx, CHAIN_ID, 5n)).toBe(false);
    const flipped = tx.signatures[0]!.slice();
    flipped[10]! ^= 1;
    expect(verifyDecoded(tx, CHAIN_ID, 4n, flipped)).toBe(false);
    expect(verifyDecoded(tx, CHAIN_ID, 4n, tx.signatures[0]!.subarray(0, 63))).toBe(false);
    expect(verifyDecoded(tx, CHAIN_ID, 4n, new Uint8Array(64))).toBe(false);
  });

  it('rejects the high-S twin of a valid signature', () => {
    const { tx } = signedTx(keyType);
    const sig = secp256k1.Signature.fromBytes(tx.signatures[0]!, 'compact');
    const highS = new secp256k1.Signature(sig.r, secp256k1.Point.CURVE().n - sig.s).toBytes('compact');
    expect(verifyDecoded(tx, CHAIN_ID, 4n, highS)).toBe(false);
  });
});

describe('verifyTxSignature', () => {
  it('accepts r‖s‖v for ethsecp256k1 and not for secp256k1', () => {
    const eth = signedTx('ethsecp256k1').tx;
    const withV = new Uint8Array([...eth.signatures[0]!, 1]);
    expect(verifyDecoded(eth, CHAIN_ID, 4n, withV)).toBe(true);
    const cosmos = signedTx('secp256k1').tx;
    expect(verifyDecoded(cosmos, CHAIN_ID, 4n, new Uint8Array([...cosmos.signatures[0]!, 1]))).toBe(false);
  });

  it('stays exact for a key verified often (the tabled fast path)', () => {
    const { tx } = signedTx('ethsecp256k1');
    const sig = tx.signatures[0]!;
    const parsed = secp256k1.Signature.fromBytes(sig, 'compact');
    const highS = new secp256k1.Signature(parsed.r, secp256k1.Point.CURVE().n - parsed.s).toBytes('compact');
    const flipped = sig.slice();
    flipped[40]! ^= 1;
    for (let i = 0; i < 12; i++) {
      expect(verifyDecoded(tx, CHAIN_ID)).toBe(true);
      expect(verifyDecoded(tx, 'other-chain')).toBe(false);
      expect(verifyDecoded(tx, CHAIN_ID, 4n, highS)).toBe(false);
      expect(verifyDecoded(tx, CHAIN_ID, 4n, flipped)).toBe(false);
      expect(verifyDecoded(tx, CHAIN_ID, 4n, new Uint8Array(64).fill(0xff))).toBe(false);
    }
  });

  it('does not take a key for the other scheme', () => {
    const { tx } = signedTx('secp256k1');
    const pubKey = tx.authInfo.signerInfos[0]!.publicKey!;
    const asEth = { typeUrl: '/initia.crypto.v1beta1.ethsecp256k1.PubKey', value: pubKey.value };
    const signDoc = signDocBytes({
      bodyBytes: tx.bodyBytes,
      authInfoBytes: tx.authInfoBytes,
      chainId: CHAIN_ID,
      accountNumber: 4n,
    });
    expect(verifyTxSignature({ pubKey: asEth, signDoc, signature: tx.signatures[0]! })).toBe(false);
    expect(
      verifyTxSignature({
        pubKey: { typeUrl: '/cosmos.crypto.ed25519.PubKey', value: pubKey.value },
        signDoc,
        signature: tx.signatures[0]!,
      }),
    ).toBe(false);
    const badKey = encodeAny('/cosmos.crypto.secp256k1.PubKey', { key: new Uint8Array(33).fill(9) });
    expect(verifyTxSignature({ pubKey: badKey, signDoc, signature: tx.signatures[0]! })).toBe(false);
  });
});
