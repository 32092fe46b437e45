import type { KeyType } from '../keys.js';
import type { ChainPlan } from '../network/plan.js';
import type { ChainInfo } from '../types.js';

/** initia-registry `chain.json` (the fields the devnet fills; see chain.schema.json). */
export interface ChainJson {
  $schema: string;
  chain_name: string;
  chain_id: string;
  pretty_name: string;
  network_type: 'devnet';
  evm_chain_id?: number;
  bech32_prefix: string;
  key_algos: string[];
  slip44: number;
  fees: { fee_tokens: FeeToken[] };
  apis: {
    rpc: ApiEntry[];
    rest: ApiEntry[];
    'json-rpc'?: ApiEntry[];
  };
  metadata: ChainMetadata;
}

export interface FeeToken {
  denom: string;
  fixed_min_gas_price: number;
  low_gas_price: number;
  average_gas_price: number;
  high_gas_price: number;
}

export interface ApiEntry {
  address: string;
  provider: string;
}

export interface ChainMetadata {
  is_l1?: boolean;
  op_bridge_id?: string;
  op_denoms?: string[];
  executor_uri?: string;
  ibc_channels?: IbcChannelJson[];
  minitia?: { type: 'minievm' | 'minimove' | 'miniwasm' | 'custom'; version: string };
  assetlist?: string;
  [key: string]: unknown;
}

/** `metadata.ibc_channels[]` of chain.json. */
export interface IbcChannelJson {
  chain_id: string;
  port_id: string;
  channel_id: string;
  version: string;
}

/** initia-registry `assetlist.json`. */
export interface AssetListJson {
  $schema: string;
  chain_name: string;
  assets: AssetJson[];
}

export interface AssetJson {
  description?: string;
  denom_units: Array<{ denom: string; exponent: number; aliases?: string[] }>;
  base: string;
  display: string;
  name: string;
  symbol: string;
  type_asset?: string;
  address?: string;
  traces?: unknown[];
  ibc?: { source_channel: string; dst_channel: string; source_denom: string };
  [key: string]: unknown;
}

/**
 * What a part of the network adds to the registry entry of one chain: its IBC channels, its OPinit
 * bridge, its executor, its assets (vouchers, `l2/` denoms, OFT tokens) and any further metadata.
 * Entries of several contributions to one chain are appended; single values are replaced.
 */
export interface RegistryContribution {
  /** The chain the entries belong to. */
  chainId: string;
  /** This chain's channel ends; with `counterparty`, the pair also lands in `_IBC/<a>-<b>.json`. */
  ibcChannels?: Array<IbcChannelJson & IbcClientIds & { counterparty?: IbcCounterparty }>;
  opBridgeId?: string;
  opDenoms?: string[];
  executorUri?: string;
  assets?: AssetJson[];
  /** Further `metadata` keys (e.g. the chain's OFT endpoint). */
  metadata?: Record<string, unknown>;
}

/** The far end of a channel, for the `_IBC/<a>-<b>.json` files. */
export interface IbcCounterparty extends IbcClientIds {
  channel_id: string;
  port_id: string;
}

export interface IbcClientIds {
  client_id?: string;
  connection_id?: string;
}

/** What the registry needs to know of a chain of the network. */
export interface RegistryChain {
  plan: ChainPlan;
  info: ChainInfo;
  keyType: KeyType;
  urls: { rpc?: string; rest?: string; jsonRpc?: string };
}
