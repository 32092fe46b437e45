import type { StateReader, StateStore } from './state/store.js';

export type VmType = 'evm' | 'move' | 'wasm';

/** What a chain is to the network: the L1, a rollup, or a chain outside Initia (Cosmos or Ethereum). */
export type ChainRole = 'l1' | 'rollup' | 'external-cosmos' | 'external-evm';

/** CometBFT v0.38 event attribute: plain text key and value. */
export interface EventAttribute {
  key: string;
  value: string;
  index: boolean;
}

export interface AbciEvent {
  type: string;
  attributes: EventAttribute[];
}

export interface Coin {
  denom: string;
  amount: string;
}

/** A protobuf Any as it travels inside a tx body. */
export interface AnyMsg {
  typeUrl: string;
  value: Uint8Array;
}

/** Static facts about one devnet chain. */
export interface ChainInfo {
  chainId: string;
  /** The chain's VM; a bank-only chain has none. */
  vm: VmType | 'none';
  /** Absent: a rollup. */
  role?: ChainRole;
  bech32Prefix: string;
  /** Fee and staking denom. */
  denom: string;
  /** Minimum gas price in `denom` per gas unit (a decimal). */
  minGasPrice: number;
  /** EVM chain id (EVM chains only). */
  evmChainId?: number;
}

/** Block-level context handed to modules. */
export interface BlockContext {
  chain: ChainInfo;
  height: number;
  /** Block time, RFC3339 with nanoseconds. */
  time: string;
  timeMs: number;
  /** Uppercase hex consensus address (20 bytes) of the proposer. */
  proposerAddress: string;
  store: StateStore;
}

export interface GasMeter {
  readonly limit: bigint;
  readonly used: bigint;
  consume(amount: bigint, descriptor: string): void;
}

/** What a module sees while one tx runs. */
export interface TxContext extends BlockContext {
  mode: 'check' | 'deliver' | 'simulate';
  txHash: string;
  txIndex: number;
  /** bech32 addresses of the tx's signers, in signer_infos order. */
  signers: string[];
  gas: GasMeter;
  /** Event sink of the tx; modules push events in emission order. */
  events: AbciEvent[];
  /** Index of the msg being executed (for the `msg_index` attribute). */
  msgIndex: number;
  /** Set for txs that arrived through `eth_sendRawTransaction`. */
  eth?: EthTxEnvelope;
  /** The chain's msg router (baseapp's MsgServiceRouter), for modules that run msgs of their own. */
  router?: (typeUrl: string) => MsgModule | undefined;
}

/** The Ethereum view of a tx that came in through `eth_sendRawTransaction` (minievm ConvertEthereumTxToCosmosTx). */
export interface EthTxEnvelope {
  /** 0x-prefixed keccak hash of the signed Ethereum tx. */
  hash: string;
  raw: Uint8Array;
  from: string;
  nonce: bigint;
  gasLimit: bigint;
  type: number;
}

/** A failure that ends a tx with a non-zero ABCI code (SDK `errorsmod` style). */
export class TxError extends Error {
  override name = 'TxError';
  constructor(
    readonly codespace: string,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
  /** The log line a node prints: `<message>: <registered error text>`. */
  get log(): string {
    return this.message;
  }
}

/** A module that executes msgs of some type URLs. */
export interface MsgModule {
  readonly name: string;
  readonly typeUrls: readonly string[];
  /** Decodes enough of the msg to tell who must sign it (bech32 addresses). */
  signers(msg: AnyMsg): string[];
  /** Executes the msg; returns the msg response Any for TxMsgData. Throws TxError on failure. */
  execute(ctx: TxContext, msg: AnyMsg): Promise<AnyMsg> | AnyMsg;
}

/** Hooks a module may add around blocks. Events returned are emitted in finalize_block_events. */
export interface BlockHooks {
  beginBlock?(ctx: BlockContext): AbciEvent[] | Promise<AbciEvent[]>;
  endBlock?(ctx: BlockContext): AbciEvent[] | Promise<AbciEvent[]>;
}

/** Read access to module state at a height, used by the REST and JSON-RPC surfaces. */
export type StateAt = (height?: number) => StateReader;

/** Where events of a bank movement go, and at which block. */
export interface BankContext extends BlockContext {
  events: AbciEvent[];
  /** `msg_index` to append to emitted events, when inside a msg. */
  msgIndex?: number;
  gas?: GasMeter;
}

/**
 * Balances of bank denoms. On move/wasm (and the L1) they live in the state store; on the EVM rollup
 * every denom is an ERC20 contract and movements run `sudoTransfer` in the EVM (as minievm does), so
 * they also emit `call` and `evm` events.
 */
export interface BankKeeper {
  balance(state: StateReader, address: string, denom: string): Promise<bigint> | bigint;
  balances(state: StateReader, address: string): Promise<Coin[]> | Coin[];
  /** Throws TxError(sdk, 5, "spendable balance ... is smaller than ...: insufficient funds"). */
  send(ctx: BankContext, from: string, to: string, coins: Coin[]): Promise<void>;
  /** Creates coins (genesis funding, IBC receives). */
  mint(ctx: BankContext, to: string, coins: Coin[]): Promise<void>;
  /** Destroys coins held by `from` (SDK `BurnCoins`); throws TxError(sdk, 5) when they are not there. */
  burn(ctx: BankContext, from: string, coins: Coin[]): Promise<void>;
}
