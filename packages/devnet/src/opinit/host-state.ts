import type { StateReader, StateStore } from '../state/store.js';

/**
 * The ophost module's state (`ophost/…` keys). Ids and indexes are zero-padded decimals so that a
 * group lists them in numeric order.
 */

export interface BridgeConfig {
  challenger: string;
  proposer: string;
  batchInfo: { submitter: string; chainType: 'INITIA' | 'CELESTIA' };
  submissionIntervalMs: number;
  finalizationPeriodMs: number;
  submissionStartHeight: number;
  /** base64 of the bridge metadata (the rollup's IBC channel, JSON). */
  metadata: string;
  oracleEnabled: boolean;
}

export interface BridgeRecord {
  bridgeId: string;
  bridgeAddr: string;
  config: BridgeConfig;
}

export interface OutputRecord {
  /** base64 of the 32-byte output root. */
  outputRoot: string;
  l1BlockNumber: number;
  l1BlockTime: string;
  l1BlockTimeMs: number;
  l2BlockNumber: number;
}

const pad = (n: bigint | number) => String(n).padStart(20, '0');

export const hostKeys = {
  params: 'ophost/params',
  nextBridgeId: 'ophost/next_bridge_id',
  bridgeGroup: 'ophost/bridge',
  bridge: (id: bigint) => `ophost/bridge/${pad(id)}`,
  nextL1Sequence: (id: bigint) => `ophost/l1_sequence/${pad(id)}`,
  pairGroup: (id: bigint) => `ophost/pair/${pad(id)}`,
  pair: (id: bigint, l2Denom: string) => `ophost/pair/${pad(id)}/${encodeURIComponent(l2Denom)}`,
  outputGroup: (id: bigint) => `ophost/output/${pad(id)}`,
  output: (id: bigint, index: bigint) => `ophost/output/${pad(id)}/${pad(index)}`,
  nextOutputIndex: (id: bigint) => `ophost/next_output/${pad(id)}`,
  claimed: (id: bigint, hashHex: string) => `ophost/claimed/${pad(id)}/${hashHex}`,
};

/** Reads of the host state, shared by the module, the REST routes and the relayers. */
export const hostState = {
  has: (state: StateReader) => state.get(hostKeys.params) !== undefined,
  bridge(state: StateReader, id: bigint): BridgeRecord | undefined {
    const raw = state.get(hostKeys.bridge(id));
    return raw === undefined ? undefined : (JSON.parse(raw) as BridgeRecord);
  },
  bridges: (state: StateReader): BridgeRecord[] =>
    state.group(hostKeys.bridgeGroup).map((key) => JSON.parse(state.get(key)!) as BridgeRecord),
  nextL1Sequence: (state: StateReader, id: bigint) => BigInt(state.get(hostKeys.nextL1Sequence(id)) ?? '1'),
  nextOutputIndex: (state: StateReader, id: bigint) => BigInt(state.get(hostKeys.nextOutputIndex(id)) ?? '1'),
  output(state: StateReader, id: bigint, index: bigint): OutputRecord | undefined {
    const raw = state.get(hostKeys.output(id, index));
    return raw === undefined ? undefined : (JSON.parse(raw) as OutputRecord);
  },
  outputs: (state: StateReader, id: bigint): Array<{ index: bigint; output: OutputRecord }> =>
    state.group(hostKeys.outputGroup(id)).map((key) => ({
      index: BigInt(key.slice(key.lastIndexOf('/') + 1)),
      output: JSON.parse(state.get(key)!) as OutputRecord,
    })),
  tokenPairs: (state: StateReader, id: bigint): Array<{ l1Denom: string; l2Denom: string }> =>
    state.group(hostKeys.pairGroup(id)).map((key) => ({
      l1Denom: state.get(key)!,
      l2Denom: decodeURIComponent(key.slice(key.lastIndexOf('/') + 1)),
    })),
  claimed: (state: StateReader, id: bigint, hashHex: string) =>
    state.get(hostKeys.claimed(id, hashHex)) !== undefined,
};

export function putBridge(store: StateStore, record: BridgeRecord): void {
  store.set(hostKeys.bridge(BigInt(record.bridgeId)), JSON.stringify(record));
}
