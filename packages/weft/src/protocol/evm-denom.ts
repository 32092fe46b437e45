import { getAddress } from 'viem';

/**
 * minievm's `evm/` denoms (x/evm/types/denom.go): an ERC20 that backs no bank denom of the chain (one made
 * with the ERC20 factory, say) is a bank coin whose denom names the contract, `evm/<EIP-55 hex>`.
 */

export const ERC20_DENOM_PREFIX = 'evm/';

/** `IsERC20Denom`. */
export const isErc20Denom = (denom: string) => denom.startsWith(ERC20_DENOM_PREFIX);

/** go-ethereum's `common.IsHexAddress`: 40 hex digits, `0x` optional. */
const HEX_ADDRESS = /^(0[xX])?[0-9a-fA-F]{40}$/;

/**
 * `ContractAddrToDenom` of a contract outside the denom map: `evm/` and the checksummed hex without `0x`
 * (the spelling the real registry lists, and the one an IBC voucher's trace hashes).
 */
export function erc20Denom(contract: string): string {
  if (!HEX_ADDRESS.test(contract)) throw new Error(`not a hex address: ${contract}`);
  return `${ERC20_DENOM_PREFIX}${getAddress(`0x${contract.slice(-40)}`).slice(2)}`;
}

/**
 * `DenomToContractAddr` of an `evm/` denom: its contract as checksummed 0x hex, whatever the case it is
 * written in; undefined when the rest is not a hex address (minievm's `ErrInvalidDenom`).
 */
export function erc20ContractOf(denom: string): `0x${string}` | undefined {
  const hex = denom.slice(ERC20_DENOM_PREFIX.length);
  if (!isErc20Denom(denom) || !HEX_ADDRESS.test(hex)) return undefined;
  return getAddress(`0x${hex.slice(-40)}`);
}
