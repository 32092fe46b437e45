import { hostSetting, logSettings, parse, type SettingsSpec } from '../common/config.js';
import { ConfigError } from '../common/errors.js';

/** One chain the dashboard shows: its id and the indexer API that serves it. */
export interface DashboardChain {
  chain_id: string;
  /** `l1`, `rollup`, `external-cosmos`, `external-evm`; absent: the dashboard asks the router. */
  role?: string;
  indexer_api: string | null;
}

/** `chain_id=url,chain_id=url`: the indexer API of each chain, in the order given. */
function parseIndexerApis(raw: string, name: string): DashboardChain[] {
  return parse.listOf((pair, setting) => {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new ConfigError(setting, `"${pair}" is not chain_id=url`);
    return { chain_id: pair.slice(0, eq).trim(), indexer_api: parse.url(pair.slice(eq + 1).trim(), setting) };
  })(raw, name);
}

/** Settings of `weft dashboard`: where it listens and the public APIs it reads. */
export const dashboardSettings = {
  host: hostSetting,
  port: {
    flag: 'port',
    env: 'PORT',
    description: 'port to listen on; 0 picks a free port',
    parse: parse.int(0, 65_535),
    default: 8070,
  },
  routerUrl: {
    flag: 'router-url',
    env: 'ROUTER_URL',
    description: 'base URL of the router API the transfers and route pages read (empty: those pages say so)',
    parse: (raw: string, name: string) => (raw === '' ? '' : parse.url(raw, name)),
    default: '',
  },
  indexerApis: {
    flag: 'indexer-apis',
    env: 'INDEXER_APIS',
    description: 'the indexer API of each chain, as chain_id=url pairs separated by commas',
    parse: parseIndexerApis,
    default: [] as DashboardChain[],
  },
  logLevel: logSettings.logLevel,
  logFormat: logSettings.logFormat,
} satisfies SettingsSpec;
