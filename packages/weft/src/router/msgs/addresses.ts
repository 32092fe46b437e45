import { fromBech32, toBech32, toChecksumAddress, toHexAddress } from '../../chain/address.js';
import { AddressError } from '../errors.js';
import type { RouterChain } from '../registry/types.js';

/** An account on one chain in both spellings it may need: bech32 for Cosmos msgs, 0x hex for EVM txs. */
export interface ChainAddress {
  chainId: string;
  /** bech32 with the chain's prefix (absent on EVM-only chains). */
  bech32?: string;
  /** 20-byte EIP-55 hex (absent for Cosmos accounts that are not 20 bytes). */
  hex?: string;
  bytes: Uint8Array;
}

const HEX20 = /^0x[0-9a-fA-F]{40}$/;

/**
 * Checks an address against its chain's format: `0x` + 20 bytes on EVM chains; bech32 with the
 * chain's prefix on Cosmos chains (EVM rollups also take `0x` hex, the same account).
 */
export function chainAddress(chain: RouterChain, input: unknown): ChainAddress {
  if (typeof input !== 'string' || input === '')
    throw new AddressError(`missing address for chain ${chain.chainId}`);
  if (chain.kind === 'evm') {
    if (!HEX20.test(input))
      throw new AddressError(
        `invalid address for chain ${chain.chainId}: ${short(input)} (expected 0x and 40 hex digits)`,
      );
    const bytes = Uint8Array.from(Buffer.from(input.slice(2), 'hex'));
    return { chainId: chain.chainId, hex: toChecksumAddress(input), bytes };
  }
  if (HEX20.test(input) && chain.minitia === 'minievm') {
    const bytes = Uint8Array.from(Buffer.from(input.slice(2), 'hex'));
    return {
      chainId: chain.chainId,
      bech32: toBech32(chain.bech32Prefix, bytes),
      hex: toChecksumAddress(input),
      bytes,
    };
  }
  let decoded: { prefix: string; bytes: Uint8Array };
  try {
    decoded = fromBech32(input);
  } catch {
    throw new AddressError(
      `invalid address for chain ${chain.chainId}: ${short(input)} (expected bech32 ${chain.bech32Prefix}1…)`,
    );
  }
  if (decoded.prefix !== chain.bech32Prefix)
    throw new AddressError(
      `invalid address for chain ${chain.chainId}: ${short(input)} has prefix ${decoded.prefix}, the chain uses ${chain.bech32Prefix}`,
    );
  if (decoded.bytes.length !== 20 && decoded.bytes.length !== 32)
    throw new AddressError(
      `invalid address for chain ${chain.chainId}: ${short(input)} is not 20 or 32 bytes`,
    );
  return {
    chainId: chain.chainId,
    bech32: input,
    hex: decoded.bytes.length === 20 ? toChecksumAddress(toHexAddress(decoded.bytes)) : undefined,
    bytes: decoded.bytes,
  };
}

const short = (text: string) => JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
