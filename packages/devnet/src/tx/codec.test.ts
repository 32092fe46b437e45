import { AuthInfo, TxBody, TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { describe, expect, it } from 'vitest';
import { encodeAny } from 'weft/chain/registry.js';
import { TxError } from '../types.js';
import { decodeTx, pubKeyBytes, TxDecodeError, txHash } from './codec.js';

const KEY = new Uint8Array(33).fill(3);
KEY[0] = 2;

function rawTx() {
  const msg = encodeAny('/minievm.evm.v1.MsgCall', {
    sender: 'init1a',
    contractAddr: '0x01',
    input: '0x',
    value: '0',
  });
  const bodyBytes = TxBody.encode(
    TxBody.fromPartial({
      messages: [msg],
      memo: 'memo',
      timeoutHeight: 99n,
      nonCriticalExtensionOptions: [encodeAny('/cosmos.crypto.secp256k1.PubKey', { key: KEY })],
    }),
  ).finish();
  const authInfoBytes = AuthInfo.encode(
    AuthInfo.fromPartial({
      signerInfos: [
        {
          publicKey: encodeAny('/initia.crypto.v1beta1.ethsecp256k1.PubKey', { key: KEY }),
          modeInfo: { single: { mode: 9999 } },
          sequence: 12n,
        },
        { sequence: 1n },
      ],
      fee: { amount: [{ denom: 'GAS', amount: '10' }], gasLimit: 5n, payer: 'init1p', granter: '' },
    }),
  ).finish();
  const signatures = [new Uint8Array(65).fill(1), new Uint8Array(64).fill(2)];
  return {
    msg,
    bodyBytes,
    authInfoBytes,
    signatures,
    raw: TxRaw.encode({ bodyBytes, authInfoBytes, signatures }).finish(),
  };
}

describe('decodeTx', () => {
  it('parses TxRaw, body and auth info', () => {
    const { msg, bodyBytes, authInfoBytes, signatures, raw } = rawTx();
    const tx = decodeTx(raw);
    expect(tx.raw).toBe(raw);
    expect(tx.hash).toBe(txHash(raw));
    expect(tx.hash).toMatch(/^[0-9A-F]{64}$/);
    expect(tx.bodyBytes).toEqual(bodyBytes);
    expect(tx.authInfoBytes).toEqual(authInfoBytes);
    expect(tx.signatures).toEqual(signatures);
    expect(tx.body).toEqual({
      messages: [msg],
      memo: 'memo',
      timeoutHeight: 99n,
      extensionOptions: [],
      nonCriticalExtensionOptions: [encodeAny('/cosmos.crypto.secp256k1.PubKey', { key: KEY })],
    });
    expect(tx.authInfo).toEqual({
      signerInfos: [
        {
          publicKey: encodeAny('/initia.crypto.v1beta1.ethsecp256k1.PubKey', { key: KEY }),
          modeInfo: { single: { mode: 9999 } },
          sequence: 12n,
        },
        { modeInfo: {}, sequence: 1n },
      ],
      fee: { amount: [{ denom: 'GAS', amount: '10' }], gasLimit: 5n, payer: 'init1p', granter: '' },
    });
  });

  it('hashes as CometBFT does', () => {
    expect(txHash(new TextEncoder().encode('abc'))).toBe(
      'BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD',
    );
  });

  it('fails with the SDK tx parse error', () => {
    const garbage = [
      new Uint8Array(),
      new Uint8Array([0xff, 0xff, 0xff]),
      new Uint8Array([0x0a, 0x05, 0x01]),
    ];
    for (const bytes of garbage) {
      let caught: unknown;
      try {
        decodeTx(bytes);
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(TxDecodeError);
      expect(caught).toBeInstanceOf(TxError);
      expect(caught).toMatchObject({ codespace: 'sdk', code: 2 });
      expect((caught as Error).message).toMatch(/tx parse error$/);
    }
    expect(() => decodeTx(new Uint8Array())).toThrow('tx bytes are empty: tx parse error');
  });
});

describe('pubKeyBytes', () => {
  it('unpacks both key types', () => {
    expect(pubKeyBytes(encodeAny('/cosmos.crypto.secp256k1.PubKey', { key: KEY }))).toEqual(KEY);
    expect(pubKeyBytes(encodeAny('/initia.crypto.v1beta1.ethsecp256k1.PubKey', { key: KEY }))).toEqual(KEY);
  });

  it('rejects other types and lengths with invalid pubkey', () => {
    expect(() => pubKeyBytes({ typeUrl: '/cosmos.crypto.ed25519.PubKey', value: new Uint8Array() })).toThrow(
      /invalid pubkey$/,
    );
    expect(() => pubKeyBytes(encodeAny('/cosmos.crypto.secp256k1.PubKey', { key: KEY.subarray(1) }))).toThrow(
      'invalid public key length 32, expected 33: invalid pubkey',
    );
  });
});
