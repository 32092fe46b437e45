import { BaseError, GrpcCode } from '../../common/errors.js';

/** The tracking API's errors, with the gRPC codes and texts Skip Go API v2 answers them with. */

/** `GET /v2/tx/status` of a tx nobody asked to track (Skip: 404 `{code: 5, message: "tx not found"}`). */
export class TxNotTrackedError extends BaseError {
  override name = 'TxNotTrackedError';
  constructor(chainId: string, txHash: string) {
    super('WEFT_ERR_TX_NOT_TRACKED', `tx not found: ${txHash} on ${chainId} is not tracked`, {
      status: 404,
      grpcCode: GrpcCode.NOT_FOUND,
    });
  }
}

/** A chain the router does not follow (Skip: 404 `chain ID not supported`). */
export class ChainNotSupportedError extends BaseError {
  override name = 'ChainNotSupportedError';
  constructor(chainId: string) {
    super('WEFT_ERR_CHAIN_NOT_SUPPORTED', `chain ID not supported: ${chainId}`, {
      status: 404,
      grpcCode: GrpcCode.NOT_FOUND,
    });
  }
}

/** A tx hash that is not 32 bytes of hex (with or without 0x). */
export class InvalidTxHashError extends BaseError {
  override name = 'InvalidTxHashError';
  constructor(txHash: string) {
    super(
      'WEFT_ERR_INVALID_TX_HASH',
      `tx is invalid: tx_hash must be 64 hex digits, got ${JSON.stringify(txHash.slice(0, 80))}`,
      {
        status: 400,
        grpcCode: GrpcCode.INVALID_ARGUMENT,
      },
    );
  }
}

/**
 * `POST /v2/tx/track` of a new tx while the transfers awaiting their source tx are at the cap: a client
 * tracking hashes that never land would grow the table without end (HTTP 429, Retry-After).
 */
export class TooManyUnseenError extends BaseError {
  override name = 'TooManyUnseenError';
  constructor(
    max: number,
    readonly retryAfterSeconds: number,
  ) {
    super(
      'WEFT_ERR_TOO_MANY_UNSEEN',
      `too many tracked txs not yet seen on chain (at most ${max}): retry once some have landed or were abandoned`,
      { status: 429, retryable: true, grpcCode: GrpcCode.RESOURCE_EXHAUSTED },
    );
  }
}

/**
 * `POST /v2/tx/submit` (Skip broadcasts the signed tx it is given; `@skip-go/client`'s `executeRoute` calls
 * it): the router never broadcasts a user's tx, so it answers HTTP 501 (code 12, UNIMPLEMENTED) at once,
 * saying what to do instead.
 */
export class TxSubmitNotServedError extends BaseError {
  override name = 'TxSubmitNotServedError';
  constructor() {
    super(
      'WEFT_ERR_TX_SUBMIT_NOT_SERVED',
      "tx submit is not served: the router never broadcasts. Broadcast the signed tx with the chain's own node (the `rpc` or `rest` of /v2/info/chains: CometBFT broadcast_tx_sync, Cosmos REST POST /cosmos/tx/v1beta1/txs, or eth_sendRawTransaction), then POST /v2/tx/track {tx_hash, chain_id} and poll GET /v2/tx/status",
      { status: 501, grpcCode: GrpcCode.UNIMPLEMENTED },
    );
  }
}

/**
 * A tracked transfer whose stored progress does not validate (`progress-codec.ts`): written by a newer
 * weft, or edited by hand. Its status is a 500 naming the row and the fields at fault; the row is left as
 * it is, for an operator to mend or a newer router to read.
 */
export class TrackedProgressInvalidError extends BaseError {
  override name = 'TrackedProgressInvalidError';
  constructor(
    readonly row: { id: string; chainId: string; txHash: string },
    reason: string,
  ) {
    super(
      'WEFT_ERR_TRACKED_PROGRESS_INVALID',
      `tracked transfer ${row.id} (tx ${row.txHash} on ${row.chainId}) cannot be read: its stored progress: ${reason}`,
      {
        status: 500,
        grpcCode: GrpcCode.INTERNAL,
        hint: 'the row is left as it is; a router of the weft version that wrote it reads it',
      },
    );
  }
}
