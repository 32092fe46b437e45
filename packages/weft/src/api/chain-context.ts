import { ConfigError } from '../common/errors.js';
import { UNDEFINED_TABLE } from '../common/http-errors.js';
import type { Db } from '../store/db.js';
import { type ChainRow, chainOfStore } from '../store/read/status.js';
import type { ApiVm } from './config.js';
import type { ChainContext } from './context.js';

export interface ChainSettings {
  chainId?: string;
  vm?: ApiVm;
  bech32Prefix?: string;
  internalTx: boolean;
}

async function storedChain(db: Db): Promise<ChainRow | undefined> {
  try {
    return await chainOfStore(db);
  } catch (err) {
    // Before the indexer's first migration there is no table yet.
    if ((err as { code?: string }).code === UNDEFINED_TABLE) return undefined;
    throw err;
  }
}

/**
 * The chain to serve: what the settings say, completed from (and checked against) what the store
 * holds. An API pointed at another chain's store stops at start rather than mislabel its data.
 */
export async function resolveChain(db: Db, settings: ChainSettings): Promise<ChainContext> {
  const stored = await storedChain(db);
  const pick = <K extends keyof ChainRow>(
    key: K,
    setting: ChainRow[K] | undefined,
    env: string,
  ): ChainRow[K] => {
    if (setting !== undefined && stored && stored[key] !== setting) {
      throw new ConfigError(
        env,
        `"${setting}" does not match the store, which holds ${stored.chainId} (${stored.vm}, prefix ${stored.bech32Prefix})`,
      );
    }
    const value = setting ?? stored?.[key];
    if (value === undefined) throw new ConfigError(env, 'required while the store holds no chain yet');
    return value;
  };
  const vm = pick('vm', settings.vm, 'VM_TYPE');
  return {
    chainId: pick('chainId', settings.chainId, 'CHAIN_ID'),
    vm,
    bech32Prefix:
      settings.bech32Prefix === undefined && !stored
        ? 'init'
        : pick('bech32Prefix', settings.bech32Prefix, 'BECH32_PREFIX'),
    internalTx: vm === 'evm' && settings.internalTx,
  };
}
