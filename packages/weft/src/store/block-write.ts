import { createTally, insertRows, rowsFrom } from './bulk.js';
import { addressKey, type Dictionary } from './dictionary.js';
import { appendEdges } from './edge-pack.js';
import { applyNftChanges, type NftBlock } from './nft-book.js';
import { encodeRecord, recordText } from './record-codec.js';
import type { IndexedBlock, IndexedEvmTx, IndexedTx } from './records.js';
import { CheckpointError, type WriteSession } from './write-session.js';

export interface BlockDictionaries {
  accounts: Dictionary<Uint8Array>;
  msgTypes: Dictionary<string>;
  msgSets: Dictionary<number[]>;
}

/** Every address the blocks name, in one fixed order (so new account ids do not depend on batching). */
function blockAddresses(blocks: IndexedBlock[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (const block of blocks) {
    for (const txs of [block.txs, block.evmTxs]) {
      for (const tx of txs) {
        out.push(tx.signer);
        for (const account of tx.accounts) out.push(account.address);
      }
    }
    for (const change of block.nftChanges) {
      if (change.kind === 'collection' && change.creator) out.push(change.creator);
      if (change.kind === 'mint') out.push(change.owner);
      if (change.kind === 'transfer') out.push(change.to);
    }
    if (block.extensionAccounts) out.push(...block.extensionAccounts);
  }
  return out;
}

/** The tx's accounts with its signer, each once. */
function edgeAccounts(
  tx: IndexedTx | IndexedEvmTx,
  ids: Map<string, number>,
): { signerId: number; accountIds: number[] } {
  const signerId = ids.get(addressKey(tx.signer))!;
  const accountIds = new Set<number>([signerId]);
  for (const account of tx.accounts) accountIds.add(ids.get(addressKey(account.address))!);
  return { signerId, accountIds: [...accountIds] };
}

/** Writes a batch of consecutive blocks and their checkpoint inside the caller's write session. */
export async function writeBlockBatch(
  session: WriteSession,
  dictionaries: BlockDictionaries,
  blocks: IndexedBlock[],
): Promise<void> {
  const { tx } = session;
  const checkpoint = session.progress('block');
  const first = blocks[0]!.height;
  if (checkpoint !== null && first <= checkpoint) {
    throw new CheckpointError(
      `block ${first} is at or below the checkpoint ${checkpoint}; writing resumes at ${checkpoint + 1}`,
      checkpoint,
    );
  }

  const accountIds = await dictionaries.accounts.resolve(session, blockAddresses(blocks));
  const msgTypeIds = await dictionaries.msgTypes.resolve(
    session,
    blocks.flatMap((b) => b.txs.flatMap((t) => t.msgTypes)),
  );
  const msgSetOf = (t: IndexedTx) =>
    [...new Set(t.msgTypes.map((m) => msgTypeIds.get(m)!))].sort((a, b) => a - b);
  const msgSetIds = await dictionaries.msgSets.resolve(
    session,
    blocks.flatMap((b) => b.txs.map(msgSetOf)),
  );

  // block_time: ms since the previous block, from the batch or the table; 0 if it is not indexed.
  const blockRows = rowsFrom(blockColumns(blocks));
  await tx.query(
    `INSERT INTO block (height, hash, timestamp, block_time, proposer, gas_used, gas_wanted, tx_count, total_fee)
     SELECT r.height, r.hash, r.timestamp,
       coalesce(trunc(extract(epoch FROM r.timestamp - coalesce(lag(r.timestamp) OVER (ORDER BY r.height), p.timestamp)) * 1000), 0)::int8,
       r.proposer, r.gas_used, r.gas_wanted, r.tx_count, r.total_fee
     FROM ${blockRows.from} LEFT JOIN block p ON p.height = r.height - 1`,
    blockRows.params,
  );
  session.counters.add('block', blocks.length);

  // Cosmos txs and their account edges.
  let sequence = session.counter('tx');
  const txRows = {
    sequence: [] as number[],
    hash: [] as Uint8Array[],
    height: [] as number[],
    signer: [] as number[],
    set: [] as number[],
    record: [] as Buffer[],
  };
  const edges = { account: [] as number[], sequence: [] as number[], set: [] as number[] };
  const signed = { account: [] as number[], sequence: [] as number[], set: [] as number[] };
  const setTxs = createTally<number>();
  const accountSetTxs = createTally<string>();
  const accountSetSigned = createTally<string>();
  const nftBlocks: NftBlock[] = [];
  for (const block of blocks) {
    const txsByIndex: NftBlock['txs'] = new Map();
    for (const t of block.txs) {
      sequence += 1;
      const setId = msgSetIds.get(dictionaries.msgSets.keyOf(msgSetOf(t)))!;
      const { signerId, accountIds: ids } = edgeAccounts(t, accountIds);
      txRows.sequence.push(sequence);
      txRows.hash.push(t.hash);
      txRows.height.push(block.height);
      txRows.signer.push(signerId);
      txRows.set.push(setId);
      txRows.record.push(encodeRecord(recordText(t.record)));
      setTxs.add(setId);
      for (const id of ids) {
        edges.account.push(id);
        edges.sequence.push(sequence);
        edges.set.push(setId);
        accountSetTxs.add(`${id}:${setId}`);
      }
      accountSetSigned.add(`${signerId}:${setId}`);
      signed.account.push(signerId);
      signed.sequence.push(sequence);
      signed.set.push(setId);
      txsByIndex.set(t.index, { sequence, signerId, nfts: t.nfts });
    }
    nftBlocks.push({
      height: block.height,
      time: block.time,
      changes: block.nftChanges,
      origins: block.nftOrigins,
      txs: txsByIndex,
      lastSequence: sequence,
    });
  }
  session.counters.add('tx', txRows.sequence.length);
  await insertRows(tx, 'tx', {
    sequence: ['int8', txRows.sequence],
    hash: ['bytea', txRows.hash],
    height: ['int8', txRows.height],
    signer_id: ['int8', txRows.signer],
    msg_set_id: ['int4', txRows.set],
    record: ['bytea', txRows.record],
  });
  await appendEdges(tx, 'tx_account_pack', edges);
  await appendEdges(tx, 'tx_signer_pack', signed);

  await writeEvmTxs(session, blocks, accountIds);
  await applyNftChanges(session, dictionaries.accounts, accountIds, nftBlocks);

  const sets = setTxs.entries();
  if (sets.length > 0) {
    await tx.query(
      `UPDATE msg_set m SET txs = m.txs + r.n FROM ROWS FROM (unnest($1::int4[]), unnest($2::int8[])) AS r(id, n) WHERE m.id = r.id`,
      [sets.map(([id]) => id), sets.map(([, n]) => n)],
    );
  }
  const pairs = accountSetTxs
    .entries()
    .map(([key, n]) => {
      const [account, set] = key.split(':').map(Number) as [number, number];
      return { account, set, n, signed: accountSetSigned.get(key) };
    })
    .sort((a, b) => a.account - b.account || a.set - b.set);
  for (const pair of pairs) {
    session.addAccountStat(pair.account, 'txs', pair.n);
    session.addAccountStat(pair.account, 'signed_txs', pair.signed);
  }
  await insertRows(
    tx,
    'account_msg_set',
    {
      account_id: ['int8', pairs.map((p) => p.account)],
      msg_set_id: ['int4', pairs.map((p) => p.set)],
      txs: ['int8', pairs.map((p) => p.n)],
      signed_txs: ['int8', pairs.map((p) => p.signed)],
    },
    'ON CONFLICT (account_id, msg_set_id) DO UPDATE SET txs = t.txs + EXCLUDED.txs, signed_txs = t.signed_txs + EXCLUDED.signed_txs',
  );
  session.setProgress('block', blocks[blocks.length - 1]!.height);
}

function blockColumns(blocks: IndexedBlock[]) {
  return {
    height: ['int8', blocks.map((b) => b.height)],
    hash: ['bytea', blocks.map((b) => b.hash)],
    timestamp: ['timestamptz', blocks.map((b) => b.time)],
    proposer: ['text', blocks.map((b) => b.proposer)],
    gas_used: ['int8', blocks.map((b) => b.gasUsed.toString())],
    gas_wanted: ['int8', blocks.map((b) => b.gasWanted.toString())],
    tx_count: ['int4', blocks.map((b) => b.txCount)],
    total_fee: ['json', blocks.map((b) => b.totalFee)],
  } as const;
}

async function writeEvmTxs(
  session: WriteSession,
  blocks: IndexedBlock[],
  accountIds: Map<string, number>,
): Promise<void> {
  let sequence = session.counter('evm_tx');
  const rows = {
    sequence: [] as number[],
    hash: [] as Uint8Array[],
    height: [] as number[],
    signer: [] as number[],
    record: [] as Buffer[],
  };
  const edges = { account: [] as number[], sequence: [] as number[] };
  const signed = { account: [] as number[], sequence: [] as number[] };
  for (const block of blocks) {
    for (const t of block.evmTxs) {
      sequence += 1;
      const { signerId, accountIds: ids } = edgeAccounts(t, accountIds);
      rows.sequence.push(sequence);
      rows.hash.push(t.hash);
      rows.height.push(block.height);
      rows.signer.push(signerId);
      rows.record.push(encodeRecord(recordText(t.record)));
      for (const id of ids) {
        edges.account.push(id);
        edges.sequence.push(sequence);
        session.addAccountStat(id, 'evm_txs');
      }
      session.addAccountStat(signerId, 'signed_evm_txs');
      signed.account.push(signerId);
      signed.sequence.push(sequence);
    }
  }
  if (rows.sequence.length === 0) return;
  session.counters.add('evm_tx', rows.sequence.length);
  await insertRows(session.tx, 'evm_tx', {
    sequence: ['int8', rows.sequence],
    hash: ['bytea', rows.hash],
    height: ['int8', rows.height],
    signer_id: ['int8', rows.signer],
    record: ['bytea', rows.record],
  });
  await appendEdges(session.tx, 'evm_tx_account_pack', edges);
  await appendEdges(session.tx, 'evm_tx_signer_pack', signed);
}
