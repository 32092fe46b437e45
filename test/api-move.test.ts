import { describeApiSuite } from 'weft/api/test-support/api-suite.js';
import { testBackends } from 'weft/store/test-support/backends.js';

// The read API over a move devnet chain indexed by the real indexer, on PGlite and PostgreSQL.
describeApiSuite('move', await testBackends());
