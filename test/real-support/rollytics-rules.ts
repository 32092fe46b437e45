import { fromBech32, toBech32 } from '@cosmjs/encoding';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';

/**
 * What rollytics stores for a Cosmos tx: the accounts it is listed under (`tx_accounts`), which of them is
 * its signer (`tx_accounts.signer`, the `is_signer` filter) and its msg types (`tx_msg_types`, the `msgs`
 * filter). Read from a REST `tx_response` for the tests over real txs, written straight from
 * initia-labs/rollytics@3a2b99d39afac6c645393c861b942eaf36b4ecbf and importing nothing from src/, so a
 * misreading in weft's decoder shows as a difference. Paths below are in that commit.
 */

export const ROLLYTICS_COMMIT = '3a2b99d39afac6c645393c861b942eaf36b4ecbf';

/** Enough of a REST `tx_response` (the node's JSON: `events` are the block results' events of the tx). */
export interface TxResponseInput {
  tx: {
    body: { messages: Array<Record<string, unknown>> };
    auth_info: { signer_infos: Array<{ public_key?: { '@type'?: string; key?: string } | null }> };
  };
  events: Array<{ type: string; attributes?: Array<{ key: string; value?: string }> | null }>;
}

export interface RollyticsTx {
  /** Every account the tx is listed under, bech32 with the chain's prefix, sorted. The signer is one of them. */
  accounts: string[];
  /** The same accounts as lowercase hex of their 20 or 32 bytes (no `0x`), sorted. */
  accountsHex: string[];
  /** The one account with `signer = true`: the first signer info's key (later signers are not flagged). */
  signer: string;
  /** Stored msg types: the top-level `@type`s without the leading `/`, each once, sorted. */
  msgTypes: string[];
  /**
   * Types only carried inside an authz `MsgExec` (nested ones too): rollytics does not store them, so a
   * `msgs` filter on one of them does not find this tx.
   */
  nestedOnlyMsgTypes: string[];
  /**
   * Fungible-store addresses of `0x1::fungible_asset…` events, which `GrepAddressesFromTx` looks up in its
   * `fa_store` table to add their owners. That look-up finds nothing (see `grepAddressesFromTx`), so no
   * owner is added; listed so a test can say so.
   */
  faStoreLookups: string[];
}

export interface RollyticsRulesOptions {
  /** The chain's account prefix (rollytics' `ACCOUNT_ADDRESS_PREFIX`, `init` on every Initia chain). */
  prefix: string;
  vm: 'evm' | 'move' | 'wasm';
}

// indexer/collector/tx/address.go: the bech32 pattern names `init1` whatever the configured prefix.
// (weft deliberately greps `<prefix>1` instead; on `init` chains the two agree.)
const INIT_BECH32 = /^init1(?:[a-z0-9]{38}|[a-z0-9]{58})$/;
const INIT_HEX = /^0x(?:[a-fA-F0-9]{1,64})$/;
const MOVE_HEX = /0x(?:[a-fA-F0-9]{1,64})/g;
const PADDED_TOPIC = '0x000000000000000000000000';

/**
 * util/util.go `AccAddressFromString`: without `0x`, the SDK's `AccAddressFromBech32` (configured prefix,
 * 1 to 255 bytes); else hex: `0x` trimmed, leading zeros trimmed, lowercased, left-padded to 20 bytes (40
 * digits) or 32 (64); more digits or a non-hex digit is an error (null here).
 */
export function accAddressFromString(text: string, prefix: string): Uint8Array | null {
  if (!text.startsWith('0x') && text.trim() !== '') {
    try {
      const { prefix: hrp, data } = fromBech32(text, 1023);
      if (hrp === prefix && data.length > 0 && data.length <= 255) return data;
    } catch {
      // not bech32: read as hex below, as Go does
    }
  }
  const digits = (text.startsWith('0x') ? text.slice(2) : text).replace(/^0+/, '').toLowerCase();
  if (digits.length > 64 || !/^[0-9a-f]*$/.test(digits)) return null;
  return Uint8Array.from(Buffer.from(digits.padStart(digits.length <= 40 ? 40 : 64, '0'), 'hex'));
}

/**
 * indexer/collector/tx/address.go `GrepAddressesFromTx`, over the tx's events:
 * - `move` / `data`: every `0x…` run in the JSON (`findAllMoveHexAddress`); when the attribute before it
 *   is a `type_tag` starting `0x1::fungible_asset`, its `store_addr` goes to the `fa_store` look-up;
 * - `evm` / `log`: the log's `address` and, after the first, each topic starting with 24 zero digits;
 * - `call` / `ret`: skipped;
 * - anything else: the value split on `,`, each piece kept when it is wholly `init1…` bech32 or `0x` hex.
 * Each kept string goes through `AccAddressFromString`; what fails is skipped.
 *
 * The `fa_store` look-up (`tx.Where("store_addr IN ?", storeAddrs)`) passes the `0x…` strings for a
 * `bytea` column: pgx sends a Go string in text format, PostgreSQL's bytea input reads `0x…` as its 66
 * ASCII bytes, and no 32-byte store address equals that, so no owner is ever added (and `faStoreCache`,
 * filled only from the rows found, stays empty).
 */
function grepAddressesFromTx(events: TxResponseInput['events'], prefix: string) {
  const grepped: Uint8Array[] = [];
  const faStores = new Set<string>();
  for (const event of events) {
    const attributes = event.attributes ?? [];
    attributes.forEach((attr, idx) => {
      const value = attr.value ?? '';
      const found: string[] = [];
      if (event.type === 'move' && attr.key === 'data') {
        found.push(...(value.match(MOVE_HEX) ?? []));
        const prev = attributes[idx - 1];
        if (prev?.key === 'type_tag' && (prev.value ?? '').startsWith('0x1::fungible_asset')) {
          const store = (JSON.parse(value) as { store_addr?: string }).store_addr;
          if (store) faStores.add(store);
        }
      } else if (event.type === 'evm' && attr.key === 'log') {
        const log = JSON.parse(value) as { address?: string; topics?: string[] | null };
        found.push(log.address ?? '');
        (log.topics ?? []).forEach((topic, i) => {
          if (i > 0 && topic.startsWith(PADDED_TOPIC)) found.push(topic);
        });
      } else if (event.type === 'call' && attr.key === 'ret') {
        return;
      } else {
        for (const piece of value.split(',')) {
          if (INIT_BECH32.test(piece)) found.push(piece);
          if (INIT_HEX.test(piece)) found.push(piece);
        }
      }
      for (const text of found) {
        const bytes = accAddressFromString(text, prefix);
        if (bytes) grepped.push(bytes);
      }
    });
  }
  return { grepped, faStores: [...faStores] };
}

/**
 * indexer/collector/tx/collect.go `collect`: `authInfo.SignerInfos[0].PublicKey` unpacked and its
 * `Address()`. A tx without a key there makes rollytics fail (a nil key's `Address()`), so this throws.
 */
function signerAddress(response: TxResponseInput): Uint8Array {
  const key = response.tx.auth_info.signer_infos[0]?.public_key;
  const type = key?.['@type'];
  const bytes = Buffer.from(key?.key ?? '', 'base64');
  switch (type) {
    case '/cosmos.crypto.secp256k1.PubKey':
      return ripemd160(sha256(bytes));
    case '/initia.crypto.v1beta1.ethsecp256k1.PubKey':
      return keccak_256(secp256k1.Point.fromBytes(bytes).toBytes(false).subarray(1)).slice(12);
    case '/cosmos.crypto.ed25519.PubKey':
      return sha256(bytes).slice(0, 20);
    default:
      throw new Error(`rollytics-rules: no signer address for a key of type ${String(type)}`);
  }
}

/**
 * indexer/collector/tx/util.go `grepMsgTypesFromRestTx`: `body.messages[].@type` with one leading `/`
 * trimmed. Only the top level: an authz `MsgExec`'s `msgs` (and an ICA packet's msgs) are not read.
 */
function msgTypesOf(response: TxResponseInput): string[] {
  return [...new Set(response.tx.body.messages.map((m) => String(m['@type']).replace(/^\//, '')))].sort();
}

function nestedMsgTypes(messages: Array<Record<string, unknown>>, out: Set<string>): Set<string> {
  for (const msg of messages) {
    if (msg['@type'] !== '/cosmos.authz.v1beta1.MsgExec' || !Array.isArray(msg.msgs)) continue;
    const inner = msg.msgs as Array<Record<string, unknown>>;
    for (const m of inner) out.add(String(m['@type']).replace(/^\//, ''));
    nestedMsgTypes(inner, out);
  }
  return out;
}

const hexOf = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/**
 * The rows rollytics writes for one Cosmos tx (indexer/collector/tx/collect.go `collect`): the grepped
 * accounts plus the signer, de-duplicated by their bech32 text (so by bytes: 20 and 32 bytes stay apart).
 * The evm-ret cleanup (indexer/extension/evmret) and the tx-account cleanup (indexer/extension/
 * txaccountcleanup) re-derive the same set with the same `GrepAddressesFromTx`, so they change nothing here.
 * The rules do not depend on the VM: only Move chains fill `fa_store`, hence `faStoreLookups` only there.
 */
export function rollyticsTxRules(response: TxResponseInput, options: RollyticsRulesOptions): RollyticsTx {
  if (!Array.isArray(response.events)) throw new Error('rollytics-rules: the tx_response has no events');
  const { grepped, faStores } = grepAddressesFromTx(response.events, options.prefix);
  const signer = signerAddress(response);
  const byHex = new Map<string, Uint8Array>();
  for (const bytes of [...grepped, signer]) byHex.set(hexOf(bytes), bytes);
  const accountsHex = [...byHex.keys()].sort();
  const topLevel = msgTypesOf(response);
  return {
    accounts: accountsHex.map((hex) => toBech32(options.prefix, byHex.get(hex)!, 1023)).sort(),
    accountsHex,
    signer: toBech32(options.prefix, signer, 1023),
    msgTypes: topLevel,
    nestedOnlyMsgTypes: [...nestedMsgTypes(response.tx.body.messages, new Set())]
      .filter((type) => !topLevel.includes(type))
      .sort(),
    faStoreLookups: options.vm === 'move' ? faStores.sort() : [],
  };
}

/** An `eth_getBlockReceipts` entry, as far as rollytics reads it (types/tx.go `EvmTx`). */
export interface EvmReceiptInput {
  from: string;
  to?: string | null;
  contractAddress?: string | null;
  logs?: Array<{ address: string; topics?: string[] | null }> | null;
}

/**
 * indexer/collector/tx/address.go `grepAddressesFromEvmTx` and collect.go `collectEvm`: the EVM tx's
 * accounts (`evm_tx_accounts`) are `from`, `to`, the created contract, each log's address and its
 * address-shaped topics after the first; the signer is `from`. An address that does not read fails the block.
 */
export function rollyticsEvmTxRules(
  receipt: EvmReceiptInput,
  prefix: string,
): { accounts: string[]; signer: string } {
  const found: string[] = [];
  if (receipt.from) found.push(receipt.from);
  if (receipt.to) found.push(receipt.to);
  if (receipt.contractAddress) found.push(receipt.contractAddress);
  for (const log of receipt.logs ?? []) {
    found.push(log.address);
    (log.topics ?? []).forEach((topic, i) => {
      if (i > 0 && topic.startsWith(PADDED_TOPIC)) found.push(topic);
    });
  }
  const bech32 = (text: string) => {
    const bytes = accAddressFromString(text, prefix);
    if (!bytes) throw new Error(`rollytics-rules: ${JSON.stringify(text)} is not an address`);
    return toBech32(prefix, bytes, 1023);
  };
  const signer = bech32(receipt.from);
  return { accounts: [...new Set([...found.map(bech32), signer])].sort(), signer };
}
