import { bytesToHex, fromBech32, hexToBytes, toBech32 } from 'weft/chain/address.js';
import { padMoveAddress } from 'weft/chain/move-object.js';

export {
  collectionAddress,
  createObjectAddress,
  MOVE_ADDRESS_LENGTH,
  nftAddress,
  padMoveAddress,
  STD_ADDRESS,
} from 'weft/chain/move-object.js';

/**
 * initia's `AccAddressFromString`: `0x`-hex (short forms allowed) or bech32 with the chain prefix,
 * padded to 32 bytes.
 */
export function parseMoveAddress(input: string, prefix: string): Uint8Array {
  if (input.startsWith('0x')) {
    let hex = input.slice(2);
    if (hex.length % 2 === 1) hex = `0${hex}`;
    if (!/^[0-9a-fA-F]*$/.test(hex) || hex.length > 64) throw new Error(`invalid hex address ${input}`);
    return padMoveAddress(hexToBytes(hex));
  }
  const { prefix: p, bytes } = fromBech32(input);
  if (p !== prefix) throw new Error(`invalid address ${input}: expected prefix ${prefix}, got ${p}`);
  return padMoveAddress(bytes);
}

/** Move's `AccountAddress::to_hex_literal`: `0x` + hex with leading zeros trimmed (`0x0` for zero). */
export function toHexLiteral(address: Uint8Array): string {
  const trimmed = bytesToHex(address).replace(/^0+/, '');
  return `0x${trimmed === '' ? '0' : trimmed}`;
}

/** movevm's Go `AccountAddress.String()` (used in the `execute` event): like `toHexLiteral`, but zero is `0x`. */
export function vmAddressString(address: Uint8Array): string {
  return `0x${bytesToHex(address).replace(/^0+/, '')}`;
}

/** 64 lowercase hex characters, the form used in state keys and abort locations. */
export function canonicalHex(address: Uint8Array): string {
  return bytesToHex(address);
}

/** initia's `ConvertVMAddressToSDKAddress`: drops the 12 zero bytes of padding when they are there. */
export function moveToAccAddress(address: Uint8Array, prefix: string): string {
  const padded = address.subarray(0, 12).every((b) => b === 0);
  return toBech32(prefix, padded ? address.subarray(12) : address);
}
