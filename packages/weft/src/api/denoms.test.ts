import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Devnet } from 'weft-devnet/devnet.js';
import { testDevnet } from 'weft-devnet/test-support/devnet.js';
import { createRestClient, type RestClient } from '../chain/rest-client.js';
import { BusyError } from '../common/errors.js';
import { createDenomResolver } from './denoms.js';

/** Denom → ERC20 against the devnet's EVM REST, counting the look-ups that reach the node. */

let devnet: Devnet;
beforeAll(async () => {
  devnet = await testDevnet({ seed: 'denoms', vms: ['evm'], accounts: 2, txsPerBlock: 0 });
  await devnet.fastForward(2);
});
afterAll(() => devnet?.close());

/** The real REST client, with a count of the `by_denom` look-ups it sends. */
function countingRest(urls: string[]): { rest: RestClient; lookups: () => number } {
  const rest = createRestClient(urls, { timeoutMs: 2000 });
  let count = 0;
  return {
    rest: {
      ...rest,
      contractByDenom(denom, signal) {
        count += 1;
        return rest.contractByDenom(denom, signal);
      },
    },
    lookups: () => count,
  };
}

describe('createDenomResolver', () => {
  it('resolves a bank denom once, in either spelling, and keeps it', async () => {
    const { rest, lookups } = countingRest([devnet.chains[0]!.urls.rest]);
    const denoms = createDenomResolver({ rest, cacheSize: 100 });
    const contract = await denoms.contractOf('GAS');
    expect(contract).toMatch(/^0x[0-9a-f]{40}$/);
    expect(await denoms.contractOf('gas')).toBe(contract);
    const before = lookups();
    expect(await denoms.contractOf('GAS')).toBe(contract);
    expect(lookups()).toBe(before);
  });

  it('shares one look-up between concurrent requests and remembers a denom without a contract', async () => {
    const { rest, lookups } = countingRest([devnet.chains[0]!.urls.rest]);
    const denoms = createDenomResolver({ rest, cacheSize: 100 });
    const answers = await Promise.allSettled(
      Array.from({ length: 20 }, () => denoms.contractOf('unotthere')),
    );
    expect(
      answers.every((a) => a.status === 'rejected' && /has no ERC20 contract/.test(String(a.reason))),
    ).toBe(true);
    // One look-up per spelling tried (as given; rollytics' spelling is the same here).
    expect(lookups()).toBe(1);
    await expect(denoms.contractOf('unotthere')).rejects.toMatchObject({ status: 404 });
    expect(lookups()).toBe(1);
  });

  it('answers a denom no chain could hold with a 400, without asking the node', async () => {
    const { rest, lookups } = countingRest([devnet.chains[0]!.urls.rest]);
    const denoms = createDenomResolver({ rest, cacheSize: 100 });
    for (const denom of ['1abc', 'a', 'x'.repeat(200), 'bad denom', 'ünï']) {
      await expect(denoms.contractOf(denom)).rejects.toMatchObject({ status: 400 });
    }
    expect(lookups()).toBe(0);
  });

  it('caps the look-ups in flight: past the wait a request is told the API is busy', async () => {
    const { rest } = countingRest([devnet.chains[0]!.urls.rest]);
    const denoms = createDenomResolver({ rest, cacheSize: 100, maxLookups: 1, maxWaitMs: 1 });
    devnet.chains[0]!.servers.setFaults({ delayRate: 1, delayMs: 200 });
    try {
      const answers = await Promise.allSettled(
        Array.from({ length: 5 }, (_, i) => denoms.contractOf(`uslow${i}`)),
      );
      const busy = answers.filter((a) => a.status === 'rejected' && a.reason instanceof BusyError);
      expect(busy.length).toBeGreaterThan(0);
    } finally {
      devnet.chains[0]!.servers.setFaults({ delayRate: 0 });
    }
  });

  it('says the node is unreachable (503) when its REST does not answer', async () => {
    const { rest } = countingRest(['http://127.0.0.1:9']);
    const denoms = createDenomResolver({ rest, cacheSize: 100 });
    await expect(denoms.contractOf('uother')).rejects.toMatchObject({
      status: 503,
      code: 'WEFT_ERR_NODE_UNREACHABLE',
      message: expect.stringMatching(/^the chain node is unreachable/),
    });
  });
});
