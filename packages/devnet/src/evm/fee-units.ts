import { keccak_256 } from '@noble/hashes/sha3.js';

/** minievm's unit conversions between the fee denom's decimals and wei (x/evm/types/decimals.go). */

const ETHER_DECIMALS = 18;
const pow10 = (n: number) => 10n ** BigInt(n);

/** Amount in a denom with `decimals` → wei. */
export function toEthersUnit(decimals: number, amount: bigint): bigint {
  if (decimals === ETHER_DECIMALS) return amount;
  return decimals > ETHER_DECIMALS
    ? amount / pow10(decimals - ETHER_DECIMALS)
    : amount * pow10(ETHER_DECIMALS - decimals);
}

/** Wei → amount in a denom with `decimals` (truncating). */
export function fromEthersUnit(decimals: number, wei: bigint): bigint {
  if (decimals === ETHER_DECIMALS) return wei;
  return decimals > ETHER_DECIMALS
    ? wei * pow10(decimals - ETHER_DECIMALS)
    : wei / pow10(ETHER_DECIMALS - decimals);
}

/**
 * minievm `computeGasFeeAmount`: the fee of an Ethereum tx in the fee denom. It adds one unit to the
 * truncated amount rather than rounding up, so an exact amount still gets +1.
 */
export function ethTxFeeAmount(gasFeeCap: bigint, gasLimit: bigint, decimals: number): bigint {
  if (gasFeeCap === 0n) return 0n;
  return fromEthersUnit(decimals, gasFeeCap * gasLimit) + 1n;
}

/**
 * minievm's gas price and base fee in wei: the fee denom's minimum gas price truncated to 9 decimals,
 * then scaled from `decimals + 9` to 18 decimals.
 */
export function gasPriceWei(minGasPrice: number, decimals: number): bigint {
  const scaled = BigInt(minGasPrice.toFixed(9).replace('.', ''));
  return toEthersUnit(decimals + 9, scaled);
}

/** minievm `ConvertCosmosChainIDToEthereumChainID`: keccak of the chain id, first 8 bytes, mod MetaMask's max. */
export function evmChainIdOf(chainId: string): bigint {
  const hash = keccak_256(new TextEncoder().encode(chainId));
  return Buffer.from(hash.subarray(0, 8)).readBigUInt64BE() % 4503599627370476n;
}
