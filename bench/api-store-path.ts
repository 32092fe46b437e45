import type { Db } from 'weft/store/db.js';
import { createRecordCache, type RecordCache } from 'weft/store/read/record-cache.js';
import { txsByAccount } from 'weft/store/read/txs.js';

/**
 * The by-account page's store path alone, with no HTTP: the same reads the route makes (keys, total and
 * records), from this process at `concurrency` over the accounts, for `seconds` each. `cached`: every
 * record is in a record cache big enough for all the pages (filled by two passes, not timed);
 * `uncached`: no record cache, so every record is read and inflated. `node_cpu_us_per_page` is this
 * process's CPU per page (PostgreSQL's backends are not in it). Set beside the HTTP scenarios it shows
 * what bounds a route: a page rate near the static page's request rate leaves the route at about half of
 * it, since both run on the same cores.
 */
export async function storePathRates(
  db: Db,
  accounts: Uint8Array[],
  options: { seconds: number; concurrency: number },
) {
  const out: Record<string, { pages_per_s: number; node_cpu_us_per_page: number }> = {};
  for (const limit of [10, 100]) {
    const request = { offset: 0, limit, descending: true, countTotal: true };
    const rate = async (cache: RecordCache | undefined) => {
      let pages = 0;
      const cpu = process.cpuUsage();
      const started = performance.now();
      const end = started + options.seconds * 1000;
      await Promise.all(
        Array.from({ length: options.concurrency }, async (_, k) => {
          for (let i = k; performance.now() < end; i += options.concurrency) {
            const account = accounts[i % accounts.length]!;
            await txsByAccount(db, { account, signer: false }, request, cache);
            pages += 1;
          }
        }),
      );
      const used = process.cpuUsage(cpu);
      return {
        pages_per_s: Math.round((pages * 1000) / (performance.now() - started)),
        node_cpu_us_per_page: Math.round((used.user + used.system) / Math.max(pages, 1)),
      };
    };
    // Uncached first, so no filled cache is alive (and collected around) while it runs.
    out[`limit_${limit}_uncached`] = await rate(undefined);
    // Two passes: the cache keeps a record from its second read on.
    const cache = createRecordCache({ maxBytes: 2 * 1024 ** 3 });
    for (let pass = 0; pass < 2; pass++) {
      for (const account of accounts) await txsByAccount(db, { account, signer: false }, request, cache);
    }
    out[`limit_${limit}_cached`] = await rate(cache);
  }
  return out;
}
