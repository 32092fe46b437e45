import { createECDH, createHmac, pbkdf2Sync } from 'node:crypto';
import { Bip39 } from '@cosmjs/crypto';
import { sha256 } from '@noble/hashes/sha2.js';
import {
  ETHSECP256K1_PUBKEY_TYPE,
  pubKeyToAddress,
  SECP256K1_PUBKEY_TYPE,
  toBech32,
  toHexAddress,
} from 'weft/chain/address.js';
import { ed25519PublicKey } from './ed25519.js';

export type KeyType = 'secp256k1' | 'ethsecp256k1';

export interface DevAccount {
  name: string;
  mnemonic: string;
  /** 0x-prefixed hex of the 32-byte secret key. */
  privateKey: string;
  /** 33-byte compressed secp256k1 point. */
  publicKey: Uint8Array;
  pubKeyTypeUrl: string;
  /** bech32 with the chain's prefix. */
  address: string;
  /** 0x + lowercase hex of the same 20 bytes. */
  hexAddress: string;
  keyType: KeyType;
}

const HARDENED = 0x8000_0000;

// The paths @initia/initia.js MnemonicKey uses: coin type 118 for cosmos keys, 60 for Ethereum keys
// (m/44'/118'/0'/0/0 and m/44'/60'/0'/0/0).
const HD_PATHS = {
  secp256k1: [HARDENED + 44, HARDENED + 118, HARDENED, 0, 0],
  ethsecp256k1: [HARDENED + 44, HARDENED + 60, HARDENED, 0, 0],
} as const;

/** The order of secp256k1's group. */
const CURVE_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

const encoder = new TextEncoder();

/** BIP39 seed (PBKDF2-HMAC-SHA512, 2048 rounds, salt "mnemonic"), computed synchronously by OpenSSL. */
function mnemonicSeed(mnemonic: string): Uint8Array {
  return new Uint8Array(pbkdf2Sync(mnemonic.normalize('NFKD'), 'mnemonic', 2048, 64, 'sha512'));
}

/** The compressed (33-byte) public key of a secp256k1 secret key, by OpenSSL. */
function secp256k1PublicKey(secret: Uint8Array): Buffer {
  const ecdh = createECDH('secp256k1');
  ecdh.setPrivateKey(secret);
  return ecdh.getPublicKey(null, 'compressed');
}

const toBigInt = (bytes: Uint8Array) => BigInt(`0x${Buffer.from(bytes).toString('hex')}`);

/**
 * The secret key at `path` (BIP32 indexes, hardened ones from 2^31) under a BIP39 seed: BIP32's private
 * derivation, its HMAC-SHA512 and point multiplications by OpenSSL. The same keys as the BIP32 libraries
 * wallets use (keys.test.ts checks them against @initia/initia.js), at a fraction of their CPU: a start
 * derives dozens, and in JavaScript each took about 2 ms.
 */
function bip32SecretKey(seed: Uint8Array, path: readonly number[]): Buffer {
  let digest = createHmac('sha512', 'Bitcoin seed').update(seed).digest();
  let key = digest.subarray(0, 32);
  for (const index of path) {
    const chainCode = digest.subarray(32);
    const data = Buffer.alloc(37);
    if (index >= HARDENED) key.copy(data, 1);
    else secp256k1PublicKey(key).copy(data);
    data.writeUInt32BE(index, 33);
    digest = createHmac('sha512', chainCode).update(data).digest();
    const tweak = toBigInt(digest.subarray(0, 32));
    const child = (tweak + toBigInt(key)) % CURVE_ORDER;
    // BIP32 skips such an index; with odds of 1 in 2^127 none of the devnet's paths has one.
    if (tweak >= CURVE_ORDER || child === 0n) throw new Error(`BIP32: index ${index} gives no valid key`);
    key = Buffer.from(child.toString(16).padStart(64, '0'), 'hex');
  }
  return key;
}

/** What an account of a seed is whatever chain holds it (a chain adds its prefix and a name). */
interface SeedKey {
  mnemonic: string;
  privateKey: string;
  publicKey: Uint8Array;
  pubKeyTypeUrl: string;
  addressBytes: Uint8Array;
}

// Every chain of a network derives the same accounts of its seed and a derivation takes a
// millisecond or more of HMAC and curve arithmetic: each is made once.
const seedKeys = new Map<string, SeedKey>();

function seedKey(seed: string, index: number, keyType: KeyType): SeedKey {
  const id = `${keyType}/${index}/${seed}`;
  let key = seedKeys.get(id);
  if (!key) {
    const mnemonic = Bip39.encode(sha256(encoder.encode(`weft-devnet/${seed}/${index}`))).toString();
    const privkey = bip32SecretKey(mnemonicSeed(mnemonic), HD_PATHS[keyType]);
    const publicKey = new Uint8Array(secp256k1PublicKey(privkey));
    const pubKeyTypeUrl = keyType === 'secp256k1' ? SECP256K1_PUBKEY_TYPE : ETHSECP256K1_PUBKEY_TYPE;
    key = {
      mnemonic,
      privateKey: `0x${Buffer.from(privkey).toString('hex')}`,
      publicKey,
      pubKeyTypeUrl,
      addressBytes: pubKeyToAddress(pubKeyTypeUrl, publicKey),
    };
    seedKeys.set(id, key);
  }
  return key;
}

/** A dev account whose 24-word mnemonic comes from sha256(`weft-devnet/<seed>/<index>`). */
export function deriveAccount(options: {
  seed: string;
  index: number;
  keyType: KeyType;
  prefix: string;
  name?: string;
}): DevAccount {
  const { seed, index, keyType, prefix } = options;
  const key = seedKey(seed, index, keyType);
  return {
    name: options.name ?? `account${index}`,
    mnemonic: key.mnemonic,
    privateKey: key.privateKey,
    // A copy: the account is the caller's to keep or change.
    publicKey: Uint8Array.from(key.publicKey),
    pubKeyTypeUrl: key.pubKeyTypeUrl,
    address: toBech32(prefix, key.addressBytes),
    hexAddress: toHexAddress(key.addressBytes),
    keyType,
  };
}

export function deriveAccounts(options: {
  seed: string;
  count: number;
  keyType: KeyType;
  prefix: string;
}): DevAccount[] {
  return Array.from({ length: options.count }, (_, index) => deriveAccount({ ...options, index }));
}

/** The chain's ed25519 consensus key; its address is the uppercase hex of sha256(pubkey)[:20]. */
export function deriveValidatorKey(
  seed: string,
  chainId: string,
): { privateKey: Uint8Array; publicKey: Uint8Array; address: string } {
  const privateKey = sha256(encoder.encode(`weft-devnet/${seed}/validator/${chainId}`));
  const publicKey = ed25519PublicKey(privateKey);
  const address = Buffer.from(sha256(publicKey).subarray(0, 20)).toString('hex').toUpperCase();
  return { privateKey, publicKey, address };
}
