import { createPublicKey, type KeyObject, verify } from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { SignDoc } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { ETHSECP256K1_PUBKEY_TYPE, SECP256K1_PUBKEY_TYPE } from 'weft/chain/address.js';
import type { AnyMsg } from '../types.js';
import { aminoSignBytes, eip191Message } from './amino-sign-doc.js';
import { type DecodedTx, pubKeyBytes } from './codec.js';

export const SIGN_MODE_DIRECT = 1;
export const SIGN_MODE_LEGACY_AMINO_JSON = 127;
/** Initia's EIP-191 mode: the amino JSON sign doc wrapped as an Ethereum personal message. */
export const SIGN_MODE_EIP_191 = 191;
/** Initia's sign mode for txs converted from Ethereum txs (signature over the Ethereum tx). */
export const SIGN_MODE_ETHEREUM = 9999;

/** The SDK's names of the sign modes, as its errors print them. */
const SIGN_MODE_NAMES: Record<number, string> = {
  0: 'SIGN_MODE_UNSPECIFIED',
  1: 'SIGN_MODE_DIRECT',
  2: 'SIGN_MODE_TEXTUAL',
  3: 'SIGN_MODE_DIRECT_AUX',
  127: 'SIGN_MODE_LEGACY_AMINO_JSON',
  191: 'SIGN_MODE_EIP_191',
};

/** Sign bytes that cannot be built for a signer: the reason is the SDK handler's error text. */
export class SignBytesError extends Error {
  override name = 'SignBytesError';
}

/**
 * The bytes a signer's signature covers in `mode`, as the chain's sign mode handlers build them:
 * DIRECT the proto `SignDoc`; LEGACY_AMINO_JSON the amino JSON `StdSignDoc`; EIP_191 that JSON in the
 * Ethereum personal-message envelope. Any other mode is refused with the handler map's text.
 */
export async function txSignBytes(
  mode: number,
  tx: DecodedTx,
  signer: { chainId: string; accountNumber: bigint; sequence: bigint },
): Promise<Uint8Array> {
  switch (mode) {
    case SIGN_MODE_DIRECT:
      return signDocBytes({
        bodyBytes: tx.bodyBytes,
        authInfoBytes: tx.authInfoBytes,
        chainId: signer.chainId,
        accountNumber: signer.accountNumber,
      });
    case SIGN_MODE_LEGACY_AMINO_JSON:
    case SIGN_MODE_EIP_191: {
      const json = await aminoSignBytes({
        messages: tx.body.messages,
        memo: tx.body.memo,
        timeoutHeight: tx.body.timeoutHeight,
        fee: tx.authInfo.fee,
        ...signer,
      });
      return mode === SIGN_MODE_EIP_191 ? eip191Message(json) : json;
    }
    default:
      throw new SignBytesError(`unsupported sign mode ${SIGN_MODE_NAMES[mode] ?? mode}`);
  }
}

/** The cosmos `SignDoc` bytes a SIGN_MODE_DIRECT signature covers. */
export function signDocBytes(doc: {
  bodyBytes: Uint8Array;
  authInfoBytes: Uint8Array;
  chainId: string;
  accountNumber: bigint;
}): Uint8Array {
  return SignDoc.encode({
    bodyBytes: doc.bodyBytes,
    authInfoBytes: doc.authInfoBytes,
    chainId: doc.chainId,
    accountNumber: doc.accountNumber,
  }).finish();
}

const { Point } = secp256k1;
const Fn = Point.Fn;
const HALF_ORDER = Point.CURVE().n >> 1n;
const MAX_CACHED_KEYS = 4096;

const bytesToBigInt = (bytes: Uint8Array) => BigInt(`0x${Buffer.from(bytes).toString('hex')}`);

/** Both key types reject malleable (high-S) signatures, as the SDK and go-ethereum do. */
const isLowS = (rs: Uint8Array) => bytesToBigInt(rs.subarray(32, 64)) <= HALF_ORDER;

// SubjectPublicKeyInfo header for a compressed secp256k1 point: OpenSSL verifies about 5x faster than
// a pure-JS verify, which matters because every tx of every block is verified.
const SPKI_SECP256K1_COMPRESSED = Buffer.from('3036301006072a8648ce3d020106052b8104000a032200', 'hex');
const keyObjects = new Map<string, KeyObject>();

function keyObjectOf(key: Uint8Array): KeyObject {
  const id = Buffer.from(key).toString('hex');
  let found = keyObjects.get(id);
  if (!found) {
    found = createPublicKey({
      key: Buffer.concat([SPKI_SECP256K1_COMPRESSED, key]),
      format: 'der',
      type: 'spki',
    });
    if (keyObjects.size >= MAX_CACHED_KEYS) keyObjects.clear();
    keyObjects.set(id, found);
  }
  return found;
}

// OpenSSL has no keccak256 and no raw-digest ECDSA API, so ethsecp256k1 stays in JS. A key seen a few
// times gets multiplication tables (about 13 ms once), which make each later verify ~2.5x faster.
const TABLE_AFTER_SIGHTINGS = 4;
const TABLE_WINDOW = 6;
const ethKeys = new Map<string, { point: ReturnType<typeof Point.fromBytes>; seen: number }>();

function verifyKeccakDigest(sig: Uint8Array, digest: Uint8Array, key: Uint8Array): boolean {
  const id = Buffer.from(key).toString('hex');
  let entry = ethKeys.get(id);
  if (!entry) {
    if (ethKeys.size >= MAX_CACHED_KEYS) ethKeys.clear();
    entry = { point: Point.fromBytes(key), seen: 0 };
    ethKeys.set(id, entry);
  }
  entry.seen += 1;
  if (entry.seen < TABLE_AFTER_SIGHTINGS)
    return secp256k1.verify(sig, digest, key, { prehash: false, lowS: true });
  if (entry.seen === TABLE_AFTER_SIGHTINGS) entry.point.precompute(TABLE_WINDOW, false);
  // SEC 1 ECDSA verification, as noble's verify does it, with the tabled point.
  const { r, s } = secp256k1.Signature.fromBytes(sig, 'compact');
  if (s > HALF_ORDER) return false;
  const sInverse = Fn.inv(s);
  const u1 = Fn.create(bytesToBigInt(digest) * sInverse);
  const u2 = Fn.create(r * sInverse);
  const R = Point.BASE.multiplyUnsafe(u1).add(entry.point.multiplyUnsafe(u2));
  return !R.is0() && Fn.create(R.toAffine().x) === r;
}

/**
 * Verifies a signature over sign bytes (`signDoc`) as the key type's `VerifySignature` does, whatever
 * the sign mode. secp256k1: ECDSA over sha256(signDoc), 64 bytes r‖s. ethsecp256k1: ECDSA over
 * keccak256(signDoc), 64 bytes r‖s or 65 with a trailing recovery byte.
 * Malformed keys or signatures verify as false.
 */
export function verifyTxSignature(input: {
  pubKey: AnyMsg;
  signDoc: Uint8Array;
  signature: Uint8Array;
}): boolean {
  const { pubKey, signDoc } = input;
  let key: Uint8Array;
  try {
    key = pubKeyBytes(pubKey);
  } catch {
    return false;
  }
  try {
    switch (pubKey.typeUrl) {
      case SECP256K1_PUBKEY_TYPE: {
        const sig = input.signature;
        if (sig.length !== 64 || !isLowS(sig)) return false;
        return verify('sha256', signDoc, { key: keyObjectOf(key), dsaEncoding: 'ieee-p1363' }, sig);
      }
      case ETHSECP256K1_PUBKEY_TYPE: {
        const sig = input.signature.length === 65 ? input.signature.subarray(0, 64) : input.signature;
        if (sig.length !== 64) return false;
        return verifyKeccakDigest(sig, keccak_256(signDoc), key);
      }
      default:
        return false;
    }
  } catch {
    return false;
  }
}
