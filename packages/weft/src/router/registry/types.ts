/** A chain as the router knows it, read from its registry `chain.json` (and node URL overrides). */
export interface RouterChain {
  chainId: string;
  chainName: string;
  prettyName: string;
  /** `evm` for chains reached only through EVM JSON-RPC (Ethereum-like); Initia rollups of any VM are `cosmos`. */
  kind: 'cosmos' | 'evm';
  bech32Prefix: string;
  rpc?: string;
  rest?: string;
  jsonRpc?: string;
  evmChainId?: number;
  isL1: boolean;
  isTestnet: boolean;
  /** `minievm`, `minimove`, `miniwasm`; absent outside Initia rollups. */
  minitia?: string;
  opBridgeId?: string;
  opDenoms: string[];
  executorUri?: string;
  ibcChannels: IbcChannel[];
  /** ICS-721 channel ends (NFTs, `POST /nft`); never edges of the fungible graph. */
  nftChannels: NftChannel[];
  feeAssets: Array<{ denom: string; low: number; average: number; high: number }>;
  omnichain?: OmnichainEndpoint;
  keyAlgos: string[];
  logoUri?: string;
}

/** One ICS-20 channel end of a chain, with the channel id on the far side when the registry gives it. */
export interface IbcChannel {
  counterpartyChainId: string;
  portId: string;
  channelId: string;
  counterpartyChannelId?: string;
  version: string;
}

/**
 * One ICS-721 channel end: the `nft-transfer` module's port (Move and EVM chains) or a CosmWasm ics721
 * contract's `wasm.<contract>` port, with the far end when the registry gives it.
 */
export interface NftChannel {
  counterpartyChainId: string;
  portId: string;
  channelId: string;
  counterpartyPortId?: string;
  counterpartyChannelId?: string;
  version: string;
}

/** `metadata.omnichain` of chain.json: this chain's OFT endpoint (LayerZero-style). */
export interface OmnichainEndpoint {
  eid: number;
  kind: 'evm' | 'move';
  endpoint: string;
  oft: string;
  denom: string;
  decimals: number;
  sharedDecimals: number;
  peers: number[];
}

/**
 * One step of an asset's `traces` (the registry lists them from the origin to the asset): where the step
 * starts (`counterparty`) and how (`ibc` over a channel, `op` over a bridge, `wrapped` by a contract, or a
 * kind routes do not follow: `bridge`, `liquid-stake`, `synthetic`, `additional-mintage`, …).
 */
export interface AssetTrace {
  kind: string;
  /** The chain the step starts on: its id when the registry gives or knows it, and its name. */
  fromChainId?: string;
  fromChainName?: string;
  /** The denom on that chain (`counterparty.base_denom`). */
  fromDenom: string;
  /** `ibc`: the channel of the chain the step lands on, and the denom's full path there. */
  channelId?: string;
  path?: string;
  /** `op`: the OPinit bridge. */
  bridgeId?: string;
  /** `wrapped` and the other non-IBC kinds: the contract that does it, and who provides it. */
  contract?: string;
  provider?: string;
}

/** One asset of a chain's assetlist.json, in the router's terms. */
export interface RouterAsset {
  chainId: string;
  denom: string;
  symbol: string;
  name: string;
  decimals: number;
  description?: string;
  logoUri?: string;
  coingeckoId?: string;
  /** ERC20 contract on EVM chains (0x, checksummed as the registry writes it). */
  tokenContract?: string;
  /** IBC path (`transfer/channel-0/uinit`) of an `ibc/…` voucher: the trace path that hashes to its denom. */
  ibcPath?: string;
  /** Bridge id of an `op` trace (an `l2/…` denom). */
  opBridgeId?: string;
  /**
   * The coin this token wraps on its own chain when its last trace is `wrapped` (chain, denom), the
   * contract that wraps it and its provider (`Decimal Wrapper`: minievm's ERC20Wrapper).
   */
  wraps?: { chainId: string; denom: string; contract?: string; provider?: string };
  /** Its `traces`, from the origin to this asset; those the registry writes wrong are left out (with a warning). */
  traces: AssetTrace[];
  hidden: boolean;
}

/**
 * A rollup's `profiles/<name>.json`: the registry keeps it after the rollup's chain.json is removed
 * (`status: "hidden"`), so a chain id that assets still name can be told apart from an unknown one.
 */
export interface ChainProfile {
  chainId: string;
  name: string;
  prettyName: string;
  status: string;
  opBridgeId?: string;
}

export interface RouterRegistry {
  chains: RouterChain[];
  assets: RouterAsset[];
  chain(chainId: string): RouterChain | undefined;
  /** The chain by its EVM chain id (as a decimal string) or its chain id. */
  chainByAnyId(id: string): RouterChain | undefined;
  asset(chainId: string, denom: string): RouterAsset | undefined;
  l1(): RouterChain | undefined;
  /** The profile of a chain id, listed or not (a retired rollup has only its profile). */
  profile(chainId: string): ChainProfile | undefined;
}

/** Node URLs given on the command line win over the registry's `apis`. */
export type NodeOverrides = Record<string, { rpc?: string; rest?: string; jsonRpc?: string }>;
