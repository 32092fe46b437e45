/**
 * What the indexer hands the store. Plain data decoded from the chain, with no database ids: the
 * store turns addresses, msg types and NFTs into ids, assigns sequences and keeps the counters.
 * Addresses are raw bytes (20, or 32 for Move objects and Wasm contracts).
 */

export interface Coin {
  denom: string;
  amount: string;
}

/** One height, ready to write: the block, its txs and everything derived from them. */
export interface IndexedBlock {
  height: number;
  /** `block_id.hash` bytes. */
  hash: Uint8Array;
  /** Header time as the node gave it (RFC3339 with nanoseconds); kept as text so nothing is lost. */
  time: string;
  /** Valoper bech32 of the proposer (`sdk.ValAddressFromHex(proposer_address)`). */
  proposer: string;
  gasUsed: bigint;
  gasWanted: bigint;
  txCount: number;
  /** Sum of the fees of every tx, sorted by denom. */
  totalFee: Coin[];
  txs: IndexedTx[];
  /** EVM rollups: one entry per receipt of `eth_getBlockReceipts`, in order. */
  evmTxs: IndexedEvmTx[];
  /** NFT effects of the block, in event order (block-level events included). */
  nftChanges: NftChange[];
  /** ICS-721 receives: collections named `className` get `originName`. */
  nftOrigins: Array<{ className: string; originName: string }>;
  /**
   * Accounts only the extensions name at this height (call frames' from/to, ERC20 transfer parties),
   * in their order. The block registers them, so an account's id follows where it first appears in
   * the chain, not which writer happened to commit first.
   */
  extensionAccounts?: Uint8Array[];
}

export interface IndexedTx {
  /** sha256 of the raw bytes. */
  hash: Uint8Array;
  /** Position in the block. */
  index: number;
  code: number;
  /** First signer (`auth_info.signer_infos[0]`). */
  signer: Uint8Array;
  /** Msg type URLs without the leading `/`, de-duplicated, in first-seen order. */
  msgTypes: string[];
  /** Every account the tx touches (signer included, flagged), de-duplicated. */
  accounts: Array<{ address: Uint8Array; signer: boolean }>;
  /** The API's Cosmos tx record (rollytics `types.Tx`: txhash, height, codespace, code, data, …, events). */
  record: Record<string, unknown>;
  /** NFTs the tx minted, moved, changed or burned (for the per-token tx history). */
  nfts: NftKey[];
}

export interface IndexedEvmTx {
  /** Ethereum tx hash (32 bytes). */
  hash: Uint8Array;
  index: number;
  /** `from`. */
  signer: Uint8Array;
  /** from, to, contractAddress, log addresses and address-shaped topics; `from` flagged as signer. */
  accounts: Array<{ address: Uint8Array; signer: boolean }>;
  /** The API's EVM tx record (rollytics `types.EvmTx`: the receipt's fields). */
  record: Record<string, unknown>;
}

/** An NFT is known by its collection and token id; Move NFTs also have an object address. */
export interface NftKey {
  collection: Uint8Array;
  tokenId: string;
}

export type NftChange =
  | {
      kind: 'collection';
      collection: Uint8Array;
      name: string;
      /** Creator account; for EVM collections the store derives it from the first tx that touched the contract. */
      creator?: Uint8Array;
      txIndex: number | null;
    }
  | {
      kind: 'mint';
      nft: NftKey;
      /** Move object address of the NFT. */
      objectAddr?: Uint8Array;
      owner: Uint8Array;
      uri: string;
      txIndex: number | null;
    }
  | { kind: 'transfer'; nft: NftKey; to: Uint8Array; txIndex: number | null }
  | { kind: 'uri'; nft: NftKey; uri: string; txIndex: number | null }
  | { kind: 'burn'; nft: NftKey; txIndex: number | null };

/** One EVM call frame of `debug_traceBlockByNumber` (callTracer), numbered as rollytics does. */
export interface IndexedInternalTx {
  /** Ethereum hash of the tx the frame belongs to. */
  txHash: Uint8Array;
  index: number;
  parentIndex: number;
  type: string;
  from: Uint8Array;
  to: Uint8Array | null;
  input: Uint8Array;
  output: Uint8Array;
  value: Uint8Array;
  gas: Uint8Array;
  gasUsed: Uint8Array;
}

/** A change of a holder's balance of one denom (the rich list). */
export interface BalanceDelta {
  account: Uint8Array;
  denom: string;
  delta: bigint;
}
