import {
  encodeDeployData,
  getAddress,
  getContractAddress,
  type Hex,
  hexToBytes,
  keccak256,
  toHex,
} from 'viem';
import { erc20Denom } from 'weft/protocol/evm-denom.js';
import { contractArtifacts } from '../evm/contracts.js';
import { STD_ADDRESS } from '../evm/erc20-bank.js';
import { execContextOf } from '../evm/keeper.js';
import type { EvmModule } from '../evm/module.js';
import type { AssetJson } from '../registry/types.js';
import type { AbciEvent, BlockContext } from '../types.js';

/**
 * The EVM rollup's wrapper of the bridged L1 fee asset: a `CoinWrapper` ERC20 over the `l2/…` coin's
 * ERC20, deployed at genesis from the chain's address with CREATE2, so its address follows from the
 * underlying ERC20's. A deposit whose hook approves the coin to it and calls `wrapAll` arrives wrapped.
 */

const WRAPPER_SALT = keccak256(toHex('opinit/coin-wrapper'));
const WRAPPER_NAME = 'Wrapped INIT';
const WRAPPER_SYMBOL = 'WINIT';
const WRAPPER_DECIMALS = 6;
const GENESIS_GAS = 30_000_000n;

function initCode(underlying: Hex): Hex {
  const { CoinWrapper } = contractArtifacts();
  return encodeDeployData({
    abi: CoinWrapper.abi,
    bytecode: toHex(CoinWrapper.bytecode),
    args: [underlying, WRAPPER_NAME, WRAPPER_SYMBOL, WRAPPER_DECIMALS],
  });
}

/** The wrapper's address (checksummed) over an underlying ERC20. */
export function coinWrapperAddress(underlying: Hex): Hex {
  return getContractAddress({
    opcode: 'CREATE2',
    from: toHex(STD_ADDRESS),
    salt: WRAPPER_SALT,
    bytecode: initCode(underlying),
  });
}

/**
 * Genesis: creates the ERC20 of `denom` (as its first deposit would) and deploys its wrapper. Answers
 * the underlying ERC20 and the wrapper.
 */
export async function deployCoinWrapper(
  evm: EvmModule,
  ctx: BlockContext & { events: AbciEvent[] },
  denom: string,
): Promise<{ underlying: Hex; wrapper: Hex }> {
  const known = evm.bank.contractOf(ctx.store, denom);
  const underlying = getAddress(`0x${known ?? (await evm.bank.createErc20(ctx, denom, 0))}`);
  const outcome = await evm.keeper.run(execContextOf(ctx), {
    caller: STD_ADDRESS,
    data: hexToBytes(initCode(underlying)),
    salt: hexToBytes(WRAPPER_SALT),
    gasLimit: GENESIS_GAS,
  });
  const wrapper = coinWrapperAddress(underlying);
  if (outcome.error || !outcome.createdAddress || toHex(outcome.createdAddress) !== wrapper.toLowerCase())
    throw new Error(`evm genesis: the wrapper of ${denom} was not deployed at ${wrapper}`);
  return { underlying, wrapper };
}

/**
 * The wrapper's assetlist entry: an ERC20 (`evm/<address>`, minievm's denom of a contract) whose
 * `wrapped` trace names the coin it wraps on the same chain and the contract that wraps it.
 */
export function coinWrapperAsset(input: {
  chainName: string;
  chainId: string;
  wrapper: Hex;
  underlyingDenom: string;
}): AssetJson {
  const denom = erc20Denom(input.wrapper);
  return {
    description: 'INIT bridged from the L1 through OPinit, wrapped 1:1 into an ERC20 on arrival',
    denom_units: [
      { denom, exponent: 0 },
      { denom: WRAPPER_SYMBOL, exponent: WRAPPER_DECIMALS },
    ],
    type_asset: 'erc20',
    address: input.wrapper,
    base: denom,
    display: WRAPPER_SYMBOL,
    name: WRAPPER_NAME,
    symbol: WRAPPER_SYMBOL,
    traces: [
      {
        type: 'wrapped',
        counterparty: {
          chain_name: input.chainName,
          chain_id: input.chainId,
          base_denom: input.underlyingDenom,
        },
        chain: { contract: input.wrapper },
        provider: 'weft devnet',
      },
    ],
  };
}
