import { createMPT } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { keccak256, toHex } from 'viem';
import { describe, expect, it } from 'vitest';
import { deriveSha, EMPTY_ROOT_HASH, logsBloom } from './eth-roots.js';

describe('Ethereum header roots', () => {
  it('derives the same trie root as a Merkle-Patricia trie keyed by RLP(index)', async () => {
    expect(toHex(deriveSha([]))).toBe('0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421');
    expect(toHex(EMPTY_ROOT_HASH)).toBe(toHex(deriveSha([])));
    for (const count of [1, 2, 16, 17, 129, 300]) {
      const items = Array.from({ length: count }, (_, i) =>
        new TextEncoder().encode(`tx-${i}-${'x'.repeat(i % 40)}`),
      );
      const trie = await createMPT();
      for (const [i, item] of items.entries()) await trie.put(RLP.encode(i), item);
      expect(toHex(deriveSha(items))).toBe(toHex(trie.root()));
    }
  });

  it('sets three bloom bits per address and topic', () => {
    const address = new Uint8Array(20).fill(1);
    const topic = new Uint8Array(32).fill(2);
    const bloom = logsBloom([{ address, topics: [topic], data: new Uint8Array(0) }]);
    const bits = (data: Uint8Array) => {
      const hash = Buffer.from(keccak256(data).slice(2), 'hex');
      return [0, 2, 4].map((i) => ((hash[i]! << 8) | hash[i + 1]!) & 2047);
    };
    for (const bit of [...bits(address), ...bits(topic)]) {
      expect(bloom[255 - (bit >> 3)]! & (1 << (bit & 7))).not.toBe(0);
    }
    expect(bloom.reduce((n, byte) => n + byte.toString(2).replaceAll('0', '').length, 0)).toBeLessThanOrEqual(
      6,
    );
  });
});
