/**
 * What the fetch stage gathers for one height and the decode stage turns into an `IndexedBlock`.
 * Node answers are kept as the JSON the node gave (CometBFT RPC, Cosmos REST, EVM JSON-RPC).
 */

/** A node query the decoder needs for NFT metadata, answered at the block's height. */
export type MetaRequest =
  /** `POST /minievm/evm/v1/call` (ERC721 `name()`, `tokenURI(id)`); answered with the `response` hex. */
  | { kind: 'evm-call'; key: string; contract: string; input: string }
  /** `GET /initia/move/v1/accounts/{addr}/resources/by_struct_tag`; answered with the parsed `move_resource`. */
  | { kind: 'move-resource'; key: string; address: string; structTag: string }
  /** `GET /cosmwasm/wasm/v1/contract/{addr}/smart/{query}`; answered with `data`. */
  | { kind: 'wasm-smart'; key: string; contract: string; query: unknown }
  /** `GET /cosmwasm/wasm/v1/contract/{addr}`; answered with `contract_info`. */
  | { kind: 'wasm-contract-info'; key: string; contract: string };

/** The answer to a MetaRequest: a value, or the node's error text (e.g. a revert). */
export type MetaAnswer = { ok: true; value: unknown } | { ok: false; error: string };

export interface BlockBundle {
  height: number;
  /** CometBFT `/block` result. */
  block: {
    block_id: { hash: string };
    block: { header: Record<string, any>; data: { txs: string[] | null } };
  };
  /** CometBFT `/block_results` result. */
  blockResults: Record<string, any>;
  /** REST `/cosmos/tx/v1beta1/txs/block/{h}` txs, every page, in the order returned. */
  restTxs: Array<Record<string, any>>;
  /** EVM rollups: `eth_getBlockReceipts` result. */
  evmReceipts?: Array<Record<string, any>>;
  /** Answers to the decoder's metadata requests, by key. */
  meta: Map<string, MetaAnswer>;
}
