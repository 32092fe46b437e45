/**
 * What the tracker knows of a tracked transfer. A transfer is keyed by its source tx `(chain_id, tx_hash)`;
 * its hops are discovered from the events of the txs it touches and hold the evidence seen so far (which
 * txs happened), from which every state is derived. Evidence may arrive in any order (a follower can
 * replay older blocks after a restart), so nothing here depends on the order it was recorded in.
 */

/** A chain the tracker follows, as the registry describes it. */
export interface TrackedChain {
  chainId: string;
  kind: 'cosmos' | 'evm';
  rpc?: string;
  rest?: string;
  jsonRpc?: string;
  /** The L1 (registry `metadata.is_l1`): host of the OPinit bridges. */
  isL1?: boolean;
  /** OPinit bridge id of a rollup (registry `metadata.op_bridge_id`). */
  opBridgeId?: string;
  /** Omnichain endpoint id of a member (registry `metadata.omnichain.eid`). */
  omnichainEid?: number;
  /** Block explorer URL of a tx, `{hash}` replaced (none: the node's own tx URL). */
  explorerTxUrl?: string;
  /** The chain at the far end of each of its IBC channels (registry `_IBC` files), by channel id. */
  ibcPeers?: Record<string, string>;
}

export const TRANSACTION_STATES = [
  'STATE_SUBMITTED',
  'STATE_PENDING',
  'STATE_PENDING_ERROR',
  'STATE_COMPLETED_SUCCESS',
  'STATE_COMPLETED_ERROR',
  'STATE_ABANDONED',
] as const;

export type TransactionState = (typeof TRANSACTION_STATES)[number];

export const TERMINAL_STATES: ReadonlySet<TransactionState> = new Set([
  'STATE_COMPLETED_SUCCESS',
  'STATE_COMPLETED_ERROR',
  'STATE_ABANDONED',
]);

/** Where and when a tx landed. */
export interface ChainTx {
  chainId: string;
  txHash: string;
  height: number;
  /** RFC 3339 UTC. */
  time: string;
}

export interface IbcHop {
  kind: 'ibc';
  fromChainId: string;
  toChainId?: string;
  srcPort: string;
  srcChannel: string;
  dstPort: string;
  dstChannel: string;
  sequence: string;
  denom?: string;
  amount?: string;
  /**
   * The packet's timeouts on the destination, from its `send_packet`: `<revision>-<height>` and ns of the
   * destination's block time, each absent when the packet has none (or was recorded before weft kept them).
   */
  timeoutHeight?: string;
  timeoutTimestamp?: string;
  send: ChainTx;
  receive?: ChainTx;
  /** The acknowledgement the destination wrote: `error` set for an error ack. */
  written?: { tx: ChainTx; error?: string };
  acknowledge?: ChainTx & { error?: string };
  timeout?: ChainTx;
  /** Index of the hop the destination forwarded this packet into (packet-forward middleware). */
  forwardedTo?: number;
}

export interface OpinitHop {
  kind: 'opinit';
  direction: 'deposit' | 'withdrawal';
  fromChainId: string;
  toChainId?: string;
  bridgeId?: string;
  /** l1_sequence of a deposit, l2_sequence of a withdrawal. */
  sequence: string;
  /** Denom on the source chain and on the destination. */
  fromDenom: string;
  toDenom: string;
  amount: string;
  send: ChainTx;
  receive?: ChainTx & { success: boolean; reason?: string };
  /** A failed deposit goes back to the L1 through a withdrawal of this l2_sequence. */
  refundSequence?: string;
  refund?: ChainTx;
}

export interface OmnichainHop {
  kind: 'omnichain';
  fromChainId: string;
  toChainId?: string;
  guid: string;
  srcEid: number;
  dstEid: number;
  /** bytes32 of the sending app, lowercase 0x hex. */
  sender: string;
  nonce: string;
  amount?: string;
  send: ChainTx;
  verify?: ChainTx;
  receive?: ChainTx;
  /** The last failed delivery (the executor retries it). */
  alert?: ChainTx & { reason: string };
}

export type Hop = IbcHop | OpinitHop | OmnichainHop;

export interface StatusError {
  type:
    | 'STATUS_ERROR_UNKNOWN'
    | 'STATUS_ERROR_TRANSACTION_EXECUTION'
    | 'STATUS_ERROR_INDEXING'
    | 'STATUS_ERROR_TRANSFER';
  message: string;
  details?: { code: number; message: string } | null;
}

/** The stored progress of one transfer (the `progress` column). */
export interface TransferProgress {
  /** The source tx once seen on chain; `code` 0 is success. */
  source?: ChainTx & { code: number; log?: string; denom?: string; amount?: string };
  hops: Hop[];
  /** Set when the tracker gave up on the transfer. */
  abandoned?: { reason: string };
  /** Height to read each followed chain from after a restart (the evidence still awaited there). */
  watch: Record<string, number>;
  /** Catch-up look-ups done (`<wait key>@<chain id>`), or needless because a follower saw the time span. */
  searched?: string[];
}

export interface TrackedTransfer {
  id: string;
  chainId: string;
  /** Normalised: lowercase hex without 0x. */
  txHash: string;
  state: TransactionState;
  progress: TransferProgress;
  version: number;
  createdAt: string;
  lastProgressAt: string;
}

/** What `GET /v2/tx/recent` asks the store for: the newest `limit` transfers, optionally filtered. */
export interface RecentQuery {
  limit: number;
  /** Source chain. */
  chainId?: string;
  /** Stored state. */
  state?: TransactionState;
}
