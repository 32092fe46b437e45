import { MnemonicKey } from '@initia/initia.js';
import { ed25519 } from '@noble/curves/ed25519.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { describe, expect, it } from 'vitest';
import { deriveAccount, deriveAccounts, deriveValidatorKey } from './keys.js';

describe('deriveAccount', () => {
  it('gives the keys and address @initia/initia.js MnemonicKey derives, for both key types', () => {
    for (const [keyType, coinType, eth, index] of [
      ['secp256k1', 118, false, 3],
      ['ethsecp256k1', 60, true, 3],
      ...Array.from({ length: 12 }, (_, i) => ['secp256k1', 118, false, 100 + i] as const),
      ...Array.from({ length: 12 }, (_, i) => ['ethsecp256k1', 60, true, 100 + i] as const),
    ] as const) {
      const account = deriveAccount({ seed: 'test', index, keyType, prefix: 'init' });
      const key = new MnemonicKey({ mnemonic: account.mnemonic, coinType, eth });
      expect(account.address).toBe(key.accAddress);
      expect(account.privateKey).toBe(`0x${key.privateKey.toString('hex')}`);
      const pub = key.publicKey!.toData() as { '@type': string; key: string };
      expect(Buffer.from(account.publicKey).toString('base64')).toBe(pub.key);
      expect(account.pubKeyTypeUrl).toBe(pub['@type']);
      expect(account.hexAddress).toMatch(/^0x[0-9a-f]{40}$/);
      expect(account.mnemonic.split(' ')).toHaveLength(24);
    }
  });

  it('is deterministic per seed and index', () => {
    const a = deriveAccount({ seed: 's', index: 0, keyType: 'ethsecp256k1', prefix: 'init', name: 'alice' });
    expect(deriveAccount({ seed: 's', index: 0, keyType: 'ethsecp256k1', prefix: 'init' }).address).toBe(
      a.address,
    );
    expect(a.name).toBe('alice');
    expect(deriveAccount({ seed: 's', index: 1, keyType: 'ethsecp256k1', prefix: 'init' }).address).not.toBe(
      a.address,
    );
    expect(deriveAccount({ seed: 't', index: 0, keyType: 'ethsecp256k1', prefix: 'init' }).address).not.toBe(
      a.address,
    );
    // Same mnemonic, different HD path and address scheme.
    const cosmos = deriveAccount({ seed: 's', index: 0, keyType: 'secp256k1', prefix: 'init' });
    expect(cosmos.mnemonic).toBe(a.mnemonic);
    expect(cosmos.address).not.toBe(a.address);
  });

  it('derives a list with the chain prefix', () => {
    const accounts = deriveAccounts({ seed: 's', count: 3, keyType: 'secp256k1', prefix: 'wasm' });
    expect(accounts.map((a) => a.name)).toEqual(['account0', 'account1', 'account2']);
    expect(accounts.every((a) => a.address.startsWith('wasm1'))).toBe(true);
    expect(new Set(accounts.map((a) => a.address)).size).toBe(3);
  });
});

describe('deriveValidatorKey', () => {
  it('gives a working ed25519 key whose address is sha256(pubkey)[:20]', () => {
    const key = deriveValidatorKey('s', 'minievm-1');
    expect(key.publicKey).toHaveLength(32);
    expect(key.address).toBe(
      Buffer.from(sha256(key.publicKey).subarray(0, 20)).toString('hex').toUpperCase(),
    );
    expect(key.address).toMatch(/^[0-9A-F]{40}$/);
    const msg = new TextEncoder().encode('vote');
    expect(ed25519.verify(ed25519.sign(msg, key.privateKey), msg, key.publicKey)).toBe(true);
    expect(deriveValidatorKey('s', 'minievm-1').address).toBe(key.address);
    expect(deriveValidatorKey('s', 'minimove-1').address).not.toBe(key.address);
  });
});
