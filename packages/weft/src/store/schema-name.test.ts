import { describe, expect, it } from 'vitest';
import { assertSchemaName, schemaForChain } from './schema-name.js';

/** Seeded ids over the characters chain ids use, of every length up to `maxLength`. */
function chainIds(count: number, maxLength: number): string[] {
  const alphabet = 'abcAB019-_.';
  let state = 7;
  const next = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state;
  };
  return Array.from({ length: count }, () =>
    Array.from({ length: 1 + (next() % maxLength) }, () => alphabet[next() % alphabet.length]).join(''),
  );
}

describe('schemaForChain', () => {
  it('keeps the readable names of plain ids', () => {
    expect(schemaForChain('weft-evm-1')).toBe('chain_weft_evm_1');
    expect(schemaForChain('minimove-1')).toBe('chain_minimove_1');
  });

  it('gives different ids different schemas', () => {
    const ids = ['a-b', 'a_b', 'A-b', 'a.b', 'a--b', 'a-b-', 'ab', 'a_b__x', 'chain_a_b'];
    const names = ids.map(schemaForChain);
    expect(new Set(names).size).toBe(ids.length);
    expect(schemaForChain('a-b')).not.toBe(schemaForChain('a_b'));

    const many = [...new Set(chainIds(20_000, 12))];
    expect(new Set(many.map(schemaForChain)).size).toBe(many.length);
  });

  it('stays a valid identifier within 63 bytes for any id', () => {
    const long = 'x'.repeat(200);
    const ids = [
      long,
      `${long}-1`,
      `${long}-2`,
      'é-中文-1',
      '',
      '---',
      'A'.repeat(58),
      'a'.repeat(57),
      'a'.repeat(58),
    ];
    for (const id of [...ids, ...chainIds(2000, 120)]) {
      const name = schemaForChain(id);
      expect(Buffer.byteLength(name)).toBeLessThanOrEqual(63);
      expect(() => assertSchemaName(name)).not.toThrow();
    }
    // Ids alike up to the limit still differ.
    expect(schemaForChain(`${long}-1`)).not.toBe(schemaForChain(`${long}-2`));
    expect(schemaForChain('a'.repeat(57))).toBe(`chain_${'a'.repeat(57)}`);
    expect(schemaForChain('a'.repeat(58))).toMatch(/^chain_a+__[0-9a-f]{16}$/);
  });
});
