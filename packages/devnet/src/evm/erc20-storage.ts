import { keccak_256 } from '@noble/hashes/sha3.js';
import type { StateReader } from '../state/store.js';
import { evmKeys } from './state-keys.js';

/**
 * Direct access to `NativeERC20` balances in contract storage. The layout is fixed by the contract
 * (`owner` in slot 0, `balanceOf` in slot 1), so a balance is one store read: the same value a
 * `balanceOf` call returns, without running the EVM.
 */

const BALANCE_OF_SLOT = new Uint8Array(32);
BALANCE_OF_SLOT[31] = 1;

const MAX_CACHED_SLOTS = 100_000;
const slots = new Map<string, string>();

/** Storage slot (hex64) of `balanceOf[address]`: keccak256(pad32(address) ‖ pad32(1)). */
export function balanceSlot(address: string): string {
  let slot = slots.get(address);
  if (slot === undefined) {
    const preimage = new Uint8Array(64);
    preimage.set(Buffer.from(address, 'hex'), 12);
    preimage.set(BALANCE_OF_SLOT, 32);
    slot = Buffer.from(keccak_256(preimage)).toString('hex');
    if (slots.size >= MAX_CACHED_SLOTS) slots.clear();
    slots.set(address, slot);
  }
  return slot;
}

export function readErc20Balance(state: StateReader, contract: string, address: string): bigint {
  const word = state.get(evmKeys.storage(contract, balanceSlot(address)));
  return word === undefined ? 0n : BigInt(`0x${word}`);
}

export function writeErc20Balance(
  state: { set(key: string, value: string | undefined): void },
  contract: string,
  address: string,
  amount: bigint,
): void {
  state.set(evmKeys.storage(contract, balanceSlot(address)), amount === 0n ? undefined : wordHex(amount));
}

/** A storage word as the state manager stores it: big-endian, leading zero bytes stripped. */
export function wordHex(value: bigint): string {
  const hex = value.toString(16);
  return hex.length % 2 === 0 ? hex : `0${hex}`;
}
