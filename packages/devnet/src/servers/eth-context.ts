import type { Lru } from 'weft/common/lru.js';
import type { BlockRecord, ChainNode, EvmNode } from '../node.js';
import { EthRpcError, serverError } from './eth-errors.js';
import type { BlockTag } from './eth-params.js';
import type { Faults } from './faults.js';

/** What the EVM JSON-RPC methods share: the chain, its EVM, a cache of serialised results, block hashes. */
export interface EthContext {
  node: ChainNode;
  evm: EvmNode;
  faults: Faults;
  /** Serialised results by `<kind>:<height>`. */
  cache: Lru<string, string>;
  earliest(): number;
  latest(): number;
  /** The served block at `height` that has Ethereum views, if any. */
  block(height: number): (BlockRecord & { evm: NonNullable<BlockRecord['evm']> }) | undefined;
  /** Height of an Ethereum block hash (0x lowercase). */
  heightOfHash(hash: string): number | undefined;
}

/** An EVM module may keep minievm's block-hash index itself; the context then asks it. */
type BlockHashIndex = { heightByBlockHash?(hash: string): number | undefined };

export function createEthContext(
  node: ChainNode,
  evm: EvmNode,
  faults: Faults,
  cache: Lru<string, string>,
): EthContext {
  const moduleIndex = (evm as BlockHashIndex).heightByBlockHash?.bind(evm);
  // Otherwise block hashes are indexed here as far as blocks have been asked for; a miss indexes up to the head.
  const hashes = new Map<string, number>();
  let indexedUpTo = 0;
  const scan = (hash: string): number | undefined => {
    let height = hashes.get(hash);
    if (height === undefined) {
      const latest = node.latestHeight();
      for (let h = Math.max(indexedUpTo + 1, faults.earliestHeight(node)); h <= latest; h += 1) {
        const blockHash = node.getBlock(h)?.evm?.block.hash;
        if (typeof blockHash === 'string') hashes.set(blockHash.toLowerCase(), h);
      }
      indexedUpTo = Math.max(indexedUpTo, latest);
      height = hashes.get(hash);
    }
    return height;
  };
  const ctx: EthContext = {
    node,
    evm,
    faults,
    cache,
    earliest: () => faults.earliestHeight(node),
    latest: () => node.latestHeight(),
    block(height) {
      if (height < ctx.earliest() || height > ctx.latest()) return undefined;
      const record = node.getBlock(height);
      return record?.evm ? (record as ReturnType<EthContext['block']>) : undefined;
    },
    heightOfHash(hash) {
      const height = moduleIndex ? moduleIndex(hash) : scan(hash);
      return height !== undefined && height >= ctx.earliest() && height <= ctx.latest() ? height : undefined;
    },
  };
  return ctx;
}

/** The height a block tag names for block lookups; it may lie beyond the head. `undefined`: unknown hash. */
export function tagHeight(ctx: EthContext, tag: BlockTag): number | undefined {
  switch (tag.kind) {
    case 'latest':
    case 'pending':
      return ctx.latest();
    case 'earliest':
      return ctx.earliest();
    case 'hash':
      return ctx.heightOfHash(tag.hash);
    case 'number':
      // minievm maps block 0 (there is no genesis block) to 1.
      return tag.number === 0 ? 1 : tag.number;
  }
}

/** The state height of a state query (minievm `getQueryCtxWithHeight`), with its error texts. */
export function stateHeight(ctx: EthContext, tag: BlockTag): number {
  const height = tagHeight(ctx, tag);
  if (height === undefined)
    throw new EthRpcError(-32603, 'internal jsonrpc error: failed to get block number by hash');
  const latest = ctx.latest();
  if (height > latest) throw serverError('requested height is greater than the latest block height');
  if (height < ctx.earliest()) {
    throw serverError(
      `failed to load state at height ${height}; version does not exist (latest height: ${latest}): not found`,
    );
  }
  return height;
}
