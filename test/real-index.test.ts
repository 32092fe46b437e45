import { describe, expect, it } from 'vitest';
import type { ApiClient } from 'weft/api/test-support/api-client.js';
import { testBackends, useTestDb } from 'weft/store/test-support/backends.js';
import type { CorpusTx } from './real-support/corpus.js';
import type { DerivedRecording } from './real-support/derive.js';
import { evmLogs } from './real-support/evm-receipts.js';
import { deriveCorpus, hashOf, useIndexedReplays } from './real-support/indexed-corpus.js';
import { type RollyticsTx, rollyticsTxRules } from './real-support/rollytics-rules.js';

// Every real tx of the corpus (test/fixtures/real), indexed through `weft replay` by the real indexer on
// each store, and read back through the API: as recorded, under exactly the accounts rollytics lists it
// under (test/real-support/rollytics-rules.ts reads initia-labs/rollytics' indexer/collector/tx/address.go),
// found by the msg types rollytics stores, and with nothing the decoders dropped.

const { recordings, txsOf } = await deriveCorpus();
const rulesOf = (tx: CorpusTx): RollyticsTx =>
  rollyticsTxRules(tx.response as never, { prefix: 'init', vm: tx.vm });

/** Every page of a listing; the tx hashes it holds. */
async function hashesOf(api: ApiClient, template: string, params: Record<string, string>, query = {}) {
  const { items } = await api.walk(template, params, { ...query, 'pagination.limit': 100 }, 'txs');
  return new Set(items.map((tx: { txhash: string }) => tx.txhash));
}

/**
 * The tx_response as rollytics serves it (indexer/collector/tx/collect.go): the tx without its Any
 * `@type`, and the block results' events as CometBFT's JSON writes them, whose `omitempty` tags leave out
 * an attribute's `index: false` and empty `value` that the REST gateway's answer spells out.
 */
function expectedTx(tx: CorpusTx) {
  const { '@type': _, ...rest } = tx.response.tx;
  const events = tx.response.events.map((event) => ({
    ...event,
    attributes: event.attributes.map(({ key, value, index }) => ({
      key,
      ...(value ? { value } : {}),
      ...(index ? { index } : {}),
    })),
  }));
  // `logs` are sdk.ParseABCILogs(raw_log): [] for the empty raw_log of Cosmos SDK 0.50 (the `logs` four
  // fixtures carry beside an empty raw_log come from elsewhere; see test/fixtures/real/README.md).
  let logs: unknown[] = [];
  try {
    logs = JSON.parse(tx.response.raw_log) as unknown[];
  } catch {}
  return { ...tx.response, tx: rest, events, logs: Array.isArray(logs) ? logs : [] };
}

describe.each(await testBackends())('real txs through weft replay (%s)', (backend) => {
  const indexed = useIndexedReplays(useTestDb(backend), recordings);

  describe.each(recordings.map((r): [string, DerivedRecording] => [r.chainId, r]))('%s', (chainId) => {
    const txs = txsOf(chainId);
    const api = () => indexed.get(chainId)!.api;

    it('serves each tx by hash as the node recorded it', async () => {
      for (const tx of txs.filter((t) => !t.source.synthetic)) {
        const { body } = await api().get('/indexer/tx/v1/txs/{tx_hash}', { tx_hash: tx.response.txhash });
        expect(body.tx, tx.response.txhash).toEqual(expectedTx(tx));
      }
    });

    it("lists each tx under exactly the accounts rollytics' rules give, and flags its signer", async () => {
      const rules = new Map(txs.map((tx) => [hashOf(tx), rulesOf(tx)]));
      const accounts = new Set([...rules.values()].flatMap((r) => r.accounts));
      for (const account of accounts) {
        const touching = [...rules].filter(([, r]) => r.accounts.includes(account)).map(([hash]) => hash);
        const signed = [...rules].filter(([, r]) => r.signer === account).map(([hash]) => hash);
        const template = '/indexer/tx/v1/txs/by_account/{account}';
        expect(await hashesOf(api(), template, { account }), account).toEqual(new Set(touching));
        expect(await hashesOf(api(), template, { account }, { is_signer: true }), account).toEqual(
          new Set(signed),
        );
      }
    });

    it('finds each tx by every msg type rollytics stores for it, and not by the msgs nested in authz', async () => {
      const rules = txs.map((tx) => ({ hash: hashOf(tx), ...rulesOf(tx) }));
      const types = new Set(rules.flatMap((r) => [...r.msgTypes, ...r.nestedOnlyMsgTypes]));
      for (const type of types) {
        const carrying = rules.filter((r) => r.msgTypes.includes(type)).map((r) => r.hash);
        expect(await hashesOf(api(), '/indexer/tx/v1/txs', {}, { msgs: type }), type).toEqual(
          new Set(carrying),
        );
      }
    });

    it('drops no event of a real tx', () => {
      expect(Object.fromEntries(indexed.get(chainId)!.drops)).toEqual({});
    });
  });

  describe.each(recordings.filter((r) => r.manifest.vm_type === 'evm').map((r) => [r.chainId]))(
    '%s: EVM',
    (chainId) => {
      it('serves a receipt per tx whose logs are the evm events the tx carries', async () => {
        const api = indexed.get(chainId)!.api;
        for (const tx of txsOf(chainId)) {
          const logs = evmLogs(tx.response);
          const { body } = await api.get('/indexer/tx/v1/evm-txs/by_height/{height}', {
            height: tx.response.height,
          });
          const receipt = body.txs.find((r: { logs: unknown[] | null }) =>
            (r.logs ?? []).some((l: any) => l.transactionHash && logs.length > 0),
          );
          if (logs.length === 0) continue;
          expect(receipt, tx.response.txhash).toBeDefined();
          expect(
            receipt.logs.map((l: any) => ({ address: l.address, topics: l.topics, data: l.data })),
            tx.response.txhash,
          ).toEqual(logs.map((l) => ({ address: l.address, topics: l.topics, data: l.data })));
        }
      });
    },
  );
});
