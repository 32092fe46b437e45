import { outputRoot, withdrawalHash } from 'weft/protocol/opinit.js';
import { buildWithdrawalTree, type WithdrawalTree } from 'weft/protocol/opinit-merkle.js';

/** The executor's record of the rollup's withdrawals and of the tree each output commits to. */

export interface WithdrawalRecord {
  sequence: bigint;
  from: string;
  to: string;
  /** The L1 denom (`base_denom`): the one the claim names. */
  baseDenom: string;
  amount: bigint;
  txHeight: number;
  txHash: string;
  txTime: string;
}

export interface OutputTree {
  outputIndex: bigint;
  l2BlockNumber: number;
  version: number;
  storageRoot: Uint8Array;
  lastBlockHash: Uint8Array;
  outputRoot: Uint8Array;
  tree: WithdrawalTree;
  sequences: bigint[];
}

/** What `/withdrawal/{sequence}` answers (opinit-bots `QueryWithdrawalResponse`). */
export interface WithdrawalProofJson {
  sequence: number;
  to: string;
  from: string;
  amount: { denom: string; amount: string };
  output_index: number;
  bridge_id: number;
  withdrawal_proofs: string[] | null;
  version: string | null;
  storage_root: string | null;
  last_block_hash: string | null;
  tx_time: string;
  tx_height: number;
  tx_hash: string;
}

export interface WithdrawalStore {
  add(record: WithdrawalRecord): void;
  /** Cuts the tree of every withdrawal up to `l2BlockNumber` not yet in an output. */
  cut(input: {
    outputIndex: bigint;
    l2BlockNumber: number;
    blockHash: Uint8Array;
    version: number;
  }): OutputTree;
  /** Drops a cut tree whose proposal did not go through; its withdrawals go back to the next one. */
  uncut(outputIndex: bigint): void;
  proof(sequence: bigint): WithdrawalProofJson | undefined;
  /** Proofs of every withdrawal already committed to an output, oldest first. */
  proven(): WithdrawalProofJson[];
  /** Sequences of the withdrawals to an L1 address, from `offset` (a sequence; 0 = the end), at most `limit`. */
  byAddress(
    address: string,
    input: { offset: bigint; limit: number; descending: boolean },
  ): { sequences: bigint[]; next?: bigint };
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

export function createWithdrawalStore(bridgeId: bigint): WithdrawalStore {
  const records = new Map<bigint, WithdrawalRecord>();
  const treeOf = new Map<bigint, OutputTree>();
  const trees: OutputTree[] = [];
  const pending: bigint[] = [];

  const store: WithdrawalStore = {
    add(record) {
      if (records.has(record.sequence)) return;
      records.set(record.sequence, record);
      pending.push(record.sequence);
    },
    cut({ outputIndex, l2BlockNumber, blockHash, version }) {
      const sequences = pending
        .filter((s) => records.get(s)!.txHeight <= l2BlockNumber)
        .sort((a, b) => (a < b ? -1 : 1));
      const leaves = sequences.map((s) => {
        const r = records.get(s)!;
        return withdrawalHash({
          bridgeId,
          sequence: s,
          from: r.from,
          to: r.to,
          denom: r.baseDenom,
          amount: r.amount,
        });
      });
      const tree = buildWithdrawalTree(leaves);
      const output: OutputTree = {
        outputIndex,
        l2BlockNumber,
        version,
        storageRoot: tree.root,
        lastBlockHash: blockHash,
        outputRoot: outputRoot(version, tree.root, blockHash),
        tree,
        sequences,
      };
      trees.push(output);
      for (const s of sequences) {
        treeOf.set(s, output);
        pending.splice(pending.indexOf(s), 1);
      }
      return output;
    },
    uncut(outputIndex) {
      const at = trees.findIndex((t) => t.outputIndex === outputIndex);
      if (at === -1) return;
      const [tree] = trees.splice(at, 1);
      for (const s of tree!.sequences) {
        treeOf.delete(s);
        pending.push(s);
      }
    },
    proof(sequence) {
      const r = records.get(sequence);
      if (!r) return undefined;
      const output = treeOf.get(sequence);
      return {
        sequence: Number(r.sequence),
        to: r.to,
        from: r.from,
        amount: { denom: r.baseDenom, amount: r.amount.toString() },
        output_index: output ? Number(output.outputIndex) : 0,
        bridge_id: Number(bridgeId),
        withdrawal_proofs: output ? output.tree.proof(output.sequences.indexOf(sequence)).map(b64) : null,
        version: output ? b64(Uint8Array.of(output.version)) : null,
        storage_root: output ? b64(output.storageRoot) : null,
        last_block_hash: output ? b64(output.lastBlockHash) : null,
        tx_time: r.txTime,
        tx_height: r.txHeight,
        tx_hash: r.txHash,
      };
    },
    proven() {
      return trees.flatMap((t) => t.sequences.map((s) => store.proof(s)!));
    },
    byAddress(address, { offset, limit, descending }) {
      let sequences = [...records.values()]
        .filter((r) => r.to === address)
        .map((r) => r.sequence)
        .sort((a, b) => (a < b ? -1 : 1));
      if (descending) {
        sequences.reverse();
        if (offset > 0n) sequences = sequences.filter((s) => s <= offset);
      } else sequences = sequences.filter((s) => s >= offset);
      const page = sequences.slice(0, limit);
      const next = sequences[limit];
      return next === undefined ? { sequences: page } : { sequences: page, next };
    },
  };
  return store;
}
