import { bytesToHex, fromBech32, toBech32 } from 'weft/chain/address.js';
import type { StateReader, StateStore } from './store.js';

/** An account as the auth module keeps it. Numbers are decimal strings so the record is plain JSON. */
export interface AccountRecord {
  number: string;
  sequence: string;
  /** `{typeUrl, key}` with the key base64, set by the first signed tx. */
  pubKey: { typeUrl: string; key: string } | null;
  module?: { name: string; permissions: string[] };
}

const accountKey = (hex: string) => `auth/a/${hex}`;
const NEXT_NUMBER = 'auth/next';

export interface Auth {
  readonly prefix: string;
  get(state: StateReader, address: string): AccountRecord | undefined;
  /** Returns the account, creating it with the next account number when new. */
  ensure(store: StateStore, address: string): AccountRecord;
  put(store: StateStore, address: string, account: AccountRecord): void;
  /** Every account address (bech32), in key order. */
  addresses(state: StateReader): string[];
  /** The 20-byte module account address of a module name (SDK `authtypes.NewModuleAddress`). */
  moduleAddress(name: string): string;
}

export function createAuth(options: { prefix: string; moduleAddress: (name: string) => Uint8Array }): Auth {
  const { prefix } = options;
  const hexOf = (address: string) => bytesToHex(fromBech32(address).bytes);
  const auth: Auth = {
    prefix,
    get(state, address) {
      const raw = state.get(accountKey(hexOf(address)));
      return raw === undefined ? undefined : (JSON.parse(raw) as AccountRecord);
    },
    ensure(store, address) {
      const existing = auth.get(store, address);
      if (existing) return existing;
      const number = store.get(NEXT_NUMBER) ?? '0';
      store.set(NEXT_NUMBER, String(BigInt(number) + 1n));
      const account: AccountRecord = { number, sequence: '0', pubKey: null };
      auth.put(store, address, account);
      return account;
    },
    put(store, address, account) {
      store.set(accountKey(hexOf(address)), JSON.stringify(account));
    },
    addresses(state) {
      return state.group('auth/a').map((key) => toBech32(prefix, Buffer.from(key.slice(7), 'hex')));
    },
    moduleAddress(name) {
      return toBech32(prefix, options.moduleAddress(name));
    },
  };
  return auth;
}
