import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from 'weft/common/logger.js';
import { l2Denom } from 'weft/protocol/opinit.js';
import { type Replay, startReplay } from 'weft/record/replay.js';
import { ibcDenomOf, parseIbcPath } from 'weft/router/graph/denoms.js';
import type { TrackEvent } from 'weft/router/tracking/chain-events.js';
import { type ChainReader, createChainReader } from 'weft/router/tracking/chain-reader.js';
import { applyTx, chainDirectory, hopsOfSourceTx } from 'weft/router/tracking/evidence.js';
import { ibcHopState, outcomeOf, receivedDenom } from 'weft/router/tracking/state.js';
import type { IbcHop, TrackedChain, TransferProgress } from 'weft/router/tracking/types.js';
import { loadCorpus } from './real-support/corpus.js';
import { deriveRecordings } from './real-support/derive.js';

// The router's tracker reads the corpus's real interchain evidence (test/fixtures/real) through `weft replay`,
// with the chain reader and evidence rules it uses on the devnet. What the chains are comes from
// initia-labs/initia-registry@72efa3c52dbdf3b804d44dda4e972284e74cbd09 mainnets/*/chain.json (op_bridge_id,
// and the L1's IBC channels); intergaze-1's bridge id (31) is not there and is read off its L2 denom.

const corpus = await loadCorpus();
const dir = mkdtempSync(join(tmpdir(), 'weft-real-tracker-'));
const recordings = deriveRecordings(corpus, dir);

const REGISTRY: Record<string, Partial<TrackedChain>> = {
  'interwoven-1': {
    isL1: true,
    ibcPeers: { 'channel-25': 'yominet-1', 'channel-29': 'moo-1', 'channel-63': 'embrmainnet-1' },
  },
  'yominet-1': { opBridgeId: '11', ibcPeers: { 'channel-0': 'interwoven-1' } },
  'echelon-1': { opBridgeId: '16' },
  'intergaze-1': { opBridgeId: '31', ibcPeers: { 'channel-0': 'interwoven-1' } },
  'moo-1': { ibcPeers: { 'channel-0': 'interwoven-1' } },
  'embrmainnet-1': { ibcPeers: { 'channel-1': 'interwoven-1' } },
};

const replays: Replay[] = [];
const readers = new Map<string, ChainReader>();
let chains: TrackedChain[] = [];

beforeAll(async () => {
  for (const recording of recordings) {
    const replay = await startReplay({
      dir: recording.dir,
      host: '127.0.0.1',
      portBase: 0,
      logger: silentLogger(),
    });
    replays.push(replay);
    chains.push({
      chainId: recording.chainId,
      kind: 'cosmos',
      rpc: replay.urls.rpc,
      rest: replay.urls.rest,
      ...(replay.urls.jsonRpc ? { jsonRpc: replay.urls.jsonRpc } : {}),
      ...REGISTRY[recording.chainId],
    });
  }
  chains = [...chains];
  for (const chain of chains) readers.set(chain.chainId, createChainReader(chain, { timeoutMs: 5000 }));
});
afterAll(async () => {
  for (const reader of readers.values()) await reader.close();
  for (const replay of replays) await replay.close();
  rmSync(dir, { recursive: true, force: true });
});

const packet = (
  srcPort: string,
  srcChannel: string,
  dstPort: string,
  dstChannel: string,
  sequence: string,
) => ({
  srcPort,
  srcChannel,
  dstPort,
  dstChannel,
  sequence,
});
const NFT_WASM_PORT = 'wasm.init1wug8sewp6cedgkmrmvhl3lf3tulagm9hnvy8p0rppz9yjw0g4wtq7947m6';
const YOMI_L2 = l2Denom('11', 'uinit');
const GAZE_L2 = l2Denom('31', 'uinit');

/** Each corpus tx that carries interchain evidence, and what the tracker must read from it (from its events). */
const EVIDENCE: Array<[chain: string, hash: string, events: TrackEvent[]]> = [
  [
    'interwoven-1',
    '12B2F511',
    [
      {
        type: 'ibc_send',
        packet: packet('transfer', 'channel-29', 'transfer', 'channel-0', '2898'),
        denom: 'uinit',
        amount: '200000',
        timeoutTimestamp: '1751257396110677500',
        msgIndex: '0',
      },
    ],
  ],
  [
    'interwoven-1',
    '799FE662',
    [
      {
        type: 'ibc_send',
        packet: packet('nft-transfer', 'channel-28', 'nft-transfer', 'channel-1', '13'),
        timeoutTimestamp: '1749471966170000000',
        msgIndex: '0',
      },
    ],
  ],
  [
    'interwoven-1',
    '562A25B8',
    [
      {
        type: 'ibc_recv',
        packet: packet('transfer', 'channel-0', 'transfer', 'channel-27', '4599'),
        msgIndex: '1',
      },
      {
        type: 'ibc_write_ack',
        packet: packet('transfer', 'channel-0', 'transfer', 'channel-27', '4599'),
        msgIndex: '1',
      },
    ],
  ],
  [
    'interwoven-1',
    '718AFCF8',
    [
      {
        type: 'ibc_recv',
        packet: packet(NFT_WASM_PORT, 'channel-1', 'nft-transfer', 'channel-67', '1'),
        msgIndex: '1',
      },
      {
        type: 'ibc_write_ack',
        packet: packet(NFT_WASM_PORT, 'channel-1', 'nft-transfer', 'channel-67', '1'),
        msgIndex: '1',
      },
    ],
  ],
  [
    'interwoven-1',
    '6D393A7B',
    [
      {
        type: 'ibc_recv',
        packet: packet('nft-transfer', 'channel-1', 'nft-transfer', 'channel-28', '15'),
        msgIndex: '1',
      },
      {
        type: 'ibc_write_ack',
        packet: packet('nft-transfer', 'channel-1', 'nft-transfer', 'channel-28', '15'),
        msgIndex: '1',
      },
    ],
  ],
  [
    'interwoven-1',
    '93AF9DE3',
    [
      {
        type: 'op_deposit',
        bridgeId: '30',
        sequence: '2009',
        l1Denom: 'uinit',
        l2Denom: l2Denom('30', 'uinit'),
        amount: '360000000',
      },
    ],
  ],
  ['interwoven-1', '69C3617C', [{ type: 'op_claim', bridgeId: '12', sequence: '347' }]],
  [
    'moo-1',
    'D0A4E774',
    [
      {
        type: 'ibc_recv',
        packet: packet('transfer', 'channel-29', 'transfer', 'channel-0', '2898'),
        msgIndex: '1',
      },
      {
        type: 'ibc_write_ack',
        packet: packet('transfer', 'channel-29', 'transfer', 'channel-0', '2898'),
        msgIndex: '1',
      },
    ],
  ],
  [
    'yominet-1',
    '8CCB2C71',
    [
      {
        type: 'ibc_recv',
        packet: packet('transfer', 'channel-25', 'transfer', 'channel-0', '5920'),
        msgIndex: '1',
      },
      {
        type: 'ibc_write_ack',
        packet: packet('transfer', 'channel-25', 'transfer', 'channel-0', '5920'),
        msgIndex: '1',
      },
    ],
  ],
  [
    'yominet-1',
    '0FB9EA0E',
    [
      {
        type: 'op_finalize',
        sequence: '211',
        denom: YOMI_L2,
        success: false,
        reason:
          'hook failed; Failed to run AnteHandler: account sequence mismatch, expected 63, got 61: incorrect account sequence',
      },
    ],
  ],
  ['yominet-1', '2F6B47F7', [{ type: 'op_finalize', sequence: '217', denom: YOMI_L2, success: true }]],
  [
    'yominet-1',
    '3ACF2A12',
    [{ type: 'op_withdraw', sequence: '12', denom: YOMI_L2, baseDenom: 'uinit', amount: '100000' }],
  ],
  ['intergaze-1', '32548BDB', [{ type: 'op_finalize', sequence: '10353', denom: GAZE_L2, success: true }]],
  [
    'intergaze-1',
    '326AB668',
    [{ type: 'op_withdraw', sequence: '256', denom: GAZE_L2, baseDenom: 'uinit', amount: '1000' }],
  ],
  [
    'intergaze-1',
    '59CA813C',
    [
      {
        type: 'ibc_send',
        packet: packet('transfer', 'channel-0', 'transfer', 'channel-66', '9351'),
        denom: GAZE_L2,
        amount: '10000',
        timeoutTimestamp: '1761645100876013056',
        msgIndex: '0',
      },
    ],
  ],
  [
    'embrmainnet-1',
    '889B7F19',
    [
      {
        type: 'ibc_recv',
        packet: packet('nft-transfer', 'channel-63', 'nft-transfer', 'channel-1', '2'),
        msgIndex: '1',
      },
      {
        type: 'ibc_write_ack',
        packet: packet('nft-transfer', 'channel-63', 'nft-transfer', 'channel-1', '2'),
        msgIndex: '1',
      },
    ],
  ],
  [
    'embrmainnet-1',
    '3F85A69F',
    [
      {
        type: 'ibc_send',
        packet: packet('nft-transfer', 'channel-1', 'nft-transfer', 'channel-63', '2'),
        timeoutTimestamp: '1748267790595000000',
        msgIndex: '0',
      },
    ],
  ],
];

const txOf = (chain: string, prefix: string) => {
  const tx = corpus.find((t) => t.chainId === chain && t.response.txhash.startsWith(prefix));
  if (!tx) throw new Error(`no ${prefix}… on ${chain} in the corpus`);
  return tx.response;
};

describe('the tracker on real interchain evidence', () => {
  it.each(EVIDENCE)('reads %s %s… by hash and in its block', async (chain, prefix, events) => {
    const tx = txOf(chain, prefix);
    const reader = readers.get(chain)!;
    const source = await reader.sourceTx(tx.txhash);
    expect(source?.events).toEqual(events);
    expect(source?.tx).toMatchObject({ chainId: chain, height: Number(tx.height), time: tx.timestamp });
    const block = await reader.block(Number(tx.height));
    expect(block.txs.find((t) => t.tx.txHash === tx.txhash)?.events).toEqual(events);
  });

  it('holds no other corpus tx with evidence (the list above is all of it)', async () => {
    const listed = new Set(EVIDENCE.map(([, prefix]) => prefix));
    const found: string[] = [];
    for (const recording of recordings) {
      const reader = readers.get(recording.chainId)!;
      for (const height of recording.manifest.heights)
        for (const t of (await reader.block(height)).txs) found.push(t.tx.txHash.slice(0, 8));
    }
    // The synthetic NFT receive on moo-1 (36F27668…) is known by its re-encoded hash; its events are read too.
    expect(found.filter((h) => !listed.has(h))).toEqual(['90BF07F0']);
  });

  it('follows the L1 → moo-1 INIT transfer from its send to the receive and the written ack on moo-1', async () => {
    const directory = chainDirectory(chains);
    const sent = txOf('interwoven-1', '12B2F511');
    const source = (await readers.get('interwoven-1')!.sourceTx(sent.txhash))!;
    const progress: TransferProgress = {
      source: { ...source.tx, code: source.code },
      hops: hopsOfSourceTx(source.tx, source.events, directory),
      watch: {},
    };
    const hop = progress.hops[0] as IbcHop;
    expect(hop).toMatchObject({
      kind: 'ibc',
      fromChainId: 'interwoven-1',
      toChainId: 'moo-1',
      sequence: '2898',
    });
    expect(ibcHopState(hop)).toBe('TRANSFER_PENDING');
    const received = txOf('moo-1', 'D0A4E774');
    const block = await readers.get('moo-1')!.block(Number(received.height));
    for (const t of block.txs) applyTx(progress, t.tx, t.events, directory);
    expect(hop.receive?.txHash).toBe(received.txhash);
    expect(hop.written).toMatchObject({ tx: { txHash: received.txhash } });
    expect(hop.written?.error).toBeUndefined();
    // The voucher the tracker names is the one moo-1 minted (its `denomination_trace` event).
    const trace = received.events.find((e) => e.type === 'denomination_trace')!;
    expect(receivedDenom(hop)).toBe(trace.attributes.find((a) => a.key === 'denom')!.value);
    expect(ibcDenomOf(parseIbcPath('transfer/channel-0/uinit'))).toBe(receivedDenom(hop));
    // A successful ack written on the destination ends the hop well, before the source sees the ack.
    expect(ibcHopState(hop)).toBe('TRANSFER_SUCCESS');
    expect(outcomeOf(progress).state).toBe('STATE_COMPLETED_SUCCESS');
  });

  it('names OPinit hops by the registry: a deposit to its bridge, a withdrawal from a rollup to the L1', async () => {
    const directory = chainDirectory(chains);
    const withdrawal = (await readers.get('yominet-1')!.sourceTx(txOf('yominet-1', '3ACF2A12').txhash))!;
    expect(hopsOfSourceTx(withdrawal.tx, withdrawal.events, directory)).toMatchObject([
      {
        kind: 'opinit',
        direction: 'withdrawal',
        fromChainId: 'yominet-1',
        toChainId: 'interwoven-1',
        bridgeId: '11',
        sequence: '12',
        toDenom: 'uinit',
      },
    ]);
    const deposit = (await readers.get('interwoven-1')!.sourceTx(txOf('interwoven-1', '93AF9DE3').txhash))!;
    // Bridge 30 is in no chain.json of the registry: the hop's destination stays unknown.
    expect(hopsOfSourceTx(deposit.tx, deposit.events, directory)).toMatchObject([
      { kind: 'opinit', direction: 'deposit', fromChainId: 'interwoven-1', bridgeId: '30', sequence: '2009' },
    ]);
    expect(hopsOfSourceTx(deposit.tx, deposit.events, directory)[0]!.toChainId).toBeUndefined();
  });

  it("gives the devnet's OPinit L2 denoms the real chains' values too (the router's are checked above)", () => {
    for (const bridge of ['11', '16', '30', '31'])
      expect(l2Denom(BigInt(bridge), 'uinit')).toBe(l2Denom(bridge, 'uinit'));
  });
});
