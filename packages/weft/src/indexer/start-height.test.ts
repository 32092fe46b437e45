import { describe, expect, it } from 'vitest';
import { computeStartHeight } from './start-height.js';

describe('computeStartHeight', () => {
  it('resumes right after the indexed heights', () => {
    expect(computeStartHeight({ indexed: 0, head: 100, startHeight: 0 })).toBe(1);
    expect(computeStartHeight({ indexed: 41, head: 100, startHeight: 0 })).toBe(42);
  });

  it('moves the start forward to START_HEIGHT, never back', () => {
    expect(computeStartHeight({ indexed: 0, head: 100, startHeight: 30 })).toBe(30);
    expect(computeStartHeight({ indexed: 50, head: 100, startHeight: 30 })).toBe(51);
    expect(computeStartHeight({ indexed: 29, head: 100, startHeight: 30 })).toBe(30);
  });

  it('does not start beyond the chain head', () => {
    expect(computeStartHeight({ indexed: 0, head: 100, startHeight: 500 })).toBe(100);
    // A database ahead of the node keeps its place; the indexer then waits for the node.
    expect(computeStartHeight({ indexed: 120, head: 100, startHeight: 500 })).toBe(121);
  });
});
