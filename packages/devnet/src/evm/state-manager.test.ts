import { Account, createAddressFromString, KECCAK256_NULL } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { createStateStore } from '../state/store.js';
import { createOverlay } from './overlay.js';
import { createStoreStateManager } from './state-manager.js';

const address = createAddressFromString(`0x${'ab'.repeat(20)}`);
const slot = (n: number) => {
  const key = new Uint8Array(32);
  key[31] = n;
  return key;
};

describe('store state manager', () => {
  it('keeps accounts, code and stripped storage words under the evm keys', async () => {
    const store = createStateStore();
    const state = createStoreStateManager({ backend: store });
    await state.putAccount(address, new Account(3n));
    await state.putCode(address, Uint8Array.of(0x60, 0x00));
    await state.putStorage(address, slot(1), Uint8Array.of(0, 0, 7));
    const hex = 'ab'.repeat(20);
    expect(JSON.parse(store.get(`evm/a/${hex}`)!)).toMatchObject({ nonce: '3' });
    expect(store.get(`evm/c/${hex}`)).toBe('6000');
    expect(store.get(`evm/s/${hex}/${'00'.repeat(31)}01`)).toBe('07');
    expect(await state.getStorage(address, slot(1))).toEqual(Uint8Array.of(7));
    expect((await state.getAccount(address))!.isContract()).toBe(true);

    // Zero words are deleted; clearing storage removes the account's whole group.
    await state.putStorage(address, slot(1), new Uint8Array(32));
    expect(store.get(`evm/s/${hex}/${'00'.repeat(31)}01`)).toBeUndefined();
    await state.putStorage(address, slot(2), Uint8Array.of(9));
    await state.clearStorage(address);
    expect(store.group(`evm/s/${hex}`)).toEqual([]);

    await state.deleteAccount(address);
    expect(await state.getAccount(address)).toBeUndefined();
    expect((await state.getCode(address)).length).toBe(0);
  });

  it('maps checkpoints onto the store and drops reverted writes', async () => {
    const store = createStateStore();
    const state = createStoreStateManager({ backend: store });
    await state.putStorage(address, slot(1), Uint8Array.of(1));
    await state.checkpoint();
    await state.putStorage(address, slot(1), Uint8Array.of(2));
    await state.checkpoint();
    await state.putStorage(address, slot(1), Uint8Array.of(3));
    await state.revert();
    expect(await state.getStorage(address, slot(1))).toEqual(Uint8Array.of(2));
    await state.commit();
    expect(store.depth).toBe(0);
    expect(await state.getStorage(address, slot(1))).toEqual(Uint8Array.of(2));
  });

  it('runs over a past height with writes that never reach the store', async () => {
    const store = createStateStore();
    const state = createStoreStateManager({ backend: store });
    await state.putStorage(address, slot(1), Uint8Array.of(1));
    store.commitBlock(1);
    await state.putStorage(address, slot(1), Uint8Array.of(2));
    store.commitBlock(2);

    state.use(createOverlay(store.at(1)));
    expect(await state.getStorage(address, slot(1))).toEqual(Uint8Array.of(1));
    await state.putStorage(address, slot(1), Uint8Array.of(5));
    expect(await state.getStorage(address, slot(1))).toEqual(Uint8Array.of(5));
    state.use(store);
    expect(await state.getStorage(address, slot(1))).toEqual(Uint8Array.of(2));
    expect(store.at(1).get(`evm/s/${'ab'.repeat(20)}/${'00'.repeat(31)}01`)).toBe('01');
  });

  it('keeps no record for an account with neither nonce nor code', async () => {
    const store = createStateStore();
    const state = createStoreStateManager({ backend: store });
    await state.putAccount(address, new Account(0n, 0n, undefined, KECCAK256_NULL));
    expect(store.group('evm/a')).toEqual([]);
    expect(await state.getAccount(address)).toBeUndefined();
  });
});
