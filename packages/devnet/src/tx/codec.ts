import { sha256 } from '@noble/hashes/sha2.js';
import { AuthInfo, TxBody, TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { codecOf } from 'weft/chain/registry.js';
import { type AnyMsg, type Coin, TxError } from '../types.js';

export interface SignerInfo {
  publicKey?: AnyMsg;
  /** Multisig mode infos are not supported by the devnet; `single` is absent for them. */
  modeInfo: { single?: { mode: number } };
  sequence: bigint;
}

export interface Fee {
  amount: Coin[];
  gasLimit: bigint;
  payer: string;
  granter: string;
}

export interface TxBodyFields {
  messages: AnyMsg[];
  memo: string;
  timeoutHeight: bigint;
  extensionOptions: AnyMsg[];
  nonCriticalExtensionOptions: AnyMsg[];
}

export interface AuthInfoFields {
  signerInfos: SignerInfo[];
  fee: Fee;
  tip?: { amount: Coin[]; tipper: string };
}

export interface DecodedTx {
  raw: Uint8Array;
  /** Uppercase hex SHA-256 of the raw bytes (CometBFT tx hash). */
  hash: string;
  bodyBytes: Uint8Array;
  authInfoBytes: Uint8Array;
  signatures: Uint8Array[];
  body: TxBodyFields;
  authInfo: AuthInfoFields;
}

/** SDK `ErrTxDecode` (codespace sdk, code 2). */
export class TxDecodeError extends TxError {
  override name = 'TxDecodeError';
  constructor(detail?: string) {
    super('sdk', 2, detail ? `${detail}: tx parse error` : 'tx parse error');
  }
}

const toAny = (any: { typeUrl: string; value: Uint8Array }): AnyMsg => ({
  typeUrl: any.typeUrl,
  value: any.value,
});

/** Uppercase hex SHA-256 of raw tx bytes. */
export function txHash(raw: Uint8Array): string {
  return Buffer.from(sha256(raw)).toString('hex').toUpperCase();
}

/** Parses `TxRaw` bytes as the SDK's default tx decoder does. Throws TxDecodeError on malformed input. */
export function decodeTx(raw: Uint8Array): DecodedTx {
  if (raw.length === 0) throw new TxDecodeError('tx bytes are empty');
  try {
    const txRaw = TxRaw.decode(raw);
    const body = TxBody.decode(txRaw.bodyBytes);
    const authInfo = AuthInfo.decode(txRaw.authInfoBytes);
    const fee = authInfo.fee;
    return {
      raw,
      hash: txHash(raw),
      bodyBytes: txRaw.bodyBytes,
      authInfoBytes: txRaw.authInfoBytes,
      signatures: txRaw.signatures,
      body: {
        messages: body.messages.map(toAny),
        memo: body.memo,
        timeoutHeight: body.timeoutHeight,
        extensionOptions: body.extensionOptions.map(toAny),
        nonCriticalExtensionOptions: body.nonCriticalExtensionOptions.map(toAny),
      },
      authInfo: {
        signerInfos: authInfo.signerInfos.map((info) => ({
          ...(info.publicKey ? { publicKey: toAny(info.publicKey) } : {}),
          modeInfo: info.modeInfo?.single ? { single: { mode: info.modeInfo.single.mode } } : {},
          sequence: info.sequence,
        })),
        fee: {
          amount: (fee?.amount ?? []).map((c) => ({ denom: c.denom, amount: c.amount })),
          gasLimit: fee?.gasLimit ?? 0n,
          payer: fee?.payer ?? '',
          granter: fee?.granter ?? '',
        },
        ...(authInfo.tip
          ? {
              tip: {
                amount: authInfo.tip.amount.map((c) => ({ denom: c.denom, amount: c.amount })),
                tipper: authInfo.tip.tipper,
              },
            }
          : {}),
      },
    };
  } catch (err) {
    if (err instanceof TxDecodeError) throw err;
    throw new TxDecodeError((err as Error).message);
  }
}

/** The 33-byte compressed key inside a secp256k1 or ethsecp256k1 `PubKey` Any. */
export function pubKeyBytes(anyPubKey: AnyMsg): Uint8Array {
  const codec = codecOf(anyPubKey.typeUrl);
  if (!codec || !anyPubKey.typeUrl.endsWith('.PubKey')) {
    throw new TxError('sdk', 8, `unsupported public key type ${anyPubKey.typeUrl}: invalid pubkey`);
  }
  let key: Uint8Array;
  try {
    key = (codec.decode(anyPubKey.value) as { key: Uint8Array }).key;
  } catch (err) {
    throw new TxError('sdk', 8, `${(err as Error).message}: invalid pubkey`);
  }
  if (key.length !== 33) {
    throw new TxError('sdk', 8, `invalid public key length ${key.length}, expected 33: invalid pubkey`);
  }
  return key;
}
