/**
 * The devnet's state: one versioned key/value store shared by every module, as a Cosmos multistore is.
 *
 * - Writes inside a block go to a stack of layers, so a tx (or an EVM call frame) can checkpoint and
 *   revert; the block's first layer is folded into the committed state by `commitBlock`.
 * - Every committed write keeps its height, so reads "as of height h" (the `x-cosmos-block-height`
 *   header, `eth_call` at a past block) see the state at the end of h.
 * - `commitBlock` returns the block's delta; replaying deltas rebuilds the store after a restart.
 */

/** Key → new value (`null` = deleted) of one block. */
export type StateDelta = Record<string, string | null>;

export interface StateReader {
  get(key: string): string | undefined;
  /** Keys of one group (everything up to the key's last `/`), e.g. `bank/<addr>` for `bank/<addr>/<denom>`. */
  group(group: string): string[];
}

export interface StateStore extends StateReader {
  /** Last committed height (0 = genesis not yet committed). */
  readonly height: number;
  set(key: string, value: string | undefined): void;
  checkpoint(): void;
  commit(): void;
  revert(): void;
  /** Depth of open checkpoints (0 = none). */
  readonly depth: number;
  commitBlock(height: number): StateDelta;
  applyDelta(height: number, delta: StateDelta): void;
  /** A read-only view of the committed state at the end of `height`. */
  at(height: number): StateReader;
}

interface History {
  heights: number[];
  values: Array<string | undefined>;
}

const DELETED = Symbol('deleted');
type Layer = Map<string, string | typeof DELETED>;

function groupOf(key: string): string {
  const i = key.lastIndexOf('/');
  return i === -1 ? '' : key.slice(0, i);
}

export function createStateStore(): StateStore {
  const current = new Map<string, string>();
  const history = new Map<string, History>();
  const groups = new Map<string, Set<string>>();
  // layers[0] is the open block's layer; later entries are nested checkpoints.
  let layers: Layer[] = [new Map()];
  let committedHeight = 0;

  const read = (key: string): string | undefined => {
    for (let i = layers.length - 1; i >= 0; i -= 1) {
      const value = layers[i]!.get(key);
      if (value !== undefined) return value === DELETED ? undefined : value;
    }
    return current.get(key);
  };

  const addToGroup = (key: string) => {
    const g = groupOf(key);
    let set = groups.get(g);
    if (!set) {
      set = new Set();
      groups.set(g, set);
    }
    set.add(key);
  };

  const record = (height: number, key: string, value: string | undefined) => {
    if (value === undefined) current.delete(key);
    else current.set(key, value);
    addToGroup(key);
    let h = history.get(key);
    if (!h) {
      h = { heights: [], values: [] };
      history.set(key, h);
    }
    if (h.heights[h.heights.length - 1] === height) h.values[h.values.length - 1] = value;
    else {
      h.heights.push(height);
      h.values.push(value);
    }
  };

  const readAt = (key: string, height: number): string | undefined => {
    const h = history.get(key);
    if (!h) return undefined;
    // Last version committed at or before `height`.
    let lo = 0;
    let hi = h.heights.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (h.heights[mid]! <= height) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found === -1 ? undefined : h.values[found];
  };

  const groupKeys = (group: string, exists: (key: string) => boolean): string[] => {
    const keys = new Set(groups.get(group));
    for (const layer of layers) for (const key of layer.keys()) if (groupOf(key) === group) keys.add(key);
    return [...keys].filter(exists).sort();
  };

  return {
    get height() {
      return committedHeight;
    },
    get depth() {
      return layers.length - 1;
    },
    get: read,
    group: (group) => groupKeys(group, (key) => read(key) !== undefined),
    set(key, value) {
      layers[layers.length - 1]!.set(key, value === undefined ? DELETED : value);
    },
    checkpoint() {
      layers.push(new Map());
    },
    commit() {
      if (layers.length < 2) throw new Error('state store: commit without checkpoint');
      const top = layers.pop()!;
      const below = layers[layers.length - 1]!;
      for (const [key, value] of top) below.set(key, value);
    },
    revert() {
      if (layers.length < 2) throw new Error('state store: revert without checkpoint');
      layers.pop();
    },
    commitBlock(height) {
      if (layers.length !== 1)
        throw new Error(`state store: ${layers.length - 1} checkpoints still open at commit`);
      const delta: StateDelta = {};
      const keys = [...layers[0]!.keys()].sort();
      for (const key of keys) {
        const value = layers[0]!.get(key)!;
        const next = value === DELETED ? undefined : value;
        if (current.get(key) === next) continue;
        delta[key] = next ?? null;
        record(height, key, next);
      }
      layers = [new Map()];
      committedHeight = height;
      return delta;
    },
    applyDelta(height, delta) {
      for (const [key, value] of Object.entries(delta)) record(height, key, value ?? undefined);
      committedHeight = height;
    },
    at(height) {
      return {
        get: (key) => readAt(key, height),
        group: (group) =>
          [...(groups.get(group) ?? [])].filter((key) => readAt(key, height) !== undefined).sort(),
      };
    },
  };
}
