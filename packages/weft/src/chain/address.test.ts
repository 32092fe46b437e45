import { RawKey } from '@initia/initia.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { describe, expect, it } from 'vitest';
import {
  addressBytes,
  bytesToHex,
  ETHSECP256K1_PUBKEY_TYPE,
  fromBech32,
  hexToBytes,
  pubKeyToAddress,
  SECP256K1_PUBKEY_TYPE,
  toBech32,
  toChecksumAddress,
  toHexAddress,
} from './address.js';

// The private key of the web3.js accounts documentation example.
const WEB3_KEY = '4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';

describe('pubKeyToAddress', () => {
  it('derives the Ethereum address of an ethsecp256k1 key', () => {
    const pub = secp256k1.getPublicKey(hexToBytes(WEB3_KEY), true);
    const address = pubKeyToAddress(ETHSECP256K1_PUBKEY_TYPE, pub);
    expect(toChecksumAddress(toHexAddress(address))).toBe('0x2c7536E3605D9C16a7a3D7b1898e529396a65c23');
  });

  it('matches @initia/initia.js for both key types', () => {
    for (const eth of [false, true]) {
      const key = new RawKey(Buffer.from(WEB3_KEY, 'hex'), eth);
      const pub = secp256k1.getPublicKey(hexToBytes(WEB3_KEY), true);
      const typeUrl = eth ? ETHSECP256K1_PUBKEY_TYPE : SECP256K1_PUBKEY_TYPE;
      expect(toBech32('init', pubKeyToAddress(typeUrl, pub))).toBe(key.accAddress);
    }
  });

  it('rejects other key types and bad lengths', () => {
    const pub = secp256k1.getPublicKey(hexToBytes(WEB3_KEY), true);
    expect(() => pubKeyToAddress('/cosmos.crypto.ed25519.PubKey', pub)).toThrow(
      /unsupported public key type/,
    );
    expect(() => pubKeyToAddress(SECP256K1_PUBKEY_TYPE, pub.subarray(1))).toThrow(/length 32/);
  });
});

describe('encodings', () => {
  const bytes = hexToBytes('0x00112233445566778899aabbccddeeff00112233');

  it('round-trips bech32 and hex', () => {
    const address = toBech32('init', bytes);
    expect(address.startsWith('init1')).toBe(true);
    expect(fromBech32(address)).toEqual({ prefix: 'init', bytes });
    expect(bytesToHex(bytes)).toBe('00112233445566778899aabbccddeeff00112233');
    expect(toHexAddress(bytes)).toBe('0x00112233445566778899aabbccddeeff00112233');
    expect(hexToBytes('00112233445566778899AABBCCDDEEFF00112233')).toEqual(bytes);
  });

  it('checksums per EIP-55', () => {
    expect(toChecksumAddress('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')).toBe(
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    );
    expect(toChecksumAddress('fb6916095ca1df60bb79ce92ce3ea74c37c5d359')).toBe(
      '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    );
  });

  it('addressBytes accepts bech32 with the prefix and 20/32-byte hex', () => {
    expect(addressBytes(toBech32('init', bytes), 'init')).toEqual(bytes);
    expect(addressBytes('0x00112233445566778899aabbccddeeff00112233', 'init')).toEqual(bytes);
    expect(addressBytes('00112233445566778899AABBCCDDEEFF00112233', 'init')).toEqual(bytes);
    expect(addressBytes(`0x${'ab'.repeat(32)}`, 'init')).toHaveLength(32);
    expect(() => addressBytes(toBech32('cosmos', bytes), 'init')).toThrow(/expected prefix init, got cosmos/);
    expect(() => addressBytes('0x1234', 'init')).toThrow(/invalid address/);
  });
});
