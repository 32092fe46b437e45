import { createPrivateKey, createPublicKey, type KeyObject, sign } from 'node:crypto';

/**
 * Ed25519 through OpenSSL: the same keys and signatures as any other implementation (Ed25519 is
 * deterministic), at a small part of the CPU and memory of a JavaScript one, whose first use also builds
 * its tables (0.1 s at the dev stack's start). A chain signs a commit every block.
 */

// PKCS#8 header of an Ed25519 private key (RFC 8410), before its 32-byte seed.
const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex');
const keyObjects = new WeakMap<Uint8Array, KeyObject>();

function keyObject(privateKey: Uint8Array): KeyObject {
  let key = keyObjects.get(privateKey);
  if (!key) {
    key = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, privateKey]), format: 'der', type: 'pkcs8' });
    keyObjects.set(privateKey, key);
  }
  return key;
}

/** The 32-byte public key of a 32-byte Ed25519 private key (its seed). */
export function ed25519PublicKey(privateKey: Uint8Array): Uint8Array {
  const spki = createPublicKey(keyObject(privateKey)).export({ format: 'der', type: 'spki' });
  // The key is the last 32 bytes of its SubjectPublicKeyInfo.
  return new Uint8Array(spki.subarray(spki.length - 32));
}

/** The 64-byte Ed25519 signature of `message`. */
export function signEd25519(message: Uint8Array, privateKey: Uint8Array): Buffer {
  return sign(null, message, keyObject(privateKey));
}
