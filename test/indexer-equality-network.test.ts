import { toEventSelector } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDb } from 'weft/store/test-support/backends.js';
import type { Devnet } from 'weft-devnet/devnet.js';
import { trafficNetwork } from 'weft-devnet/test-support/devnet.js';
import type { VmType } from 'weft-devnet/types.js';
import { type IndexedChain, indexChain, itEqualsTheDevnet, successfulEvents } from './equality-support.js';

/**
 * The indexer, configured as for a rollup alone, over each rollup of the full network with its interchain
 * traffic on: L1 deposits finalized into every rollup by the executors, withdrawals from the rollups, OFT
 * transfers from and to the EVM rollup, outputs and claims on the L1. The database must equal the devnet
 * as on a rollup alone (`equality-support.ts`).
 *
 * 100 heights, not the 300 of the per-VM runs: every step of the full network produces a block on each of
 * its six chains and relays between them (about 0.4 s of CPU a step at 8 txs a block, against about 0.1 s
 * for one rollup alone). Measured on 2 shared cores: this file takes about 75 s of CPU (60 s of them the
 * devnet), the per-VM file about 110 s for its three runs; 300 heights here would take about 200 s. The
 * last 40 heights are paced so that OFT packets are delivered, not only sent.
 */

/** `EQUALITY_NETWORK_HEIGHT=300 npx vitest run test/indexer-equality-network.test.ts` for the long run. */
const HEIGHT = Number(process.env.EQUALITY_NETWORK_HEIGHT ?? 100);
/** The last heights are produced at a pace that lets the omnichain relayer deliver OFT packets. */
const PACED = 40;
const VMS: VmType[] = ['evm', 'move', 'wasm'];

const testDb = useTestDb('pglite');
let devnet: Devnet;
const indexed = new Map<VmType, IndexedChain>();

beforeAll(async () => {
  devnet = await trafficNetwork({ seed: 'equality-network', accounts: 6, height: HEIGHT, paced: PACED });
  for (const rollup of devnet.rollups)
    indexed.set(rollup.vm, await indexChain(rollup, HEIGHT, await testDb.fresh()));
}, 300_000);

afterAll(() => devnet?.close(), 60_000);

/** Successful events of a type in the records of the indexed heights. */
const count = (run: IndexedChain, type: string) =>
  run.records.reduce((n, r) => n + [...successfulEvents(r)].filter((e) => e.type === type).length, 0);

describe.each(VMS)('the database equals the devnet on the full network (%s rollup)', (vm) => {
  const run = () => indexed.get(vm)!;

  it('carried interchain traffic, indexed as the rollup emitted it', async () => {
    const finalized = count(run(), 'finalize_token_deposit');
    const withdrawn = count(run(), 'initiate_token_withdrawal');
    expect(finalized).toBeGreaterThan(0);
    expect(withdrawn).toBeGreaterThan(0);
    const hashesOf = (type: string) =>
      run().records.flatMap((r) =>
        r.txs
          .filter((tx) => tx.result.code === 0 && tx.result.events.some((e) => e.type === type))
          .map((tx) => tx.hash),
      );
    const stored = await run().db.query<{ hash: Buffer }>('SELECT hash FROM tx');
    const storedHashes = new Set(stored.map((r) => r.hash.toString('hex').toUpperCase()));
    for (const hash of [...hashesOf('finalize_token_deposit'), ...hashesOf('initiate_token_withdrawal')])
      expect(storedHashes.has(hash)).toBe(true);
  });

  it.runIf(vm === 'evm')('carried OFT sends and receipts, with their EVM txs indexed', async () => {
    const withEvent = (signature: string) => {
      const topic = toEventSelector(signature);
      return run()
        .records.flatMap((r) => r.evm!.receipts)
        .filter((x) => (x.logs as Array<{ topics: string[] }>).some((log) => log.topics[0] === topic))
        .map((x) => String(x.transactionHash).toLowerCase());
    };
    const sent = withEvent('OFTSent(bytes32,uint32,address,uint256,uint256)');
    const received = withEvent('OFTReceived(bytes32,uint32,address,uint256)');
    expect(sent.length).toBeGreaterThan(0);
    expect(received.length).toBeGreaterThan(0);
    const stored = await run().db.query<{ hash: Buffer }>('SELECT hash FROM evm_tx');
    const storedHashes = new Set(stored.map((r) => `0x${r.hash.toString('hex')}`));
    expect([...sent, ...received].filter((hash) => !storedHashes.has(hash))).toEqual([]);
  });

  itEqualsTheDevnet(run, { txs: HEIGHT * 4, evmReceipts: HEIGHT / 2, nfts: 3 });
});

it('claimed withdrawals on the L1 within the run', () => {
  const l1 = devnet.l1!;
  let claims = 0;
  for (let h = 1; h <= l1.chain.latestHeight(); h += 1)
    claims += [...successfulEvents(l1.chain.getBlock(h)!)].filter(
      (e) => e.type === 'finalize_token_withdrawal',
    ).length;
  expect(claims).toBeGreaterThan(0);
});
