import type { BuildInfo } from '../common/build.js';
import type { Db } from '../store/db.js';
import type { RecordCache } from '../store/read/record-cache.js';
import type { ChainHead } from './chain-head.js';
import type { ApiVm } from './config.js';
import type { DenomResolver } from './denoms.js';
import type { ProposerDirectory } from './proposers.js';

/** The chain the API serves, settled at start from the configuration and the store. */
export interface ChainContext {
  chainId: string;
  vm: ApiVm;
  bech32Prefix: string;
  /** EVM internal txs are served (EVM and INTERNAL_TX). */
  internalTx: boolean;
}

/** What every route reads from; built once by `createApiServer`. */
export interface ApiContext {
  /** The store, each read admitted through the API's store gate. */
  db: Db;
  /** The same store without the gate, for `/status`: it answers while scans fill the gate. */
  statusDb: Db;
  chain: ChainContext;
  /** The chain's latest height from its node, for `/status`. */
  head: ChainHead;
  proposers: ProposerDirectory;
  denoms: DenomResolver;
  ttl: { listMs: number; itemMs: number };
  /** Tx and EVM tx records kept between pages; absent: every page reads its records. */
  records?: RecordCache;
  build: BuildInfo;
}
