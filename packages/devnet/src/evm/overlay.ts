import type { StateReader } from '../state/store.js';

/** What the EVM needs from state: reads, writes and nested checkpoints. A `StateStore` is one. */
export interface EvmStateBackend extends StateReader {
  set(key: string, value: string | undefined): void;
  checkpoint(): void;
  commit(): void;
  revert(): void;
  /** Open checkpoints. */
  readonly depth: number;
}

const DELETED = Symbol('deleted');
type Layer = Map<string, string | typeof DELETED>;

const groupOf = (key: string) => key.slice(0, Math.max(0, key.lastIndexOf('/')));

/**
 * Writable layers over a read-only view (state at a past height, or the committed state), so queries such
 * as `eth_call` can run code that writes without touching the chain. The writes are simply dropped.
 */
export function createOverlay(base: StateReader): EvmStateBackend {
  const layers: Layer[] = [new Map()];
  const read = (key: string): string | undefined => {
    for (let i = layers.length - 1; i >= 0; i -= 1) {
      const value = layers[i]!.get(key);
      if (value !== undefined) return value === DELETED ? undefined : value;
    }
    return base.get(key);
  };
  return {
    get depth() {
      return layers.length - 1;
    },
    get: read,
    group(group) {
      const keys = new Set(base.group(group));
      for (const layer of layers) for (const key of layer.keys()) if (groupOf(key) === group) keys.add(key);
      return [...keys].filter((key) => read(key) !== undefined).sort();
    },
    set(key, value) {
      layers[layers.length - 1]!.set(key, value === undefined ? DELETED : value);
    },
    checkpoint() {
      layers.push(new Map());
    },
    commit() {
      if (layers.length < 2) throw new Error('overlay: commit without checkpoint');
      const top = layers.pop()!;
      for (const [key, value] of top) layers[layers.length - 1]!.set(key, value);
    },
    revert() {
      if (layers.length < 2) throw new Error('overlay: revert without checkpoint');
      layers.pop();
    },
  };
}
