import { keccak_256 } from '@noble/hashes/sha3.js';
import { decodeAbiParameters, encodeFunctionData } from 'viem';
import { fromBech32, toBech32 } from 'weft/chain/address.js';
import { erc20ContractOf, erc20Denom, isErc20Denom } from 'weft/protocol/evm-denom.js';
import { moduleAddressBytes } from '../dev-chain.js';
import { appendMsgIndex, coinsToString, event } from '../events.js';
import type { StateReader } from '../state/store.js';
import { type BankContext, type BankKeeper, type Coin, TxError } from '../types.js';
import type { ContractArtifacts } from './contracts.js';
import { readErc20Balance } from './erc20-storage.js';
import { EvmErrorCode, evmTxError, revertTxError } from './errors.js';
import { executionEvents } from './evm-events.js';
import type { EvmOutcome } from './executor.js';
import { type EvmKeeper, execContextOf } from './keeper.js';
import { evmKeys } from './state-keys.js';

/** minievm's chain signer: the only caller the ERC20 `sudo*` functions accept. */
export const STD_ADDRESS = Uint8Array.from({ length: 20 }, (_, i) => (i === 19 ? 1 : 0));

/** Gas of the EVM calls a bank movement makes (minievm `erc20TransferGas`). */
const BANK_CALL_GAS = 1_000_000n;
const FACTORY_CALL_GAS = 10_000_000n;

const selector = (signature: string) => keccak_256(new TextEncoder().encode(signature)).subarray(0, 4);
const SUDO_TRANSFER = selector('sudoTransfer(address,address,uint256)');
const SUDO_MINT = selector('sudoMint(address,uint256)');
const SUDO_BURN = selector('sudoBurn(address,uint256)');

const word = (value: bigint) => Buffer.from(value.toString(16).padStart(64, '0'), 'hex');
const addressWord = (address: Uint8Array) => Buffer.concat([Buffer.alloc(12), address]);
const hexOf = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');

export interface Erc20Bank extends BankKeeper {
  /** ERC20 contract (bare lowercase hex) of a denom: minievm `DenomToContractAddr`. */
  contractOf(state: StateReader, denom: string): string | undefined;
  /** The denom of a contract (bare hex): minievm `ContractAddrToDenom`, `evm/<EIP-55 hex>` when unmapped. */
  denomOf(state: StateReader, contract: string): string;
  /** Every denom of the denom map (those the chain created an ERC20 for), sorted. */
  denoms(state: StateReader): string[];
  /** minievm `CreateERC20`: the factory deploys the token; emits `erc20_created`. Returns the contract. */
  createErc20(ctx: BankContext, denom: string, decimals: number): Promise<string>;
}

/** The EVM's 20-byte form of a bech32 account (minievm `convertToEVMAddress`). */
export function evmAddressOf(address: string): Uint8Array {
  const { bytes } = fromBech32(address);
  if (bytes.length !== 20)
    throw new TxError('evm', 2, 'Invalid address length: address must be 20 bytes to use EVM');
  return bytes;
}

/** The distribution module's account, which holds the community pool. */
const communityPool = (address: string) =>
  toBech32(fromBech32(address).prefix, moduleAddressBytes('distribution'));

/** An EVM failure of a bank call, as minievm's `EVMCall` reports it. */
function failureOf(outcome: EvmOutcome): TxError {
  const error = outcome.error!;
  if (error.kind === 'revert') return revertTxError(error.data);
  if (error.kind === 'vm') return evmTxError(EvmErrorCode.evmCallFailed, error.message);
  return new TxError('undefined', 1, error.message);
}

/**
 * The bank of the EVM rollup: every denom is a `NativeERC20` and every movement is an EVM call from the
 * std address (minievm's ERC20 keeper under its bank keeper, x/evm/keeper/erc20.go), so it emits `call`
 * and `evm` events before the SDK bank events. Balances are read from the token's storage. A denom
 * `evm/<hex>` is the ERC20 at that address (x/evm/types/denom.go): one made with the ERC20 factory moves
 * like the chain's own, through its `sudoTransfer`, so IBC escrows and releases it.
 */
export function createErc20Bank(options: { keeper: EvmKeeper; artifacts: ContractArtifacts }): Erc20Bank {
  const { keeper, artifacts } = options;

  const contractOf = (state: StateReader, denom: string) =>
    isErc20Denom(denom)
      ? erc20ContractOf(denom)?.slice(2).toLowerCase()
      : state.get(evmKeys.contractOfDenom(denom));
  const requireContract = (state: StateReader, denom: string): string => {
    if (isErc20Denom(denom) && !erc20ContractOf(denom)) throw evmTxError(EvmErrorCode.invalidDenom);
    const contract = contractOf(state, denom);
    // minievm looks the denom up in a collections map and returns its not-found error as is.
    if (!contract) throw new TxError('undefined', 1, `collections: not found: key '${denom}' of type string`);
    return contract;
  };

  const callToken = async (ctx: BankContext, contract: string, data: Uint8Array) => {
    const outcome = await keeper.run(execContextOf(ctx), {
      caller: STD_ADDRESS,
      to: Buffer.from(contract, 'hex'),
      data,
      gasLimit: BANK_CALL_GAS,
    });
    if (outcome.error) throw failureOf(outcome);
    ctx.events.push(
      ...executionEvents({
        kind: 'call',
        contract: Buffer.from(contract, 'hex'),
        ret: outcome.returnValue,
        logs: outcome.logs,
        createdContracts: outcome.createdContracts,
        msgIndex: ctx.msgIndex,
      }),
    );
  };

  const bank: Erc20Bank = {
    contractOf,
    denomOf: (state, contract) => state.get(evmKeys.denomOfContract(contract)) ?? erc20Denom(contract),
    denoms: (state) =>
      state
        .group(evmKeys.denomGroup)
        .map((key) => decodeURIComponent(key.slice(evmKeys.denomGroup.length + 1)))
        .sort(),
    balance(state, address, denom) {
      const contract = contractOf(state, denom);
      if (!contract) return 0n;
      // Balances are read from storage, whose layout is known for the factory's tokens only.
      if (isErc20Denom(denom) && !state.get(evmKeys.factoryErc20(contract))) return 0n;
      return readErc20Balance(state, contract, hexOf(evmAddressOf(address)));
    },
    balances(state, address) {
      const holder = hexOf(evmAddressOf(address));
      const coins: Coin[] = [];
      for (const denom of bank.denoms(state)) {
        const amount = readErc20Balance(state, contractOf(state, denom)!, holder);
        if (amount > 0n) coins.push({ denom, amount: amount.toString() });
      }
      // minievm lists the ERC20s of an account's stores by `ContractAddrToDenom`: users' tokens as `evm/…`.
      for (const key of state.group(evmKeys.factoryErc20Group)) {
        const contract = key.slice(evmKeys.factoryErc20Group.length + 1);
        const amount = readErc20Balance(state, contract, holder);
        if (amount > 0n) coins.push({ denom: erc20Denom(contract), amount: amount.toString() });
      }
      return coins.sort((a, b) => (a.denom < b.denom ? -1 : a.denom > b.denom ? 1 : 0));
    },
    async send(ctx, from, to, coins) {
      const sender = evmAddressOf(from);
      const recipient = evmAddressOf(to);
      for (const coin of coins) {
        const contract = requireContract(ctx.store, coin.denom);
        const data = Buffer.concat([
          SUDO_TRANSFER,
          addressWord(sender),
          addressWord(recipient),
          word(BigInt(coin.amount)),
        ]);
        await callToken(ctx, contract, data);
      }
      const amount = coinsToString(coins);
      ctx.events.push(
        ...appendMsgIndex(
          [
            event('coin_spent', { spender: from, amount }),
            event('coin_received', { receiver: to, amount }),
            event('transfer', { recipient: to, sender: from, amount }),
            event('message', { sender: from }),
          ],
          ctx.msgIndex,
        ),
      );
    },
    async mint(ctx, to, coins) {
      const recipient = evmAddressOf(to);
      // minievm mints only the coins it made an ERC20 for; an `evm/` token is minted by its own owner.
      const erc20 = coins.find((coin) => isErc20Denom(coin.denom));
      if (erc20) throw evmTxError(EvmErrorCode.invalidRequest, `cannot mint erc20 coin: ${erc20.denom}`);
      for (const coin of coins) {
        const contract = contractOf(ctx.store, coin.denom) ?? (await bank.createErc20(ctx, coin.denom, 0));
        await callToken(
          ctx,
          contract,
          Buffer.concat([SUDO_MINT, addressWord(recipient), word(BigInt(coin.amount))]),
        );
      }
      ctx.events.push(
        ...appendMsgIndex([event('coinbase', { minter: to, amount: coinsToString(coins) })], ctx.msgIndex),
      );
    },
    async burn(ctx, from, coins) {
      const holder = evmAddressOf(from);
      const burned = coins.filter((coin) => !isErc20Denom(coin.denom));
      for (const coin of burned) {
        const contract = requireContract(ctx.store, coin.denom);
        await callToken(
          ctx,
          contract,
          Buffer.concat([SUDO_BURN, addressWord(holder), word(BigInt(coin.amount))]),
        );
      }
      if (burned.length > 0) {
        const amount = coinsToString(burned);
        ctx.events.push(
          ...appendMsgIndex(
            [event('coin_spent', { spender: from, amount }), event('burn', { burner: from, amount })],
            ctx.msgIndex,
          ),
        );
      }
      // No burn capability over an `evm/` token: minievm's BurnCoins funds the community pool with it.
      const toPool = coins.filter((coin) => isErc20Denom(coin.denom));
      if (toPool.length > 0) await bank.send(ctx, from, communityPool(from), toPool);
    },
    async createErc20(ctx, denom, decimals) {
      const factory = ctx.store.get(evmKeys.factory);
      if (!factory) throw new TxError('evm', 25, 'Failed to get ERC20 factory address');
      const data = encodeFunctionData({
        abi: artifacts.ERC20Factory.abi,
        functionName: 'createERC20',
        args: [denom, denom, decimals],
      });
      const outcome = await keeper.run(execContextOf(ctx), {
        caller: STD_ADDRESS,
        to: Buffer.from(factory, 'hex'),
        data: Buffer.from(data.slice(2), 'hex'),
        gasLimit: FACTORY_CALL_GAS,
      });
      if (outcome.error) throw failureOf(outcome);
      const [created] = decodeAbiParameters([{ type: 'address' }], `0x${hexOf(outcome.returnValue)}`);
      const contract = created.slice(2).toLowerCase();
      ctx.store.set(evmKeys.contractOfDenom(denom), contract);
      ctx.store.set(evmKeys.denomOfContract(contract), denom);
      ctx.events.push(
        ...executionEvents({
          kind: 'call',
          contract: Buffer.from(factory, 'hex'),
          ret: outcome.returnValue,
          logs: outcome.logs,
          createdContracts: outcome.createdContracts,
          msgIndex: ctx.msgIndex,
        }),
        ...appendMsgIndex([event('erc20_created', { denom, contract: `0x${contract}` })], ctx.msgIndex),
      );
      return contract;
    },
  };
  return bank;
}
