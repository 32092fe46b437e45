import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  bridgeAddressBytes,
  l2Denom,
  nodeHash,
  outputRoot,
  rootFromProofs,
  withdrawalHash,
} from './opinit.js';
import { buildWithdrawalTree, EMPTY_ROOT } from './opinit-merkle.js';

// An independent implementation (OpenSSL's SHA3 and SHA-256) of the rules, to check the module's.
const sha3 = (...parts: Buffer[]) => createHash('sha3-256').update(Buffer.concat(parts)).digest();
const sha256 = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
const u64 = (n: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(n);
  return b;
};

describe('OPinit hashes', () => {
  it('names the L2 denom l2/<sha3(bridge id ‖ l1 denom)>', () => {
    expect(l2Denom(7n, 'uinit')).toBe(`l2/${sha3(u64(7n), Buffer.from('uinit')).toString('hex')}`);
    expect(l2Denom(7n, 'uinit')).not.toBe(l2Denom(8n, 'uinit'));
  });

  it('derives the bridge account as address.Module("ophost", bridge id)', () => {
    const moduleHash = sha256(sha256(Buffer.from('module')), Buffer.from('ophost'));
    expect(Buffer.from(bridgeAddressBytes(3n))).toEqual(sha256(sha256(moduleHash), u64(3n)));
    expect(bridgeAddressBytes(3n)).toHaveLength(32);
  });

  it('hashes a withdrawal twice over its fields', () => {
    const fields = {
      bridgeId: 1n,
      sequence: 9n,
      from: 'init1from',
      to: 'init1to',
      denom: 'uinit',
      amount: 1234n,
    };
    const seed = Buffer.concat([
      u64(1n),
      u64(9n),
      sha3(Buffer.from('init1from')),
      sha3(Buffer.from('init1to')),
      sha3(Buffer.from('uinit')),
      u64(1234n),
    ]);
    expect(Buffer.from(withdrawalHash(fields))).toEqual(sha3(sha3(seed)));
    expect(withdrawalHash({ ...fields, amount: 1235n })).not.toEqual(withdrawalHash(fields));
  });

  it('builds the output root from version, storage root and block hash', () => {
    const storage = Buffer.alloc(32, 1);
    const block = Buffer.alloc(32, 2);
    expect(Buffer.from(outputRoot(1, storage, block))).toEqual(sha3(Buffer.of(1), storage, block));
  });

  it('hashes a node the same whichever side a child is on', () => {
    const a = Buffer.alloc(32, 1);
    const b = Buffer.alloc(32, 2);
    expect(nodeHash(a, b)).toEqual(nodeHash(b, a));
    expect(Buffer.from(nodeHash(a, b))).toEqual(sha3(a, b));
  });
});

describe('withdrawal trees', () => {
  const leaf = (i: number) =>
    withdrawalHash({ bridgeId: 1n, sequence: BigInt(i), from: 'a', to: 'b', denom: 'uinit', amount: 1n });

  it('has the zero root when empty', () => {
    expect(buildWithdrawalTree([]).root).toEqual(EMPTY_ROOT);
  });

  it('pads one leaf with itself', () => {
    const tree = buildWithdrawalTree([leaf(1)]);
    expect(tree.root).toEqual(nodeHash(leaf(1), leaf(1)));
    expect(tree.proof(0)).toEqual([leaf(1)]);
  });

  it('proves every leaf of trees of 1 to 9 leaves, and no foreign leaf', () => {
    for (let n = 1; n <= 9; n += 1) {
      const leaves = Array.from({ length: n }, (_, i) => leaf(i + 1));
      const tree = buildWithdrawalTree(leaves);
      for (let i = 0; i < n; i += 1) expect(rootFromProofs(leaves[i]!, tree.proof(i))).toEqual(tree.root);
      expect(rootFromProofs(leaf(100), tree.proof(0))).not.toEqual(tree.root);
    }
  });
});
