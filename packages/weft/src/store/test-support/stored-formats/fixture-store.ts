import type { Db } from '../../db.js';
import type { InternalTxHeight } from '../../internal-tx-write.js';
import type { IndexedBlock } from '../../records.js';
import { createBlockWriter } from '../../writer.js';
import { address, EVM_CHAIN, syntheticChain } from '../chain.js';

/**
 * The chain every store of this folder holds: Cosmos and EVM txs with NFTs, and call frames of every
 * kind the frames format distinguishes (a parent, none, no `to`, a type callTracer does not name),
 * some naming addresses no tx does. Each `schema-N-*.sql` is this store as one weft wrote it
 * (`writeFixtureStore`), dumped by `dumpStore`: the weft of the commit its first line names.
 */
const OPTIONS = { txsPerBlock: 3, accountsPerTx: 2, accounts: 5, seed: 23, evm: true, nfts: true };
export const fixtureChain = syntheticChain({ ...OPTIONS, blocks: 6 });
/** Two more blocks of the same chain, for what a store is written after it is migrated. */
export const fixtureChainNext = syntheticChain({ ...OPTIONS, blocks: 8 }).slice(6);

const bytes = (...b: number[]) => new Uint8Array(b);

/** The call frames of `blocks`' EVM txs. */
export const callsOf = (blocks: IndexedBlock[]): InternalTxHeight[] =>
  blocks.map((block) => ({
    height: block.height,
    calls: block.evmTxs.flatMap((t, i) => {
      const callee = address(1 + ((block.height + i) % 5));
      const frames = [
        {
          txHash: t.hash,
          index: 0,
          parentIndex: -1,
          type: 'CALL',
          from: t.signer,
          to: callee,
          input: bytes(0xa9, 0x05, 0x9c, 0xbb, i),
          output: bytes(),
          value: bytes(0),
          gas: bytes(0x52, 0x08),
          gasUsed: bytes(0x52, 0x08),
        },
        {
          txHash: t.hash,
          index: 1,
          parentIndex: 0,
          type: i === 1 ? 'CREATE2' : 'STATICCALL',
          from: callee,
          to: i === 1 ? null : address(900 + block.height),
          input: bytes(i, block.height),
          output: bytes(1, 2, 3),
          value: bytes(),
          gas: bytes(0x10, i),
          gasUsed: bytes(0x0f),
        },
      ];
      if (i === 2) {
        frames.push({
          txHash: t.hash,
          index: 2,
          parentIndex: 1,
          type: 'SELFDESTRUCT_NEW',
          from: address(900 + block.height),
          to: address(2),
          input: bytes(),
          output: bytes(),
          value: bytes(7),
          gas: bytes(1),
          gasUsed: bytes(1),
        });
      }
      return frames;
    }),
  }));

/** Writes `fixtureChain` and its call frames as the fixtures were written: two batches of blocks, then the frames. */
export async function writeFixtureStore(db: Db): Promise<void> {
  const writer = createBlockWriter(db, EVM_CHAIN);
  await writer.writeBlocks(fixtureChain.slice(0, 3));
  await writer.writeBlocks(fixtureChain.slice(3));
  await writer.writeInternalTxs(callsOf(fixtureChain));
}
