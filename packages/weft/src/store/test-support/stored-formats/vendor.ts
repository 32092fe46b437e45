/**
 * Prints the fixture store as this weft writes it, as SQL, under the first line given:
 * `node --conditions=weft-source --import tsx packages/weft/src/store/test-support/stored-formats/vendor.ts "-- Written by weft <commit> (…)" > schema-N-<what>.sql`.
 * Run before a change of stored format, so the store the change makes an earlier one stays tested.
 */
import { openDb } from '../../db.js';
import { migrate } from '../../migrate.js';
import { dumpStore } from '../store-dump.js';
import { writeFixtureStore } from './fixture-store.js';

const db = await openDb({ dataDir: 'memory://' });
await migrate(db);
await writeFixtureStore(db);
process.stdout.write(`${process.argv[2] ?? '-- Written by weft'}\n${await dumpStore(db)}`);
await db.close();
