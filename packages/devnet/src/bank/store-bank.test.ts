import { describe, expect, it } from 'vitest';
import { deriveAccounts } from '../keys.js';
import { createAuth } from '../state/auth.js';
import { createStateStore } from '../state/store.js';
import { TxError } from '../types.js';
import { createStoreBank } from './store-bank.js';

const prefix = 'init';
const moduleAddress = (name: string) => new Uint8Array(Buffer.from(name.padEnd(20, '_').slice(0, 20)));

function setup() {
  const store = createStateStore();
  const auth = createAuth({ prefix, moduleAddress });
  const bank = createStoreBank({ auth });
  const ctx = {
    chain: { chainId: 'bank-1', vm: 'move' as const, bech32Prefix: prefix, denom: 'umin', minGasPrice: 0 },
    height: 1,
    time: '2026-01-01T00:00:00.000000000Z',
    timeMs: 0,
    proposerAddress: '',
    store,
    events: [],
  };
  const [a, b, c] = deriveAccounts({ seed: 'store-bank', count: 3, keyType: 'secp256k1', prefix });
  return { store, auth, bank, ctx, a: a!.address, b: b!.address, c: c!.address };
}

const umin = (amount: number) => [{ denom: 'umin', amount: String(amount) }];

describe('store bank account creation', () => {
  it('a mint creates the recipient account, a send creates the recipient, numbers in execution order', async () => {
    const { store, auth, bank, ctx, a, b, c } = setup();
    expect(auth.get(store, a)).toBeUndefined();
    await bank.mint(ctx, a, umin(100));
    expect(auth.get(store, a)?.number).toBe('0');
    await bank.send(ctx, a, c, umin(10));
    await bank.send(ctx, a, b, umin(10));
    expect(auth.get(store, c)).toEqual({ number: '1', sequence: '0', pubKey: null });
    expect(auth.get(store, b)?.number).toBe('2');
    // An existing account keeps its number and its sequence.
    auth.put(store, b, { ...auth.get(store, b)!, sequence: '4' });
    await bank.send(ctx, a, b, umin(1));
    expect(auth.get(store, b)).toEqual({ number: '2', sequence: '4', pubKey: null });
    expect(await bank.balance(store, b, 'umin')).toBe(11n);
  });

  it('a refused send creates no account', async () => {
    const { store, auth, bank, ctx, a, b } = setup();
    await expect(bank.send(ctx, a, b, umin(1))).rejects.toBeInstanceOf(TxError);
    expect(auth.get(store, b)).toBeUndefined();
    expect(auth.addresses(store)).toEqual([]);
  });

  it('a burn creates no account', async () => {
    const { store, auth, bank, ctx, a } = setup();
    await bank.mint(ctx, a, umin(5));
    await bank.burn(ctx, a, umin(5));
    expect(auth.addresses(store)).toEqual([a]);
  });
});
