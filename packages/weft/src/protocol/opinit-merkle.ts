import { nodeHash } from './opinit.js';

/** The root of a tree with no withdrawal. */
export const EMPTY_ROOT = new Uint8Array(32);

export interface WithdrawalTree {
  root: Uint8Array;
  /** Sibling hashes from leaf `index` up to the root. */
  proof(index: number): Uint8Array[];
}

/**
 * A withdrawal tree as the executor builds one per output: the leaves are padded with copies of the
 * last leaf up to a power of two (at least two), and parents hash their children with `nodeHash`.
 */
export function buildWithdrawalTree(leaves: Uint8Array[]): WithdrawalTree {
  if (leaves.length === 0) return { root: EMPTY_ROOT, proof: () => [] };
  let width = 2;
  while (width < leaves.length) width *= 2;
  const levels: Uint8Array[][] = [
    Array.from({ length: width }, (_, i) => leaves[Math.min(i, leaves.length - 1)]!),
  ];
  while (levels[levels.length - 1]!.length > 1) {
    const below = levels[levels.length - 1]!;
    const level: Uint8Array[] = [];
    for (let i = 0; i < below.length; i += 2) level.push(nodeHash(below[i]!, below[i + 1]!));
    levels.push(level);
  }
  return {
    root: levels[levels.length - 1]![0]!,
    proof(index) {
      const proofs: Uint8Array[] = [];
      let at = index;
      for (const level of levels.slice(0, -1)) {
        proofs.push(level[at ^ 1]!);
        at >>= 1;
      }
      return proofs;
    },
  };
}
