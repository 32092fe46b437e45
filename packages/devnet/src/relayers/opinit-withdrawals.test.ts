import { describe, expect, it } from 'vitest';
import { outputRoot, rootFromProofs, withdrawalHash } from 'weft/protocol/opinit.js';
import { createWithdrawalStore } from './opinit-withdrawals.js';

const record = (sequence: number, to: string, txHeight: number) => ({
  sequence: BigInt(sequence),
  from: 'init1sender',
  to,
  baseDenom: 'uinit',
  amount: BigInt(sequence * 10),
  txHeight,
  txHash: `HASH${sequence}`,
  txTime: '2026-01-01T00:00:00Z',
});

describe('withdrawal store', () => {
  it('cuts the withdrawals up to a height into a tree whose proofs rebuild the output root', () => {
    const store = createWithdrawalStore(4n);
    for (let s = 1; s <= 5; s += 1) store.add(record(s, 'init1a', s));
    const blockHash = new Uint8Array(32).fill(9);
    const output = store.cut({ outputIndex: 1n, l2BlockNumber: 3, blockHash, version: 1 });
    expect(output.sequences).toEqual([1n, 2n, 3n]);
    expect(output.outputRoot).toEqual(outputRoot(1, output.storageRoot, blockHash));
    for (const s of [1, 2, 3]) {
      const proof = store.proof(BigInt(s))!;
      expect(proof.output_index).toBe(1);
      const leaf = withdrawalHash({
        bridgeId: 4n,
        sequence: BigInt(s),
        from: 'init1sender',
        to: 'init1a',
        denom: 'uinit',
        amount: BigInt(s * 10),
      });
      const root = rootFromProofs(
        leaf,
        proof.withdrawal_proofs!.map((p) => Buffer.from(p, 'base64')),
      );
      expect(Buffer.from(root).toString('base64')).toBe(proof.storage_root);
    }
    // Not yet in an output: no proof fields.
    expect(store.proof(4n)).toMatchObject({ output_index: 0, withdrawal_proofs: null, storage_root: null });
    const next = store.cut({ outputIndex: 2n, l2BlockNumber: 5, blockHash, version: 1 });
    expect(next.sequences).toEqual([4n, 5n]);
    expect(store.proven().map((p) => p.sequence)).toEqual([1, 2, 3, 4, 5]);
  });

  it('puts an uncut tree back for the next output', () => {
    const store = createWithdrawalStore(1n);
    store.add(record(1, 'init1a', 1));
    store.cut({ outputIndex: 1n, l2BlockNumber: 1, blockHash: new Uint8Array(32), version: 1 });
    store.uncut(1n);
    expect(store.proof(1n)!.output_index).toBe(0);
    expect(
      store.cut({ outputIndex: 1n, l2BlockNumber: 2, blockHash: new Uint8Array(32), version: 1 }).sequences,
    ).toEqual([1n]);
  });

  it('pages the withdrawals to an address by sequence, newest first by default', () => {
    const store = createWithdrawalStore(1n);
    for (let s = 1; s <= 6; s += 1) store.add(record(s, s % 2 === 0 ? 'init1even' : 'init1odd', s));
    expect(store.byAddress('init1even', { offset: 0n, limit: 2, descending: true })).toEqual({
      sequences: [6n, 4n],
      next: 2n,
    });
    expect(store.byAddress('init1even', { offset: 2n, limit: 2, descending: true })).toEqual({
      sequences: [2n],
    });
    expect(store.byAddress('init1odd', { offset: 2n, limit: 5, descending: false })).toEqual({
      sequences: [3n, 5n],
    });
    expect(store.byAddress('init1none', { offset: 0n, limit: 5, descending: true })).toEqual({
      sequences: [],
    });
  });
});
