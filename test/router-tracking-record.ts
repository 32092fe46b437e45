import { mkdirSync, writeFileSync } from 'node:fs';
import { createCometClient } from 'weft/chain/comet-client.js';
import { createRestClient } from 'weft/chain/rest-client.js';
import { silentLogger } from 'weft/common/logger.js';
import { createChainReader } from 'weft/router/tracking/chain-reader.js';
import { startTracker } from 'weft/router/tracking/tracker.js';
import { createTransferStore, migrateTracking, ROUTER_SCHEMA } from 'weft/router/tracking/transfer-store.js';
import type { ChainTx, TrackedChain, TransferProgress } from 'weft/router/tracking/types.js';
import { openDb } from 'weft/store/db.js';
import {
  depositor,
  sendForward,
  sendOft,
  trackedChains,
  trackingDevnet,
  until,
} from './router-tracking-support.js';

/**
 * Records the evidence of whole transfers on the devnet, as the chain reader gives it, for
 * `packages/weft/src/router/tracking/apply-evidence-recorded.test.ts`: each transfer is sent and tracked until it completes, then
 * its source tx (`ChainReader.sourceTx`) and every block its stored progress names (`ChainReader.block`)
 * are written to `packages/weft/src/router/tracking/test-support/recorded/<name>.json`, with the node answers they were
 * decoded from (`answers`).
 *
 *   node --conditions=weft-source --import tsx test/router-tracking-record.ts &&
 *     npx biome format --write packages/weft/src/router/tracking/test-support/recorded
 */

const OUT = new URL('../packages/weft/src/router/tracking/test-support/recorded/', import.meta.url);

const network = await trackingDevnet('tracking-record');
const { devnet } = network;
const chains = trackedChains(devnet);
const db = await (await openDb({ dataDir: 'memory://' })).withSchema(ROUTER_SCHEMA);
await migrateTracking(db);
const tracker = await startTracker({ db, chains, logger: silentLogger(), pollMs: 100, leaseMs: 3_000 });
const store = createTransferStore(db);
const readers = new Map(chains.map((c) => [c.chainId, createChainReader(c, { timeoutMs: 10_000 })]));
const comets = new Map(
  chains.filter((c) => c.rpc).map((c) => [c.chainId, createCometClient([c.rpc!], { timeoutMs: 10_000 })]),
);
const rests = new Map(
  chains.filter((c) => c.rest).map((c) => [c.chainId, createRestClient([c.rest!], { timeoutMs: 10_000 })]),
);

/** The txs a progress names: its source and every piece of evidence of its hops. */
function txsOf(progress: TransferProgress): ChainTx[] {
  const out: ChainTx[] = progress.source ? [progress.source] : [];
  for (const hop of progress.hops) {
    const pieces: Array<ChainTx | undefined> =
      hop.kind === 'ibc'
        ? [hop.send, hop.receive, hop.written?.tx, hop.acknowledge, hop.timeout]
        : hop.kind === 'opinit'
          ? [hop.send, hop.receive, hop.refund]
          : [hop.send, hop.verify, hop.receive, hop.alert];
    for (const tx of pieces) if (tx) out.push(tx);
  }
  return out;
}

async function record(name: string, chainId: string, hash: string, what: string) {
  await tracker.track(chainId, hash);
  await until(
    `${name} completed`,
    async () => (await tracker.status(chainId, hash)).status === 'STATE_COMPLETED',
    60_000,
  );
  const transfer = (await store.get(chainId, hash.replace(/^0x/i, '').toLowerCase()))!;
  const source = await readers.get(chainId)!.sourceTx(hash);
  const heights = new Map<string, ChainTx>();
  for (const tx of txsOf(transfer.progress)) heights.set(`${tx.chainId}@${tx.height}`, tx);
  const blocks = [];
  // The node's answers the chain reader decodes, for `chain-reader.test.ts`: CometBFT `/block` (its
  // `block.header` and `block.data`) and `/block_results` (its `txs_results`), REST `GetTx`'s `tx_response`.
  const answers: { source?: unknown; blocks: unknown[] } = {
    source: hash.startsWith('0x') ? undefined : await rests.get(chainId)!.txResponse(hash.toUpperCase()),
    blocks: [],
  };
  for (const tx of [...heights.values()].sort(
    (a, b) => a.time.localeCompare(b.time) || a.height - b.height,
  )) {
    blocks.push({ chainId: tx.chainId, ...(await readers.get(tx.chainId)!.block(tx.height)) });
    const comet = comets.get(tx.chainId);
    if (!comet) continue;
    const { header, data } = (await comet.block(tx.height)).block;
    const { txs_results } = await comet.blockResults(tx.height);
    const results = { height: String(tx.height), txs_results };
    answers.blocks.push({
      chainId: tx.chainId,
      height: tx.height,
      block: { block: { header, data } },
      results,
    });
  }
  const registry = chains.map(({ rpc: _, rest: __, jsonRpc: ___, ...chain }): TrackedChain => chain);
  mkdirSync(OUT, { recursive: true });
  writeFileSync(
    new URL(`${name}.json`, OUT),
    `${JSON.stringify(
      {
        origin: `weft devnet (seed "tracking-record", test/router-tracking-support.ts trackingDevnet), recorded by test/router-tracking-record.ts: ${what}`,
        chains: registry,
        transfer: { chainId, txHash: transfer.txHash },
        source,
        blocks,
        state: transfer.state,
        answers,
      },
      null,
      2,
    )}\n`,
  );
  process.stdout.write(`${name}: ${transfer.state}, ${blocks.length} blocks\n`);
}

try {
  const l1 = devnet.l1!;
  const move = devnet.rollups.find((r) => r.vm === 'move')!;
  const forward = await sendForward(devnet);
  await record(
    'ibc-forward',
    'weft-move-1',
    forward,
    'a two-hop IBC forward weft-move-1 → weft-l1-1 → weft-cosmos-1 (700 umin, packet-forward memo)',
  );

  const deposit = async (from: number, input: { bridgeId: bigint; to: string; amount: string }) => {
    const wallet = await depositor(l1, l1.accounts[from]!);
    try {
      return await wallet.deposit(input);
    } finally {
      wallet.close();
    }
  };
  await record(
    'opinit-deposit',
    'weft-l1-1',
    await deposit(0, { bridgeId: 2n, to: move.accounts[1]!.address, amount: '4242' }),
    'an OPinit deposit of 4242 uinit from weft-l1-1 over bridge 2 to weft-move-1',
  );
  await record(
    'failed-deposit',
    'weft-l1-1',
    await deposit(1, { bridgeId: 99n, to: l1.accounts[2]!.address, amount: '5' }),
    'a deposit of 5 uinit over bridge 99, which weft-l1-1 has not: the tx fails',
  );

  const oft = await sendOft(devnet, { toChainId: '31337', amount: 10n ** 18n });
  await record(
    'oft-evm',
    'weft-evm-1',
    oft,
    'an OFT send of 1 token from weft-evm-1 (viem, an Ethereum tx) to 31337',
  );
} finally {
  for (const reader of readers.values()) await reader.close();
  for (const client of [...comets.values(), ...rests.values()]) await client.endpoints.close();
  await tracker.stop();
  await db.close();
  await network.close();
}
