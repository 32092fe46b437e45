import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bytesToHex } from 'weft/chain/address.js';
import { erc20Denom } from 'weft/protocol/evm-denom.js';
import { ibcHash, localDenom, pathHash } from 'weft/protocol/ics20.js';
import { decodeTransferData, encodeTransferData } from 'weft/protocol/ics20-packet.js';
import { decodePacketData, encodePacketData, nftTransferClassId } from 'weft/protocol/ics721.js';
import { metadataAddress } from 'weft/protocol/move-denom.js';
import { l2Denom } from 'weft/protocol/opinit.js';
import { type CorpusTx, loadCorpus } from './real-support/corpus.js';

/**
 * The protocol core (weft/protocol) against what Initia's mainnet chains wrote: the txs of
 * test/fixtures/real (recorded by initia-labs/tx-decoder's authors from mainnet nodes) and the asset lists
 * of the initia-registry snapshot in test/fixtures/registry (initia-registry@72efa3c5). Every value a
 * check compares with was written by a chain or the registry, never derived here.
 */

type Attributes = Record<string, string>;
const REGISTRY = 'test/fixtures/registry/mainnets';
let corpus: CorpusTx[];

beforeAll(async () => {
  corpus = await loadCorpus();
});

/** The events of `type` in the corpus, each with its tx and its attributes by key. */
function eventsOf(type: string): Array<{ tx: CorpusTx; attrs: Attributes }> {
  return corpus.flatMap((tx) =>
    tx.response.events
      .filter((e) => e.type === type)
      .map((e) => ({ tx, attrs: Object.fromEntries(e.attributes.map((a) => [a.key, a.value])) })),
  );
}

const packets = (port: string) =>
  [...eventsOf('recv_packet'), ...eventsOf('send_packet')].filter(
    ({ attrs }) => attrs.packet_src_port === port || attrs.packet_dst_port === port,
  );

describe('ICS-20 on the chains', () => {
  it('names a received voucher as the chain did (denomination_trace of the same tx)', () => {
    const traces = eventsOf('denomination_trace');
    expect(traces.length).toBeGreaterThanOrEqual(3);
    for (const { tx, attrs } of traces) {
      const recv = eventsOf('recv_packet').find((e) => e.tx === tx)!.attrs;
      const data = decodeTransferData(Buffer.from(recv.packet_data!));
      const path = `${recv.packet_dst_port}/${recv.packet_dst_channel}/${data.denom}`;
      expect(localDenom(path), tx.source.txhash).toBe(attrs.denom);
      expect(pathHash(path)).toBe(attrs.trace_hash);
    }
  });

  it('writes packet data byte for byte as ibc-go did', () => {
    const sent = packets('transfer');
    expect(sent.length).toBeGreaterThanOrEqual(5);
    for (const { tx, attrs } of sent) {
      const bytes = Buffer.from(attrs.packet_data!);
      expect(Buffer.from(encodeTransferData(decodeTransferData(bytes))).toString(), tx.source.txhash).toBe(
        attrs.packet_data,
      );
    }
  });

  it("hashes every voucher of the registry's asset lists from its trace", () => {
    let checked = 0;
    for (const { base, traces } of registryAssets()) {
      const last = traces.at(-1);
      if (!base.startsWith('ibc/') || last?.type !== 'ibc') continue;
      expect(localDenom(last.chain.path), base).toBe(base);
      checked += 1;
    }
    expect(checked).toBeGreaterThanOrEqual(10);
  });
});

describe('ICS-721 on the chains', () => {
  it('names a received class as the chain did (class_trace of the same tx)', () => {
    const traces = eventsOf('class_trace');
    expect(traces.length).toBeGreaterThanOrEqual(2);
    for (const { tx, attrs } of traces) {
      const recv = eventsOf('recv_packet').find((e) => e.tx === tx)!.attrs;
      const data = decodePacketData(Buffer.from(recv.packet_data!));
      expect(nftTransferClassId(recv.packet_dst_port!, recv.packet_dst_channel!, data.classId)).toBe(
        attrs.class_id,
      );
      expect(ibcHash(`${recv.packet_dst_port}/${recv.packet_dst_channel}/${data.classId}`)).toBe(
        attrs.class_id,
      );
    }
  });

  it("writes a Move or EVM chain's packet data byte for byte, and reads a Wasm contract's", () => {
    let written = 0;
    for (const { tx, attrs } of packets('nft-transfer')) {
      const data = decodePacketData(Buffer.from(attrs.packet_data!));
      expect(data.tokenIds.length, tx.source.txhash).toBeGreaterThan(0);
      // A Wasm rollup's ics721 contract writes its own JSON (fields unsorted, nulls); initia's module sorts.
      if (attrs.packet_src_port?.startsWith('wasm.')) continue;
      expect(Buffer.from(encodePacketData(data)).toString(), tx.source.txhash).toBe(attrs.packet_data);
      written += 1;
    }
    expect(written).toBeGreaterThanOrEqual(3);
  });
});

describe('OPinit on the chains', () => {
  // op_bridge_id of yominet-1 and intergaze-1 in initia-registry@72efa3c5 mainnets/*/chain.json (intergaze
  // at the last commit that listed it), as test/real-tracker.test.ts cites them.
  const BRIDGES: Record<string, string> = { 'yominet-1': '11', 'intergaze-1': '31' };

  it('names a deposited coin as the rollup did (finalize_token_deposit)', () => {
    const deposits = eventsOf('finalize_token_deposit');
    expect(deposits.length).toBeGreaterThanOrEqual(3);
    for (const { tx, attrs } of deposits)
      expect(l2Denom(BRIDGES[tx.chainId]!, attrs.base_denom!), tx.source.txhash).toBe(attrs.denom);
  });

  it("names every deposited coin of the registry's asset lists from its bridge", () => {
    let checked = 0;
    for (const { base, traces } of registryAssets()) {
      const last = traces.at(-1);
      if (!base.startsWith('l2/') || last?.type !== 'op') continue;
      expect(l2Denom(last.chain.bridge_id, last.counterparty.base_denom), base).toBe(base);
      checked += 1;
    }
    expect(checked).toBeGreaterThanOrEqual(5);
  });
});

describe('VM denoms on the chains', () => {
  it("spells minievm's evm/ denoms as the registry lists them", () => {
    const evm = registryAssets().filter(({ base }) => base.startsWith('evm/'));
    expect(evm.length).toBeGreaterThanOrEqual(5);
    for (const { base } of evm) expect(erc20Denom(base.slice(4).toLowerCase())).toBe(base);
  });

  it('finds the metadata object of uinit the L1 names in its fungible-asset events', () => {
    // interwoven-1's provide tx moves 34445uinit; its `deposit`/`withdraw` events name the metadata.
    const named = eventsOf('move')
      .filter(({ tx }) => tx.chainId === 'interwoven-1')
      .map(({ attrs }) => attrs.metadata_addr)
      .filter((m): m is string => m !== undefined);
    expect(named).toContain(`0x${bytesToHex(metadataAddress('uinit'))}`);
  });
});

interface RegistryTrace {
  type: string;
  chain: { path: string; bridge_id: string };
  counterparty: { base_denom: string };
}

/** Every asset of every chain of the registry snapshot. */
function registryAssets(): Array<{ base: string; traces: RegistryTrace[] }> {
  return readdirSync(REGISTRY).flatMap((chain) => {
    const list = JSON.parse(readFileSync(join(REGISTRY, chain, 'assetlist.json'), 'utf8'));
    return (list.assets as Array<{ base: string; traces?: RegistryTrace[] }>).map((a) => ({
      base: a.base,
      traces: a.traces ?? [],
    }));
  });
}
