import { createHash } from 'node:crypto';
import { PubKey } from 'cosmjs-types/cosmos/crypto/secp256k1/keys';
import { AuthInfo, TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { ETHSECP256K1_PUBKEY_TYPE, pubKeyToAddress, SECP256K1_PUBKEY_TYPE } from '../../chain/address.js';
import type { Coin } from '../../store/records.js';
import type { AccountRef } from './account-address.js';
import { boundedMemo } from './memo.js';

const ED25519_PUBKEY_TYPE = '/cosmos.crypto.ed25519.PubKey';

/** What the indexer reads from a tx's protobuf bytes: the hash, the REST match key, the fee and the signer key. */
export interface RawTx {
  /** sha256 of the raw bytes. */
  hash: Uint8Array;
  /** Uppercase hex of `hash` (the CometBFT tx hash). */
  hashHex: string;
  /** The base64 signatures joined by `,`: how rollytics finds the tx's REST JSON. */
  signatureKey: string;
  fee: Coin[];
  /** `auth_info.signer_infos[0].public_key`, when the tx carries one. */
  signerKey?: { typeUrl: string; key: Uint8Array };
}

/** Decodes base64 `TxRaw` bytes; throws on malformed protobuf. */
export function decodeRawTx(base64: string): RawTx {
  const raw = Buffer.from(base64, 'base64');
  const hash = createHash('sha256').update(raw).digest();
  const txRaw = TxRaw.decode(raw);
  const authInfo = AuthInfo.decode(txRaw.authInfoBytes);
  const signatureKey = txRaw.signatures
    .map((s) => Buffer.from(s.buffer, s.byteOffset, s.byteLength).toString('base64'))
    .join(',');
  const publicKey = authInfo.signerInfos[0]?.publicKey;
  const out: RawTx = {
    hash: new Uint8Array(hash.buffer, hash.byteOffset, hash.byteLength),
    hashHex: hash.toString('hex').toUpperCase(),
    signatureKey,
    fee: (authInfo.fee?.amount ?? []).map((c) => ({ denom: c.denom, amount: c.amount })),
  };
  if (publicKey) {
    try {
      out.signerKey = { typeUrl: publicKey.typeUrl, key: PubKey.decode(publicKey.value).key };
    } catch {
      // a key of another shape (multisig): the caller falls back to the ante handler's events
    }
  }
  return out;
}

function addressOfKey(typeUrl: string, key: Uint8Array): Uint8Array | null {
  switch (typeUrl) {
    case SECP256K1_PUBKEY_TYPE:
    case ETHSECP256K1_PUBKEY_TYPE:
      try {
        return pubKeyToAddress(typeUrl, key);
      } catch {
        return null;
      }
    case ED25519_PUBKEY_TYPE:
      return key.length === 32 ? createHash('sha256').update(key).digest().subarray(0, 20) : null;
    default:
      return null;
  }
}

// Deriving an Ethereum-style address decompresses the point (~80 µs), and signers repeat across blocks.
const signerAccountMemo = boundedMemo(50_000, (entry): AccountRef | null => {
  const split = entry.indexOf('|');
  const bytes = addressOfKey(entry.slice(0, split), Buffer.from(entry.slice(split + 1), 'base64'));
  return bytes ? { bytes, hex: Buffer.from(bytes).toString('hex') } : null;
});

/**
 * The key's `Address()` (secp256k1, ethsecp256k1, ed25519) with its hex, or null for other key types.
 * Shared between callers: not to be mutated.
 */
export function signerAccount(signerKey: { typeUrl: string; key: Uint8Array }): AccountRef | null {
  const key = signerKey.key;
  return signerAccountMemo(
    `${signerKey.typeUrl}|${Buffer.from(key.buffer, key.byteOffset, key.byteLength).toString('base64')}`,
  );
}

/** `sdk.Coins.Add` over every tx's fee: summed per denom, zero amounts dropped, sorted by denom. */
export function sumCoins(lists: Coin[][]): Coin[] {
  const totals = new Map<string, bigint>();
  for (const list of lists) {
    for (const coin of list) totals.set(coin.denom, (totals.get(coin.denom) ?? 0n) + BigInt(coin.amount));
  }
  return [...totals.entries()]
    .filter(([, amount]) => amount !== 0n)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([denom, amount]) => ({ denom, amount: amount.toString() }));
}
