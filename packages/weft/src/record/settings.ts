import { hostSetting, logSettings, parse } from '../common/config.js';
import { ConfigError } from '../common/errors.js';
import { indexerSettings } from '../indexer/config.js';

/** Settings of `weft record` (the node flags are `weft indexer`'s) and `weft replay`. */

const { chainId, vm, bech32Prefix, rpcUrls, restUrls, jsonRpcUrls, queryTimeout } = indexerSettings;

export const recordSettings = {
  chainId,
  vm,
  bech32Prefix,
  rpcUrls,
  restUrls,
  jsonRpcUrls,
  queryTimeout,
  from: {
    flag: 'from',
    env: 'RECORD_FROM',
    description: 'first height to record',
    parse: parse.int(1),
  },
  to: {
    flag: 'to',
    env: 'RECORD_TO',
    description: 'last height to record (at most the node’s head)',
    parse: parse.int(1),
  },
  out: {
    flag: 'out',
    env: 'RECORD_OUT',
    description: 'folder the recording goes to; a recording already there is resumed',
    parse: (raw: string, name: string) => {
      if (!raw.trim()) throw new ConfigError(name, 'needs a folder');
      return raw;
    },
  },
  internalTx: { ...indexerSettings.internalTx },
  richList: { ...indexerSettings.richList },
  ...logSettings,
};

export const replaySettings = {
  host: { ...hostSetting, env: 'REPLAY_HOST', description: 'address the replayed node surfaces listen on' },
  portBase: {
    flag: 'port-base',
    env: 'REPLAY_PORT_BASE',
    description: 'RPC on base, REST on base+1, JSON-RPC on base+2 (the devnet’s layout); 0 picks free ports',
    parse: parse.int(0, 65_000),
    default: 26_650,
  },
  manifest: {
    flag: 'manifest',
    env: 'REPLAY_MANIFEST',
    description: 'where to write the served URLs as JSON (the devnet’s manifest shape); empty: nowhere',
    parse: parse.string,
    default: '',
  },
  ...logSettings,
};
