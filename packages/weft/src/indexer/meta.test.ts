import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Devnet } from 'weft-devnet/devnet.js';
import { testDevnet } from 'weft-devnet/test-support/devnet.js';
import { NodeUnavailableError } from '../chain/endpoints.js';
import { createRestClient } from '../chain/rest-client.js';
import type { MetaRequest } from './bundle.js';
import { metaKeys } from './decode/index.js';
import { createMetaAnswerer } from './meta.js';

let devnet: Devnet;
const once = <R>(fn: (signal: AbortSignal) => Promise<R>) => fn(new AbortController().signal);

beforeAll(async () => {
  devnet = await testDevnet({
    seed: 'meta',
    vms: ['evm'],
    accounts: 2,
    txsPerBlock: 0,
  });
  await devnet.fastForward(3);
});

afterAll(() => devnet.close());

describe('metadata answers', () => {
  it('answers at the height, keeps answers that cannot change, and reports reverts as answers', async () => {
    const chain = devnet.chains[0]!;
    const rest = createRestClient([chain.urls.rest], { timeoutMs: 5000 });
    const token = (await rest.contractByDenom(chain.chain.info.denom))!;
    const name: MetaRequest = {
      kind: 'evm-call',
      key: metaKeys.evmCall(token, '0x06fdde03'),
      contract: token,
      input: '0x06fdde03',
    };
    const atHeight: MetaRequest = {
      kind: 'evm-call',
      key: metaKeys.evmCall(token, '0x313ce567', 2),
      contract: token,
      input: '0x313ce567',
    };
    const revert: MetaRequest = {
      kind: 'evm-call',
      key: metaKeys.evmCall(token, '0xdeadbeef'),
      contract: token,
      input: '0xdeadbeef',
    };
    const meta = createMetaAnswerer(rest);
    const answers = await meta.answer([name, atHeight, revert], 2, once);
    expect(answers.get(name.key)).toMatchObject({ ok: true });
    expect((answers.get(atHeight.key) as { value: string }).value).toMatch(/^0x0{62}12$/);
    expect(answers.get(revert.key)).toMatchObject({ ok: false });
    expect(meta.cached).toBe(2);

    // With the node failing, cached answers still come; the rest is node trouble for the height to retry.
    chain.servers.setFaults({ errorRate: 1 });
    try {
      expect((await meta.answer([name, revert], 3, once)).size).toBe(2);
      await expect(meta.answer([atHeight], 3, once)).rejects.toBeInstanceOf(NodeUnavailableError);
    } finally {
      chain.servers.setFaults({ errorRate: 0 });
      await rest.endpoints.close();
    }
  });
});
