import type { StateDelta, StateReader } from './state/store.js';
import type { RestTx } from './tx/tx-json.js';
import type { AbciEvent, ChainInfo, Coin } from './types.js';

/**
 * The contracts between a devnet chain and the node surfaces that serve it (CometBFT RPC, Cosmos REST,
 * EVM JSON-RPC). Records are kept in wire-ready JSON so the servers only wrap and page them.
 */

/** ExecTxResult exactly as CometBFT v0.38 renders it in `/block_results` (int64 as strings, data base64). */
export interface ExecTxResultJson {
  code: number;
  data: string | null;
  log: string;
  info: string;
  gas_wanted: string;
  gas_used: string;
  events: Array<{ type: string; attributes?: Array<{ key: string; value: string; index: boolean }> }>;
  codespace: string;
}

export interface TxRecord {
  /** Uppercase hex SHA-256 of the raw bytes. */
  hash: string;
  /** Base64 of the raw TxRaw bytes. */
  raw: string;
  index: number;
  /** The tx as Cosmos REST renders it: `{body, auth_info, signatures}` (snake_case, Any as `@type`). */
  restTx: RestTx;
  result: ExecTxResultJson;
  /** 0x keccak hash of the Ethereum view of the tx, when it has one (eth txs and cosmos txs that logged). */
  ethHash?: string;
}

/** Ethereum views of one block (EVM rollup only), in minievm's JSON-RPC encodings. */
export interface EvmBlockRecord {
  /** `eth_getBlockByNumber(h, false)` result: header fields plus `transactions` as hashes. */
  block: Record<string, unknown>;
  /** Full transaction objects, in block order (for `eth_getBlockByNumber(h, true)` and by-hash lookups). */
  transactions: Array<Record<string, unknown>>;
  /** `eth_getBlockReceipts` result. */
  receipts: Array<Record<string, unknown>>;
  /** `debug_traceBlockByNumber` with callTracer: `{txHash, result}` per eth tx. */
  traces: Array<{ txHash: string; result?: Record<string, unknown>; error?: string }>;
}

export interface BlockRecord {
  height: number;
  /** CometBFT `/block` result (`{block_id, block}`). */
  block: { block_id: Record<string, unknown>; block: Record<string, any> };
  /** CometBFT `/block_results` result. */
  blockResults: Record<string, unknown>;
  txs: TxRecord[];
  evm?: EvmBlockRecord;
  /** The state writes of the block; replayed on restart. */
  delta: StateDelta;
  /** App hash after the block (uppercase hex). */
  appHash: string;
}

export interface CheckTxResult {
  code: number;
  codespace: string;
  log: string;
  /** Base64 of the response data (empty for CheckTx). */
  data: string;
  hash: string;
  gasWanted: string;
  gasUsed: string;
}

export interface AccountView {
  address: string;
  accountNumber: bigint;
  sequence: bigint;
  /** `{"@type", key}` or null before the first signed tx. */
  pubKey: { '@type': string; key: string } | null;
  /** Set for module accounts. */
  module?: { name: string; permissions: string[] };
}

/** What the node surfaces need from a chain. Heights absent = latest. */
export interface ChainNode extends ChainNodeExtensions {
  readonly info: ChainInfo;
  latestHeight(): number;
  /** Lowest height still served (raised by pruning). */
  earliestHeight(): number;
  getBlock(height: number): BlockRecord | undefined;
  /** Locates a committed tx by its uppercase hex hash. */
  findTx(hash: string): { height: number; index: number } | undefined;
  broadcastTx(raw: Uint8Array): Promise<CheckTxResult>;
  /** Runs the tx against the latest state without committing (REST simulate). */
  simulateTx(
    raw: Uint8Array,
  ): Promise<{ gasUsed: bigint; gasWanted: bigint; events: AbciEvent[]; error?: string }>;
  /** State as of the end of `height`. */
  state(height?: number): StateReader;
  accounts(height?: number): AccountView[];
  account(address: string, height?: number): AccountView | undefined;
  balances(address: string, height?: number): Promise<Coin[]>;
  /** Consensus validator of the rollup (the sequencer). */
  validator(): { consensusAddress: string; pubKeyBase64: string; operatorAddress: string; moniker: string };
}

/** EVM queries of the minievm JSON-RPC and REST surfaces. Addresses are 0x hex; heights absent = latest. */
export interface EvmNode {
  call(
    args: { from?: string; to?: string; data?: string; value?: bigint; gas?: bigint },
    height?: number,
  ): Promise<{ returnData: string; gasUsed: bigint; error?: string }>;
  estimateGas(args: { from?: string; to?: string; data?: string; value?: bigint }): Promise<bigint>;
  balance(address: string, height?: number): Promise<bigint>;
  nonce(address: string, height?: number): bigint;
  code(address: string, height?: number): string;
  gasPrice(): bigint;
  /** Accepts a signed Ethereum tx; returns its 0x hash or throws an Error with the node's message. */
  sendRawTransaction(raw: Uint8Array): Promise<string>;
  findEthTx(hash: string): { height: number; index: number } | undefined;
  /** ERC20 contract of a bank denom (minievm `contracts/by_denom`). */
  contractByDenom(denom: string): string | undefined;
  /** minievm `ContractAddrToDenom`: the mapped denom, else `evm/<EIP-55 hex>`. */
  denomByContract(address: string): string;
  /** The ERC20 factory deployed at genesis (minievm `contracts/erc20_factory`), checksummed 0x. */
  erc20Factory(): string | undefined;
}

/**
 * A `#[view]` function call: its args JSON strings as `MsgExecuteJSON`'s (`Query/ViewJSON`) or BCS bytes
 * as `MsgExecute`'s (`Query/View`, `Query/LegacyView`).
 */
export interface MoveViewCall {
  address: string;
  moduleName: string;
  functionName: string;
  typeArgs: string[];
  args: Array<string | Uint8Array>;
}

/** Move resources (`/initia/move/v1/accounts/{addr}/resources/by_struct_tag`) and views. */
export interface MoveNode {
  resource(
    address: string,
    structTag: string,
    height?: number,
  ): { address: string; struct_tag: string; move_resource: string; raw_bytes: string } | undefined;
  /** The view's return values as a JSON string; throws an Error with the VM's message (an abort, a bad argument). */
  view?(call: MoveViewCall, height?: number): string;
}

/** CosmWasm queries (`/cosmwasm/wasm/v1/contract/...`). */
export interface WasmNode {
  /** Answers a smart query; throws an Error with the contract's message on a bad query. */
  smartQuery(contract: string, query: unknown, height?: number): unknown;
  contractInfo(contract: string, height?: number): Record<string, unknown> | undefined;
}

export interface ChainNodeExtensions {
  evm?: EvmNode;
  move?: MoveNode;
  wasm?: WasmNode;
}
