import { BaseError } from '../common/errors.js';
import { insertRows } from './bulk.js';
import { createCallPacker } from './call-codec.js';
import { addressKey, type Dictionary } from './dictionary.js';
import { appendEdges } from './edge-pack.js';
import type { IndexedInternalTx } from './records.js';
import { CheckpointError, type WriteSession } from './write-session.js';

export interface InternalTxHeight {
  height: number;
  /** Every call frame of every EVM tx of the height, in the order they get their sequences. */
  calls: IndexedInternalTx[];
}

/**
 * Writes traced heights (their own sequence, from/to edges, counters) and the `internal_tx`
 * checkpoint. Heights must follow the checkpoint and may not pass the block checkpoint, since each
 * call points at its EVM tx row.
 */
export async function writeInternalTxHeights(
  session: WriteSession,
  accounts: Dictionary<Uint8Array>,
  heights: InternalTxHeight[],
): Promise<void> {
  const checkpoint = session.progress('internal_tx');
  const blocks = session.progress('block');
  const first = heights[0]!.height;
  const last = heights[heights.length - 1]!.height;
  if (checkpoint !== null && first <= checkpoint) {
    throw new CheckpointError(
      `internal txs of height ${first} are at or below the checkpoint ${checkpoint}; writing resumes at ${checkpoint + 1}`,
      checkpoint,
    );
  }
  if (blocks === null || last > blocks) {
    throw new CheckpointError(
      `internal txs of height ${last} are ahead of the indexed blocks (${blocks ?? 'none'})`,
      checkpoint,
    );
  }

  const calls = heights.flatMap((h) => h.calls.map((call) => ({ height: h.height, call })));
  const ids = await accounts.resolve(
    session,
    calls.flatMap(({ call }) => (call.to ? [call.from, call.to] : [call.from])),
  );
  const hashes = new Map(calls.map(({ call }) => [addressKey(call.txHash), call.txHash]));
  const parents = new Map<string, number>();
  if (hashes.size > 0) {
    const rows = await session.tx.query<{ sequence: string; hash: Buffer }>(
      'SELECT sequence, hash FROM evm_tx WHERE hash = ANY($1::bytea[])',
      [[...hashes.values()]],
    );
    for (const row of rows) parents.set(row.hash.toString('hex'), Number(row.sequence));
  }

  let sequence = session.counter('internal_tx');
  const edges = { account: [] as number[], sequence: [] as number[] };
  const packer = createCallPacker();
  for (const { height, call } of calls) {
    const parent = parents.get(addressKey(call.txHash));
    if (parent === undefined) {
      throw new BaseError(
        'WEFT_ERR_STORE_UNKNOWN_EVM_TX',
        `internal tx of unknown EVM tx 0x${addressKey(call.txHash)}: its block must be written first`,
      );
    }
    sequence += 1;
    const fromId = ids.get(addressKey(call.from))!;
    const toId = call.to ? ids.get(addressKey(call.to))! : null;
    packer.add(sequence, parent, height, call);
    for (const id of new Set(toId === null ? [fromId] : [fromId, toId])) {
      edges.account.push(id);
      edges.sequence.push(sequence);
      session.addAccountStat(id, 'internal_txs');
    }
  }
  session.counters.add('internal_tx', calls.length);
  await insertRows(session.tx, 'evm_internal_tx_pack', packer.take(true));
  await appendEdges(session.tx, 'evm_internal_tx_account_pack', edges);
  session.setProgress('internal_tx', last);
}
