/** Where the EVM module keeps its state in the store. Addresses are lowercase hex without `0x`. */
export const evmKeys = {
  /** Account JSON: `{nonce, codeHash?}` (balances live in the fee denom's ERC20). */
  account: (address: string) => `evm/a/${address}`,
  /** Runtime code, hex. */
  code: (address: string) => `evm/c/${address}`,
  /** One storage word, hex with leading zeros stripped; absent = zero. */
  storage: (address: string, slot: string) => `evm/s/${address}/${slot}`,
  storageGroup: (address: string) => `evm/s/${address}`,
  /** ERC20 contract of a bank denom. */
  contractOfDenom: (denom: string) => `evm/denom/${encodeURIComponent(denom)}`,
  denomGroup: 'evm/denom',
  /** Bank denom of an ERC20 contract. */
  denomOfContract: (address: string) => `evm/erc20/${address}`,
  /** Address of the ERC20 factory deployed at genesis. */
  factory: 'evm/factory',
  /** An ERC20 a user made with the factory (minievm's `ERC20s` set; the chain's own are in the denom map). */
  factoryErc20: (address: string) => `evm/user-erc20/${address}`,
  factoryErc20Group: 'evm/user-erc20',
} as const;

/** `0x…` or bare hex of any case → bare lowercase hex. */
export function bareHex(address: string): string {
  return (address.startsWith('0x') || address.startsWith('0X') ? address.slice(2) : address).toLowerCase();
}
