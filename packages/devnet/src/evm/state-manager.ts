import type { AccountFields, StateManagerInterface } from '@ethereumjs/common';
import { OriginalStorageCache } from '@ethereumjs/statemanager';
import {
  Account,
  type Address,
  equalsBytes,
  KECCAK256_NULL,
  KECCAK256_RLP,
  unpadBytes,
} from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import type { StateReader } from '../state/store.js';
import type { EvmStateBackend } from './overlay.js';
import { evmKeys } from './state-keys.js';

/** Where native (wei) balances live. minievm keeps them in the fee denom's ERC20, and so do we. */
export interface NativeBalances {
  get(state: StateReader, address: string): bigint;
  set(state: EvmStateBackend, address: string, wei: bigint): void;
}

export interface StoreStateManager extends StateManagerInterface {
  /** Points the manager at another backend: the block's store, a CheckTx state, a query overlay. */
  use(backend: EvmStateBackend): void;
  readonly backend: EvmStateBackend;
}

interface AccountJson {
  nonce: string;
  codeHash?: string;
}

const hexOf = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
const bytesOf = (hex: string) => new Uint8Array(Buffer.from(hex, 'hex'));
const addressHex = (address: Address) => hexOf(address.bytes);

/**
 * ethereumjs's `StateManagerInterface` over the devnet store (keys in `state-keys.ts`). Checkpoints map
 * onto the store's nested checkpoints, so an EVM frame that reverts drops exactly its own writes, and a
 * tx the chain reverts drops the EVM's writes with everything else. There is no Merkle trie: the state
 * root is the empty-trie root, as minievm's Ethereum headers carry.
 */
export function createStoreStateManager(options: {
  backend: EvmStateBackend;
  balances?: NativeBalances;
}): StoreStateManager {
  let backend = options.backend;
  const { balances } = options;
  // Decoded code by address; valid while the stored hex is the same string.
  const codeCache = new Map<string, { hex: string; bytes: Uint8Array }>();

  const readAccount = (address: string): AccountJson | undefined => {
    const raw = backend.get(evmKeys.account(address));
    return raw === undefined ? undefined : (JSON.parse(raw) as AccountJson);
  };

  const getAccount = async (address: Address): Promise<Account | undefined> => {
    const hex = addressHex(address);
    const record = readAccount(hex);
    const balance = balances ? balances.get(backend, hex) : 0n;
    if (!record && balance === 0n) return undefined;
    return new Account(
      record ? BigInt(record.nonce) : 0n,
      balance,
      KECCAK256_RLP,
      record?.codeHash ? bytesOf(record.codeHash) : KECCAK256_NULL,
    );
  };

  const putAccount = async (address: Address, account?: Account): Promise<void> => {
    if (account === undefined) return deleteAccount(address);
    const hex = addressHex(address);
    const key = evmKeys.account(hex);
    const hasCode = !equalsBytes(account.codeHash, KECCAK256_NULL);
    // An account with neither nonce nor code needs no record: its balance lives in the ERC20.
    const next =
      account.nonce === 0n && !hasCode
        ? undefined
        : JSON.stringify(
            hasCode
              ? { nonce: account.nonce.toString(), codeHash: hexOf(account.codeHash) }
              : { nonce: account.nonce.toString() },
          );
    if (backend.get(key) !== next) backend.set(key, next);
    if (balances && balances.get(backend, hex) !== account.balance)
      balances.set(backend, hex, account.balance);
  };

  const clearStorage = async (address: Address): Promise<void> => {
    for (const key of backend.group(evmKeys.storageGroup(addressHex(address)))) backend.set(key, undefined);
  };

  const deleteAccount = async (address: Address): Promise<void> => {
    const hex = addressHex(address);
    backend.set(evmKeys.account(hex), undefined);
    backend.set(evmKeys.code(hex), undefined);
    await clearStorage(address);
  };

  const getCode = async (address: Address): Promise<Uint8Array> => {
    const hex = addressHex(address);
    const stored = backend.get(evmKeys.code(hex));
    if (stored === undefined) return new Uint8Array(0);
    const cached = codeCache.get(hex);
    if (cached && cached.hex === stored) return cached.bytes;
    const bytes = bytesOf(stored);
    codeCache.set(hex, { hex: stored, bytes });
    return bytes;
  };

  const getStorage = async (address: Address, key: Uint8Array): Promise<Uint8Array> => {
    const word = backend.get(evmKeys.storage(addressHex(address), hexOf(key)));
    return word === undefined ? new Uint8Array(0) : bytesOf(word);
  };

  const manager: StoreStateManager = {
    get backend() {
      return backend;
    },
    use(next) {
      backend = next;
    },
    getAccount,
    putAccount,
    deleteAccount,
    async modifyAccountFields(address: Address, fields: AccountFields) {
      const account = (await getAccount(address)) ?? new Account();
      if (fields.nonce !== undefined) account.nonce = fields.nonce;
      if (fields.balance !== undefined) account.balance = fields.balance;
      if (fields.codeHash !== undefined) account.codeHash = fields.codeHash;
      if (fields.storageRoot !== undefined) account.storageRoot = fields.storageRoot;
      await putAccount(address, account);
    },
    async putCode(address, value) {
      const hex = addressHex(address);
      backend.set(evmKeys.code(hex), value.length === 0 ? undefined : hexOf(value));
      const account = (await getAccount(address)) ?? new Account();
      account.codeHash = value.length === 0 ? KECCAK256_NULL : keccak_256(value);
      await putAccount(address, account);
    },
    getCode,
    async getCodeSize(address) {
      return (await getCode(address)).length;
    },
    getStorage,
    async putStorage(address, key, value) {
      const word = unpadBytes(value);
      backend.set(
        evmKeys.storage(addressHex(address), hexOf(key)),
        word.length === 0 ? undefined : hexOf(word),
      );
    },
    clearStorage,
    async checkpoint() {
      backend.checkpoint();
    },
    async commit() {
      backend.commit();
    },
    async revert() {
      backend.revert();
    },
    async getStateRoot() {
      return KECCAK256_RLP;
    },
    async setStateRoot() {},
    async hasStateRoot(root) {
      return equalsBytes(root, KECCAK256_RLP);
    },
    originalStorageCache: new OriginalStorageCache(getStorage),
    clearCaches() {
      codeCache.clear();
    },
    shallowCopy() {
      return createStoreStateManager({ backend, ...(balances ? { balances } : {}) });
    },
  };
  return manager;
}
