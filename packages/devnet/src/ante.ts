import { toBase64 } from '@cosmjs/encoding';
import { pubKeyToAddress, toBech32 } from 'weft/chain/address.js';
import { coinsToString, event } from './events.js';
import { GasCost } from './gas.js';
import type { Auth } from './state/auth.js';
import { AminoConversionError } from './tx/amino-sign-doc.js';
import type { DecodedTx } from './tx/codec.js';
import { pubKeyBytes } from './tx/codec.js';
import {
  SIGN_MODE_ETHEREUM,
  SIGN_MODE_LEGACY_AMINO_JSON,
  SignBytesError,
  txSignBytes,
  verifyTxSignature,
} from './tx/verify.js';
import { type AnyMsg, type BankKeeper, type TxContext, TxError } from './types.js';

export interface AnteOptions {
  auth: Auth;
  bank: BankKeeper;
  /** Verifies a SIGN_MODE_ETHEREUM tx (EVM rollup); absent elsewhere. */
  verifyEthereumTx?: (tx: DecodedTx) => boolean;
  maxMemoCharacters?: number;
  /**
   * Signatures already verified (CheckTx verifies before DeliverTx does), keyed by tx hash, signer
   * index and account number: the tx hash covers the signed bytes and the signature.
   */
  verifiedSignatures?: Set<string>;
}

const MAX_VERIFIED_SIGNATURES = 100_000;
const SIMULATED_SIGNATURE_BYTES = 112;

/**
 * The SDK 0.50 ante chain, in its order: basic checks, tx size gas, fee check and deduction, pubkey
 * setting, signature verification with sequence check, sequence increment. Emits the ante events.
 * Throws TxError with the SDK's codes and texts.
 */
export async function runAnte(
  options: AnteOptions,
  ctx: TxContext,
  tx: DecodedTx,
  /** Signers the msgs require, in order of first appearance. */
  msgSigners: string[],
): Promise<void> {
  const { auth, bank } = options;
  const { chain, store } = ctx;
  const { signerInfos, fee } = tx.authInfo;

  if (tx.signatures.length === 0) throw new TxError('sdk', 4, 'no signatures supplied: unauthorized');
  if (tx.signatures.length !== signerInfos.length) {
    throw new TxError(
      'sdk',
      4,
      `invalid number of signatures; expected: ${signerInfos.length}, got ${tx.signatures.length}: unauthorized`,
    );
  }
  if (tx.body.timeoutHeight > 0n && BigInt(ctx.height) > tx.body.timeoutHeight) {
    throw new TxError(
      'sdk',
      30,
      `block height: ${ctx.height}, timeout height: ${tx.body.timeoutHeight}: tx timeout height`,
    );
  }
  const maxMemo = options.maxMemoCharacters ?? 512;
  if (tx.body.memo.length > maxMemo) {
    throw new TxError(
      'sdk',
      12,
      `maximum number of characters is ${maxMemo} but received ${tx.body.memo.length} characters: memo too large`,
    );
  }
  ctx.gas.consume(GasCost.txSizePerByte * BigInt(tx.raw.length), 'txSize');
  if (ctx.mode === 'simulate') {
    // The SDK's ConsumeTxSizeGasDecorator charges an unsigned signer (cosmjs simulates with empty
    // signatures) for the amino StdSignature a secp256k1 key would add: 106 bytes, plus 6.
    const unsigned = tx.signatures.filter((sig) => sig.length === 0).length;
    ctx.gas.consume(GasCost.txSizePerByte * BigInt(unsigned * SIMULATED_SIGNATURE_BYTES), 'txSize');
  }

  // Signers come from the signer infos' public keys; the first one pays the fee. A simulation takes
  // them from the msgs and skips the match, as the SDK's SetPubKeyDecorator does: cosmjs' `simulate`
  // types every key as secp256k1, so an EVM wallet's ethsecp256k1 key derives another address there.
  const simulated = ctx.mode === 'simulate';
  const signers = signerInfos.map((info, i) => {
    if (simulated && msgSigners[i] !== undefined) return msgSigners[i]!;
    if (!info.publicKey) throw new TxError('sdk', 8, `pubkey on signer info ${i} is empty: invalid pubkey`);
    return toBech32(chain.bech32Prefix, pubKeyToAddress(info.publicKey.typeUrl, pubKeyBytes(info.publicKey)));
  });
  for (const [i, expected] of msgSigners.entries()) {
    if (!simulated && signers[i] !== expected) {
      throw new TxError(
        'sdk',
        8,
        `pubKey does not match signer address ${expected} with signer index: ${i}: invalid pubkey`,
      );
    }
  }
  ctx.signers.splice(0, ctx.signers.length, ...signers);
  const feePayer = fee.payer !== '' ? fee.payer : signers[0]!;

  if (ctx.mode === 'check') {
    const required = BigInt(Math.ceil(chain.minGasPrice * Number(fee.gasLimit)));
    const paid = fee.amount.find((c) => c.denom === chain.denom)?.amount ?? '0';
    if (required > 0n && BigInt(paid) < required) {
      throw new TxError(
        'sdk',
        13,
        `insufficient fees; got: ${coinsToString(fee.amount) || `0${chain.denom}`} required: ${required}${chain.denom}: insufficient fee`,
      );
    }
  }

  if (!auth.get(store, feePayer)) {
    throw new TxError('sdk', 9, `fee payer address: ${feePayer} does not exist: unknown address`);
  }
  if (fee.amount.length > 0) {
    ctx.gas.consume(GasCost.feeDeduction, 'fee deduction');
    try {
      // Fee events belong to the ante handler, not to a msg: no msg_index.
      await bank.send(
        { ...ctx, msgIndex: undefined },
        feePayer,
        auth.moduleAddress('fee_collector'),
        fee.amount,
      );
    } catch (err) {
      // SDK DeductFees wraps whatever the bank says as insufficient funds.
      if (err instanceof TxError) throw new TxError('sdk', 5, `${err.message}: insufficient funds`);
      throw err;
    }
  }
  ctx.events.push(event('tx', { fee: coinsToString(fee.amount), fee_payer: feePayer }));

  for (const [i, info] of signerInfos.entries()) {
    const address = signers[i]!;
    const account = auth.get(store, address);
    if (!account) throw new TxError('sdk', 9, `account ${address} not found: unknown address`);
    if (!account.pubKey && !simulated) {
      account.pubKey = { typeUrl: info.publicKey!.typeUrl, key: toBase64(pubKeyBytes(info.publicKey!)) };
    }
    ctx.gas.consume(GasCost.secp256k1Verify, 'ante verify: secp256k1');
    if (info.sequence !== BigInt(account.sequence)) {
      throw new TxError(
        'sdk',
        32,
        `account sequence mismatch, expected ${account.sequence}, got ${info.sequence}: incorrect account sequence`,
      );
    }
    const mode = info.modeInfo?.single?.mode;
    if (mode === undefined) {
      throw new TxError('sdk', 4, 'multisig signatures are not supported by the devnet: unauthorized');
    }
    const cacheKey = `${tx.hash}/${i}/${account.number}`;
    let failure: string | undefined;
    // Simulation skips verification (the SDK's SigVerificationDecorator), not the sequence check.
    if (ctx.mode !== 'simulate' && !options.verifiedSignatures?.has(cacheKey)) {
      failure = await signatureFailure(options, tx, mode, info.publicKey!, tx.signatures[i]!, {
        chainId: chain.chainId,
        accountNumber: BigInt(account.number),
        sequence: BigInt(account.sequence),
      });
      if (failure === undefined && options.verifiedSignatures) {
        if (options.verifiedSignatures.size >= MAX_VERIFIED_SIGNATURES) options.verifiedSignatures.clear();
        options.verifiedSignatures.add(cacheKey);
      }
    }
    if (failure !== undefined) {
      // The SDK names the sequence only for an amino JSON signature (whose sign doc holds it).
      throw new TxError(
        'sdk',
        4,
        mode === SIGN_MODE_LEGACY_AMINO_JSON
          ? `signature verification failed; please verify account number (${account.number}), sequence (${account.sequence}) and chain-id (${chain.chainId}): unauthorized`
          : `signature verification failed; please verify account number (${account.number}) and chain-id (${chain.chainId}): (${failure}): unauthorized`,
      );
    }
    account.sequence = String(BigInt(account.sequence) + 1n);
    auth.put(store, address, account);
    ctx.events.push(event('tx', { acc_seq: `${address}/${info.sequence}` }));
    ctx.events.push(event('tx', { signature: toBase64(tx.signatures[i]!) }));
  }
  ctx.gas.consume(GasCost.sequenceIncrement, 'increment sequence');
}

/**
 * Why one signer's signature does not verify, in the words of Initia's `verifySignature`, or undefined
 * when it does. SIGN_MODE_ETHEREUM txs are checked against their Ethereum tx by the EVM rollup.
 */
async function signatureFailure(
  options: AnteOptions,
  tx: DecodedTx,
  mode: number,
  pubKey: AnyMsg,
  signature: Uint8Array,
  signer: { chainId: string; accountNumber: bigint; sequence: bigint },
): Promise<string | undefined> {
  if (mode === SIGN_MODE_ETHEREUM) {
    return options.verifyEthereumTx?.(tx) ? undefined : 'unable to verify single signer signature';
  }
  let signBytes: Uint8Array;
  try {
    signBytes = await txSignBytes(mode, tx, signer);
  } catch (err) {
    if (err instanceof SignBytesError || err instanceof AminoConversionError) return err.message;
    throw err;
  }
  return verifyTxSignature({ pubKey, signDoc: signBytes, signature })
    ? undefined
    : 'unable to verify single signer signature';
}
