import { pbkdf2Sync } from 'node:crypto';
import { Bip39, Slip10, Slip10Curve, stringToPath } from '@cosmjs/crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import {
  ETHSECP256K1_PUBKEY_TYPE,
  pubKeyToAddress,
  SECP256K1_PUBKEY_TYPE,
  toBech32,
  toHexAddress,
} from 'weft/chain/address.js';

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

// The paths @initia/initia.js MnemonicKey uses: coin type 118 for cosmos keys, 60 for Ethereum keys.
const HD_PATHS = {
  secp256k1: stringToPath("m/44'/118'/0'/0/0"),
  ethsecp256k1: stringToPath("m/44'/60'/0'/0/0"),
} as const;

const encoder = new TextEncoder();

/** BIP39 seed (PBKDF2-HMAC-SHA512, 2048 rounds, salt "mnemonic"), computed synchronously by OpenSSL. */
function mnemonicSeed(mnemonic: string): Uint8Array {
  return new Uint8Array(pbkdf2Sync(mnemonic.normalize('NFKD'), 'mnemonic', 2048, 64, 'sha512'));
}

/** What an account of a seed is whatever chain holds it (a chain adds its prefix and a name). */
interface SeedKey {
  mnemonic: string;
  privateKey: string;
  publicKey: Uint8Array;
  pubKeyTypeUrl: string;
  addressBytes: Uint8Array;
}

// Every chain of a network derives the same accounts of its seed, a derivation takes
// milliseconds of HMAC and curve arithmetic, and a start derives hundreds: each is made once.
const seedKeys = new Map<string, SeedKey>();

function seedKey(seed: string, index: number, keyType: KeyType): SeedKey {
  const id = `${keyType}/${index}/${seed}`;
  let key = seedKeys.get(id);
  if (!key) {
    const mnemonic = Bip39.encode(sha256(encoder.encode(`weft-devnet/${seed}/${index}`))).toString();
    const { privkey } = Slip10.derivePath(Slip10Curve.Secp256k1, mnemonicSeed(mnemonic), HD_PATHS[keyType]);
    const publicKey = secp256k1.getPublicKey(privkey, true);
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
  const publicKey = ed25519.getPublicKey(privateKey);
  const address = Buffer.from(sha256(publicKey).subarray(0, 20)).toString('hex').toUpperCase();
  return { privateKey, publicKey, address };
}
