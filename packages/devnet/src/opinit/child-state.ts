import type { StateReader } from '../state/store.js';
import type { BridgeConfig } from './host-state.js';

/** The opchild module's state (`opchild/…` keys). */

export interface ChildParams {
  bridgeExecutors: string[];
  hookMaxGas: string;
  admin: string;
}

export interface ChildBridgeInfo {
  bridgeId: string;
  bridgeAddr: string;
  l1ChainId: string;
  l1ClientId: string;
  config: BridgeConfig;
}

export const childKeys = {
  params: 'opchild/params',
  bridgeInfo: 'opchild/bridge_info',
  nextL1Sequence: 'opchild/next_l1_sequence',
  nextL2Sequence: 'opchild/next_l2_sequence',
  denomPair: (l2Denom: string) => `opchild/denom_pair/${encodeURIComponent(l2Denom)}`,
};

export const childState = {
  has: (state: StateReader) => state.get(childKeys.params) !== undefined,
  params(state: StateReader): ChildParams | undefined {
    const raw = state.get(childKeys.params);
    return raw === undefined ? undefined : (JSON.parse(raw) as ChildParams);
  },
  bridgeInfo(state: StateReader): ChildBridgeInfo | undefined {
    const raw = state.get(childKeys.bridgeInfo);
    return raw === undefined ? undefined : (JSON.parse(raw) as ChildBridgeInfo);
  },
  nextL1Sequence: (state: StateReader) => BigInt(state.get(childKeys.nextL1Sequence) ?? '1'),
  nextL2Sequence: (state: StateReader) => BigInt(state.get(childKeys.nextL2Sequence) ?? '1'),
  baseDenom: (state: StateReader, l2Denom: string) => state.get(childKeys.denomPair(l2Denom)),
};
