import { type Common, createCustomCommon, Hardfork, Mainnet } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import {
  type AccessListBytes,
  createAccessList2930Tx,
  createFeeMarket1559Tx,
  createLegacyTx,
  createTxFromRLP,
  type TypedTransaction,
} from '@ethereumjs/tx';
import { MsgCall, MsgCreate } from '@initia/initia.proto/minievm/evm/v1/tx.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { AuthInfo, TxBody, TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { ETHSECP256K1_PUBKEY_TYPE, fromBech32, pubKeyToAddress, toBech32 } from 'weft/chain/address.js';
import { encodeAny } from 'weft/chain/registry.js';
import type { DecodedTx } from '../tx/codec.js';
import { pubKeyBytes } from '../tx/codec.js';
import { SIGN_MODE_ETHEREUM } from '../tx/verify.js';
import { type Coin, type EthTxEnvelope, TxError } from '../types.js';
import { EvmErrorCode, evmTxError, JsonRpcErrorText } from './errors.js';
import { checksumAddress } from './evm-events.js';
import { ethTxFeeAmount, fromEthersUnit, toEthersUnit } from './fee-units.js';
import { memoizedEcrecover } from './sender-recovery.js';

/**
 * minievm's two tx conversions (x/evm/types/txutils.go): an Ethereum tx sent over JSON-RPC becomes a
 * Cosmos tx with one MsgCall/MsgCreate, signed in SIGN_MODE_ETHEREUM with the Ethereum signature; and a
 * Cosmos tx of that shape is turned back into the Ethereum tx, whose signature the ante handler checks
 * and whose hash the JSON-RPC surface serves.
 */

export interface EthTxParams {
  /** Cosmos chain id. */
  chainId: string;
  evmChainId: bigint;
  bech32Prefix: string;
  feeDenom: string;
  feeDecimals: number;
}

export const MSG_CALL = '/minievm.evm.v1.MsgCall';
export const MSG_CREATE = '/minievm.evm.v1.MsgCreate';
/** initia's marker option; minievm's JSON-RPC sets it on every tx it converts. */
const EXTENSION_OPTION_QUEUED_TX = '/initia.tx.v1.ExtensionOptionQueuedTx';
const SUPPORTED_TYPES = [0, 1, 2];

const hex = (bytes: Uint8Array) =>
  `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`;
const to32 = (value: bigint) => Buffer.from(value.toString(16).padStart(64, '0'), 'hex');

const commons = new Map<bigint, Common>();
export function commonFor(evmChainId: bigint): Common {
  let common = commons.get(evmChainId);
  if (!common) {
    common = createCustomCommon({ chainId: Number(evmChainId) }, Mainnet, {
      hardfork: Hardfork.Prague,
      customCrypto: { ecrecover: memoizedEcrecover() },
    });
    commons.set(evmChainId, common);
  }
  return common;
}

const feeCapOf = (tx: TypedTransaction): bigint => ('maxFeePerGas' in tx ? tx.maxFeePerGas : tx.gasPrice);
const tipCapOf = (tx: TypedTransaction): bigint =>
  'maxPriorityFeePerGas' in tx ? tx.maxPriorityFeePerGas : tx.gasPrice;

/** The `gasPrice` go-ethereum reports: the fee cap for dynamic-fee txs. */
export function ethGasPrice(tx: TypedTransaction): bigint {
  return feeCapOf(tx);
}

const UINT64 = 2n ** 64n;
const bigIntOf = (bytes: Uint8Array) => (bytes.length === 0 ? 0n : BigInt(hex(bytes)));

/**
 * The chain id a signed tx claims: typed txs carry it as their first field; legacy ones derive it from V
 * as go-ethereum's `deriveChainId` does (in uint64 arithmetic when V fits 64 bits).
 */
function claimedChainId(raw: Uint8Array): bigint | undefined {
  try {
    if (raw[0]! <= 0x7f) return bigIntOf((RLP.decode(raw.subarray(1)) as Uint8Array[])[0]!);
    const v = bigIntOf((RLP.decode(raw) as Uint8Array[])[6]!);
    if (v === 27n || v === 28n) return 0n;
    return v < UINT64 ? ((v - 35n + UINT64) % UINT64) / 2n : (v - 35n) >> 1n;
  } catch {
    return undefined;
  }
}

function decodeEthTx(raw: Uint8Array, evmChainId: bigint): TypedTransaction {
  if (raw.length > 0 && raw[0]! <= 0x7f && !SUPPORTED_TYPES.includes(raw[0]!)) {
    throw new Error(`unsupported tx type: ${raw[0]}: tx intended signer does not match the given signer`);
  }
  let tx: TypedTransaction;
  try {
    tx = createTxFromRLP(raw, { common: commonFor(evmChainId) }) as TypedTransaction;
  } catch (err) {
    const message = (err as Error).message;
    if (/chain ?id|EIP155/i.test(message)) {
      // go-ethereum's signers: `fmt.Errorf("%w: have %d want %d", ErrInvalidChainId, ...)`.
      const claimed = claimedChainId(raw);
      throw new Error(
        claimed === undefined
          ? 'invalid chain id for signer'
          : `invalid chain id for signer: have ${claimed} want ${evmChainId}`,
      );
    }
    throw new Error(message.split(' (tx type=')[0] ?? message);
  }
  if (tx.type === 0 && (tx.v === 27n || tx.v === 28n)) throw new Error(JsonRpcErrorText.unprotectedTx);
  return tx;
}

function memoOf(tx: TypedTransaction): string {
  // Go's json.Marshal of txMetadata: big integers as JSON numbers, in field order.
  return `{"type":${tx.type},"gas_fee_cap":${feeCapOf(tx)},"gas_tip_cap":${tipCapOf(tx)},"gas_limit":${tx.gasLimit}}`;
}

function accessListJson(list: AccessListBytes) {
  return list.map(([address, keys]) => ({ address: checksumAddress(address), storageKeys: keys.map(hex) }));
}

/** `ConvertEthereumTxToCosmosTx`, plus the envelope the chain keeps for the tx. Throws with the node's text. */
export function convertEthereumTx(
  raw: Uint8Array,
  params: EthTxParams,
): { txRaw: Uint8Array; envelope: EthTxEnvelope } {
  const tx = decodeEthTx(raw, params.evmChainId);
  let sender: Uint8Array;
  let publicKey: Uint8Array;
  try {
    sender = tx.getSenderAddress().bytes;
    publicKey = secp256k1.Point.fromBytes(Buffer.concat([Buffer.from([4]), tx.getSenderPublicKey()])).toBytes(
      true,
    );
  } catch {
    throw new Error('invalid transaction v, r, s values');
  }
  const value = fromEthersUnit(params.feeDecimals, tx.value);
  if (toEthersUnit(params.feeDecimals, value) !== tx.value) {
    throw evmTxError(
      EvmErrorCode.invalidValue,
      'failed to convert value to token unit without dropping precision',
    );
  }
  const v = tx.type === 0 ? tx.v! - (2n * params.evmChainId + 35n) : tx.v!;
  const signature = Buffer.concat([to32(tx.r!), to32(tx.s!), Buffer.from([Number(v)])]);
  const senderBech32 = toBech32(params.bech32Prefix, sender);
  const accessList = 'accessList' in tx ? accessListJson(tx.accessList) : [];
  const msg =
    tx.to === undefined
      ? encodeAny(MSG_CREATE, {
          sender: senderBech32,
          code: hex(tx.data),
          value: value.toString(),
          accessList,
        })
      : encodeAny(MSG_CALL, {
          sender: senderBech32,
          contractAddr: checksumAddress(tx.to.bytes),
          input: hex(tx.data),
          value: value.toString(),
          accessList,
          authList: [],
        });
  const feeAmount = ethTxFeeAmount(feeCapOf(tx), tx.gasLimit, params.feeDecimals);
  const bodyBytes = TxBody.encode(
    TxBody.fromPartial({
      messages: [msg],
      memo: memoOf(tx),
      extensionOptions: [{ typeUrl: EXTENSION_OPTION_QUEUED_TX, value: new Uint8Array(0) }],
    }),
  ).finish();
  const authInfoBytes = AuthInfo.encode(
    AuthInfo.fromPartial({
      signerInfos: [
        {
          publicKey: encodeAny(ETHSECP256K1_PUBKEY_TYPE, { key: publicKey }),
          modeInfo: { single: { mode: SIGN_MODE_ETHEREUM } },
          sequence: tx.nonce,
        },
      ],
      fee: {
        amount: feeAmount === 0n ? [] : [{ denom: params.feeDenom, amount: feeAmount.toString() }],
        gasLimit: tx.gasLimit,
      },
    }),
  ).finish();
  const txRaw = TxRaw.encode({ bodyBytes, authInfoBytes, signatures: [signature] }).finish();
  return {
    txRaw,
    envelope: {
      hash: hex(tx.hash()),
      raw,
      from: hex(sender),
      nonce: tx.nonce,
      gasLimit: tx.gasLimit,
      type: tx.type,
    },
  };
}

interface TxMetadata {
  type: number;
  gasFeeCap: bigint;
  gasTipCap: bigint;
  gasLimit: bigint;
}

const MEMO_SHAPE = /^\s*\{\s*(?:"[a-z_]+"\s*:\s*-?\d+\s*(?:,\s*"[a-z_]+"\s*:\s*-?\d+\s*)*)?\}\s*$/;
const MEMO_FIELD = /"([a-z_]+)"\s*:\s*(-?\d+)/g;

/** Decodes the memo as Go's strict decoder would into `txMetadata`; undefined when it would fail. */
function parseMemo(memo: string): TxMetadata | undefined {
  if (!MEMO_SHAPE.test(memo)) return undefined;
  const fields = new Map<string, bigint>();
  for (const [, key, value] of memo.matchAll(MEMO_FIELD)) fields.set(key!, BigInt(value!));
  for (const key of fields.keys()) {
    if (!['type', 'gas_fee_cap', 'gas_tip_cap', 'gas_limit'].includes(key)) return undefined;
  }
  const type = fields.get('type') ?? 0n;
  const gasLimit = fields.get('gas_limit') ?? 0n;
  const gasFeeCap = fields.get('gas_fee_cap');
  const gasTipCap = fields.get('gas_tip_cap');
  if (type < 0n || type > 255n || gasLimit < 0n || gasLimit >= 2n ** 64n) return undefined;
  if (gasFeeCap === undefined || gasTipCap === undefined) return undefined;
  return { type: Number(type), gasFeeCap, gasTipCap, gasLimit };
}

const sameCoins = (a: Coin[], b: Coin[]) =>
  a.length === b.length && a.every((coin, i) => coin.denom === b[i]!.denom && coin.amount === b[i]!.amount);

function contractAddressBytes(input: string, prefix: string): Uint8Array {
  if (/^0x[0-9a-fA-F]{40}$/.test(input)) return Buffer.from(input.slice(2), 'hex');
  let bytes: Uint8Array;
  try {
    const decoded = fromBech32(input);
    if (decoded.prefix !== prefix)
      throw new Error(`invalid Bech32 prefix; expected ${prefix}, got ${decoded.prefix}`);
    bytes = decoded.bytes;
  } catch (err) {
    throw new TxError('sdk', 7, `${(err as Error).message}: invalid address`);
  }
  if (bytes.length !== 20) {
    throw new TxError('evm', 2, 'Invalid address length: address must be 20 bytes to use EVM');
  }
  return bytes;
}

function hexInput(input: string): Uint8Array {
  if (!/^0x([0-9a-fA-F]{2})*$/.test(input)) throw new TxError('undefined', 1, 'hex string without 0x prefix');
  return Buffer.from(input.slice(2), 'hex');
}

/**
 * `ConvertCosmosTxToEthereumTx` (legacy memos not allowed): the Ethereum tx a Cosmos tx stands for and the
 * sender its signer key implies, or undefined when the tx is not an Ethereum tx. Throws TxError
 * (`Tx conversion failed`) where minievm returns an error.
 */
export function ethTxOfCosmosTx(
  tx: DecodedTx,
  params: EthTxParams,
): { tx: TypedTransaction; sender: Uint8Array } | undefined {
  const msgs = tx.body.messages;
  if (msgs.length !== 1) return undefined;
  const msg = msgs[0]!;
  if (msg.typeUrl !== MSG_CALL && msg.typeUrl !== MSG_CREATE) return undefined;
  if (tx.body.memo.length === 0) return undefined;
  const md = parseMemo(tx.body.memo);
  if (!md || !SUPPORTED_TYPES.includes(md.type)) return undefined;
  const { signerInfos, fee } = tx.authInfo;
  if (signerInfos.length !== 1 || tx.signatures.length !== 1) return undefined;
  if (fee.amount.length !== 0 && (fee.amount.length !== 1 || fee.amount[0]!.denom !== params.feeDenom))
    return undefined;
  const info = signerInfos[0]!;
  if (!info.publicKey) return undefined;
  let sender: Uint8Array;
  try {
    sender = pubKeyToAddress(info.publicKey.typeUrl, pubKeyBytes(info.publicKey));
  } catch {
    return undefined;
  }
  if (sender.length !== 20 || info.modeInfo.single?.mode !== SIGN_MODE_ETHEREUM) return undefined;

  const signature = tx.signatures[0]!;
  if (signature.length !== 65 && signature.length !== 64) {
    throw evmTxError(EvmErrorCode.txConversionFailed, 'invalid signature length');
  }
  const r = BigInt(hex(signature.subarray(0, 32)));
  const s = BigInt(hex(signature.subarray(32, 64)));
  const v = signature.length === 65 ? BigInt(signature[64]!) : 0n;

  const feeAmount = ethTxFeeAmount(md.gasFeeCap, md.gasLimit, params.feeDecimals);
  const expectedFee = feeAmount === 0n ? [] : [{ denom: params.feeDenom, amount: feeAmount.toString() }];
  if (!sameCoins(fee.amount, expectedFee)) {
    throw evmTxError(EvmErrorCode.txConversionFailed, 'fee amount manipulation detected');
  }

  let to: Uint8Array | undefined;
  let data: Uint8Array;
  let valueUnits: string;
  let accessList: Array<{ address: string; storageKeys: string[] }>;
  if (msg.typeUrl === MSG_CALL) {
    const call = MsgCall.decode(msg.value);
    if (call.authList.length > 0) return undefined;
    to = contractAddressBytes(call.contractAddr, params.bech32Prefix);
    data = hexInput(call.input);
    valueUnits = call.value;
    accessList = call.accessList;
  } else {
    const create = MsgCreate.decode(msg.value);
    data = hexInput(create.code);
    valueUnits = create.value;
    accessList = create.accessList;
  }
  const value = toEthersUnit(params.feeDecimals, BigInt(valueUnits || '0'));
  const common = commonFor(params.evmChainId);
  const base = {
    nonce: info.sequence,
    gasLimit: md.gasLimit,
    ...(to ? { to } : {}),
    value,
    data,
    r,
    s,
  };
  const list = accessList.map((t) => ({
    address: t.address as `0x${string}`,
    storageKeys: t.storageKeys as `0x${string}`[],
  }));
  let ethTx: TypedTransaction;
  try {
    switch (md.type) {
      case 0:
        ethTx = createLegacyTx(
          { ...base, gasPrice: md.gasFeeCap, v: v + 35n + 2n * params.evmChainId },
          { common },
        );
        break;
      case 1:
        ethTx = createAccessList2930Tx(
          { ...base, chainId: params.evmChainId, gasPrice: md.gasFeeCap, accessList: list, v },
          { common },
        );
        break;
      default:
        ethTx = createFeeMarket1559Tx(
          {
            ...base,
            chainId: params.evmChainId,
            maxFeePerGas: md.gasFeeCap,
            maxPriorityFeePerGas: md.gasTipCap,
            accessList: list,
            v,
          },
          { common },
        );
    }
  } catch {
    // go-ethereum builds any tx from these fields and only fails at sender recovery.
    return undefined;
  }
  return { tx: ethTx, sender };
}

/** Whether the Ethereum signature of a SIGN_MODE_ETHEREUM tx recovers its signer (minievm's ante check). */
export function verifyEthereumTx(tx: DecodedTx, params: EthTxParams): boolean {
  let converted: ReturnType<typeof ethTxOfCosmosTx>;
  try {
    converted = ethTxOfCosmosTx(tx, params);
  } catch {
    return false;
  }
  if (!converted) return false;
  try {
    return Buffer.from(converted.tx.getSenderAddress().bytes).equals(Buffer.from(converted.sender));
  } catch {
    return false;
  }
}

/** keccak256 of the signed Ethereum tx bytes, `0x` lowercase. */
export function ethTxHash(tx: TypedTransaction): string {
  return hex(keccak_256(tx.serialize()));
}
