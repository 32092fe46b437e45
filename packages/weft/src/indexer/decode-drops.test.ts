import { describe, expect, it } from 'vitest';
import { createMetricsRegistry } from '../common/metrics.js';
import { createDropReporter } from './decode-drops.js';
import { createIndexerMetrics } from './metrics.js';
import { captureDrops } from './test-support/drops.js';
import { captureRecords } from './test-support/logger.js';

describe('the drop reporter', () => {
  it('counts every drop and warns at most once a minute per decoder, with what it kept quiet about', async () => {
    const { drops, count, warnings, advance } = captureDrops();
    drops.drop('rich_list', 'bad_json', { height: 5 });
    drops.drop('rich_list', 'bad_amount', { height: 5 });
    drops.drop('nft_evm', 'bad_address', { height: 6 });
    advance(30_000);
    drops.drop('rich_list', 'bad_json', { height: 7 });
    expect(await count('rich_list', 'bad_json')).toBe(2);
    expect(await count('rich_list', 'bad_amount')).toBe(1);
    expect(await count('nft_evm', 'bad_address')).toBe(1);
    // One warning per decoder so far: the first drop of each.
    expect(warnings().map((w) => [w.decoder, w.reason, w.height, w.suppressedSinceLastWarning])).toEqual([
      ['rich_list', 'bad_json', 5, 0],
      ['nft_evm', 'bad_address', 6, 0],
    ]);

    advance(30_000);
    drops.drop('rich_list', 'bad_amount', { height: 9 });
    expect(warnings()).toHaveLength(3);
    expect(warnings()[2]).toMatchObject({
      decoder: 'rich_list',
      reason: 'bad_amount',
      height: 9,
      suppressedSinceLastWarning: 2,
    });
    expect(await count('rich_list', 'bad_amount')).toBe(2);
  });

  it('serves the count as weft_indexer_decode_dropped_events_total{decoder,reason}', async () => {
    const registry = createMetricsRegistry();
    const metrics = createIndexerMetrics(registry);
    const drops = createDropReporter({ logger: captureRecords().logger, counter: metrics.decodeDrops });
    drops.drop('internal_tx', 'missing_result');
    drops.drop('internal_tx', 'missing_result');
    expect(await registry.metrics()).toMatch(
      /^weft_indexer_decode_dropped_events_total\{decoder="internal_tx",reason="missing_result"\} 2$/m,
    );
  });
});
