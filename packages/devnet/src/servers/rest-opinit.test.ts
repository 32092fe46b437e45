import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostState } from '../opinit/host-state.js';
import { createOpinitTestbed, type OpinitTestbed } from '../test-support/opinit-testbed.js';

/**
 * The ophost queries of InterwovenKit's withdrawal views, over loopback HTTP on a host chain with a
 * bridge: the latest output (`outputs` asked in reverse with a limit of 1) and the migration info of an
 * L1 denom (absent on the devnet, whose bridges never migrate).
 */

let bed: OpinitTestbed;

beforeAll(async () => {
  bed = await createOpinitTestbed({ childVm: 'wasm', finalizationPeriodMs: 0, seed: 'rest-ophost' });
  const outputs = () => hostState.outputs(bed.host.chain.state(bed.host.chain.latestHeight()), 1n).length;
  for (let i = 0; i < 40 && outputs() < 3; i += 1) await bed.step();
}, 60_000);

afterAll(async () => {
  await bed?.close();
});

const get = async (path: string) => {
  const res = await fetch(`${bed.host.servers.urls.rest}/opinit/ophost/v1${path}`);
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};

/**
 * The next key of a page of outputs: the output index as the pair key codec writes it (uint64 big-endian),
 * the bridge id prefix stripped as initia's cosmos-sdk `CollectionPaginate` strips it, base64.
 */
const indexKey = (index: number) => {
  const key = Buffer.alloc(8);
  key.writeBigUInt64BE(BigInt(index));
  return key.toString('base64');
};

describe('output proposals', () => {
  it('pages them as OutputProposals does: reversed and limited, with the next key', async () => {
    const all = await get('/bridges/1/outputs');
    expect(all.status).toBe(200);
    const indices = all.body.output_proposals.map((o: { output_index: string }) => Number(o.output_index));
    expect(indices.length).toBeGreaterThanOrEqual(3);
    expect(indices).toEqual([...indices].sort((a, b) => a - b));
    expect(all.body.pagination).toEqual({ next_key: null, total: String(indices.length) });

    const last = indices.at(-1)!;
    const latest = await get('/bridges/1/outputs?pagination.reverse=true&pagination.limit=1');
    expect(latest.status).toBe(200);
    expect(latest.body.output_proposals).toEqual([all.body.output_proposals.at(-1)]);
    expect(latest.body.pagination).toEqual({ next_key: indexKey(last - 1), total: '0' });

    const next = await get(
      `/bridges/1/outputs?pagination.reverse=true&pagination.limit=1&pagination.key=${encodeURIComponent(latest.body.pagination.next_key)}`,
    );
    expect(next.body.output_proposals.map((o: { output_index: string }) => o.output_index)).toEqual([
      String(last - 1),
    ]);
    const firstTwo = await get('/bridges/1/outputs?pagination.limit=2&pagination.count_total=true');
    expect(firstTwo.body.output_proposals).toEqual(all.body.output_proposals.slice(0, 2));
    expect(firstTwo.body.pagination).toEqual({
      next_key: indexKey(indices[2]!),
      total: String(indices.length),
    });
  });

  it('lists none for a bridge that does not exist, as the collection holds none under its id', async () => {
    expect(await get('/bridges/9/outputs')).toEqual({
      status: 200,
      body: { output_proposals: [], pagination: { next_key: null, total: '0' } },
    });
  });
});

describe('migration info', () => {
  it('is not found for any L1 denom: NotFound, HTTP 404', async () => {
    const denom = bed.host.chain.info.denom;
    expect(await get(`/bridges/1/migration_info/by_l1_denom?l1_denom=${denom}`)).toEqual({
      status: 404,
      body: { code: 5, message: 'migration info not found', details: [] },
    });
  });
});
