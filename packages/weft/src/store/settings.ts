import { parse } from '../common/config.js';
import { DEFAULT_DATA_DIR } from './db.js';

/** Where a process finds its store, read the same way by `weft indexer` and `weft api`. */
export const storeSettings = {
  dbDsn: {
    flag: 'db-dsn',
    env: 'DB_DSN',
    description: 'PostgreSQL URL; unset: the embedded store (PGlite) in --data-dir',
    parse: parse.postgresDsn,
    default: '',
  },
  dataDir: {
    flag: 'data-dir',
    env: 'DATA_DIR',
    description: 'folder of the embedded store when DB_DSN is unset (memory:// keeps it in memory)',
    parse: parse.string,
    default: DEFAULT_DATA_DIR,
  },
  dbSchema: {
    flag: 'db-schema',
    env: 'DB_SCHEMA',
    description: 'database schema of the chain’s tables (empty: public)',
    parse: parse.string,
    default: '',
  },
};
