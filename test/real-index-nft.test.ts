import { describe, expect, it } from 'vitest';
import type { ApiClient } from 'weft/api/test-support/api-client.js';
import { erc20TransferDeltas } from 'weft/indexer/decode/index.js';
import { readHeight } from 'weft/record/format.js';
import { testBackends, useTestDb } from 'weft/store/test-support/backends.js';
import type { CorpusTx } from './real-support/corpus.js';
import { deriveCorpus, hashOf, useIndexedReplays } from './real-support/indexed-corpus.js';
import { bech32Of, erc20Deltas, evmTransfers, type NftFact, nftFacts } from './real-support/nft-facts.js';
import { rollyticsTxRules } from './real-support/rollytics-rules.js';

// The NFTs of the real corpus (test/fixtures/real) as the indexer keeps them after `weft replay`, against
// what the txs' own events say (test/real-support/nft-facts.ts), and the rich list's ERC20 deltas of the
// EVM rollups' txs against their Transfer logs.
//
// NFT metadata look-ups (Move `0x1::nft::Nft` / `0x1::collection::Collection` resources, cw721
// `contract_info`, ERC721 `name()` / `tokenURI`) are not in the corpus: replay answers them with an error,
// which the indexer takes as the node's refusal. What it keeps then:
// - a collection whose creation the corpus holds (Move `CreateCollectionEvent`: name and creator in the
//   event) and the tokens minted into it, the token id from `MintEvent` and the uri empty (the `Nft`
//   resource is the only place it is);
// - nothing of a collection created before the corpus (Move: its creator, the minted NFT's first owner,
//   and which token a transferred object is, all need a resource) nor of any cw721 or ERC721 collection
//   (a collection's name only comes from `contract_info` / `name()`, and weft skips the collection's
//   events in a block whose name query failed). A token whose collection the store does not know is
//   not kept either: its mint, transfers and burns are dropped.
// rollytics (initia-labs/rollytics@3a2b99d, indexer/collector/*-nft) fails the block instead on each of those
// refused look-ups: move-nft/prepare.go returns the `Nft` resource query's error, move-nft/util.go
// `getCollectionCreatorId` errors on a collection it has no row of, wasm-nft/prepare.go and
// evm-nft/prepare.go return every error but cw721's "unknown variant" and an EVM revert. On a transfer
// whose mint it never saw, rollytics' move-nft/collect.go updates `nft` rows `WHERE addr = object`
// (nothing) and its burn deletes nothing; wasm-nft and evm-nft/collect.go upsert an `nft` row with no
// collection row, which its API cannot serve (api/handler/nft/cache.go `getCollectionByAddr` answers
// "record not found", a 500, for every token listing holding it). weft keeps no such token; that is the
// difference, and the right side of it: a token is served with its collection's name.

const { corpus, recordings, txsOf } = await deriveCorpus();

interface ExpectedCollection {
  addr: string;
  name: string;
  creator: string;
  originName: string;
  height: number;
  timestamp: string;
}

interface ExpectedToken {
  collection: string;
  tokenId: string;
  object: string;
  owner: string;
  height: number;
  timestamp: string;
  txs: Set<string>;
}

const byHeight = (a: CorpusTx, b: CorpusTx) =>
  Number(a.response.height) - Number(b.response.height) || (a.response.txhash < b.response.txhash ? -1 : 1);

/**
 * The ICS-721 origin name of a class a tx receives: the `name` in its `recv_packet`'s base64 JSON
 * `classData`, for the local class the chain's own `class_trace` event names. Whatever the sending port:
 * interwoven-1 718AFCF8 comes from a cw-ics721 contract (`wasm.…`), whose classData is the cw721
 * contract info with its `name`; weft reads it (packages/weft/src/indexer/decode/nft-origins.ts), rollytics'
 * nft-pair/collect.go takes only `packet_src_port == "nft-transfer"` and leaves that origin name empty.
 */
function originNames(tx: CorpusTx): Map<string, string> {
  const attrs = (type: string) =>
    tx.response.events
      .filter((e) => e.type === type)
      .map((e) => new Map(e.attributes.map((a) => [a.key, a.value])));
  const classes = attrs('class_trace').map((a) => a.get('class_id')!);
  const names = attrs('recv_packet').flatMap((a) => {
    const classData = JSON.parse(a.get('packet_data') ?? '{}').classData;
    return classData ? [JSON.parse(Buffer.from(classData, 'base64').toString()).name as string] : [];
  });
  return new Map(classes.length === 1 && names.length === 1 ? [[classes[0]!, names[0]!]] : []);
}

/**
 * What the corpus alone proves about a chain's NFTs: the collections it creates, the tokens minted into them
 * and where they went; every other NFT fact is `unproven` (its collection is not created in the corpus).
 */
function nftLedger(txs: CorpusTx[]) {
  const collections = new Map<string, ExpectedCollection>();
  const tokens = new Map<string, ExpectedToken>();
  const unproven: Array<{ tx: CorpusTx; fact: NftFact }> = [];
  const byObject = (object: string) => [...tokens.values()].find((t) => t.object === object);
  for (const tx of [...txs].sort(byHeight)) {
    const stamp = { height: Number(tx.response.height), timestamp: tx.response.timestamp };
    for (const fact of nftFacts(tx)) {
      const key = 'tokenId' in fact ? `${fact.collection}/${fact.tokenId}` : '';
      const token = fact.kind === 'transfer' && fact.object ? byObject(fact.object) : tokens.get(key);
      if (fact.kind === 'create') {
        const originName = originNames(tx).get(fact.name) ?? '';
        const creation = {
          addr: fact.collection,
          name: fact.name,
          creator: bech32Of(fact.creator),
          originName,
        };
        collections.set(fact.collection, { ...creation, ...stamp });
      } else if (fact.kind === 'mint' && collections.has(fact.collection)) {
        const { collection, tokenId, object = '' } = fact;
        tokens.set(key, {
          collection,
          tokenId,
          object,
          owner: bech32Of(fact.owner),
          ...stamp,
          txs: new Set(),
        });
      } else if (!token) {
        unproven.push({ tx, fact });
        continue;
      } else if (fact.kind === 'transfer') Object.assign(token, { owner: bech32Of(fact.to), ...stamp });
      else if (fact.kind === 'burn') tokens.delete(key);
      (tokens.get(key) ?? token)?.txs.add(hashOf(tx));
    }
  }
  // rollytics' Move token history (api/handler/nft/tx.go) is every tx listed under the NFT object's account.
  for (const token of tokens.values()) {
    if (!token.object) continue;
    const object = bech32Of(token.object);
    token.txs = new Set(
      txs
        .filter((tx) =>
          rollyticsTxRules(tx.response as never, { prefix: 'init', vm: tx.vm }).accounts.includes(object),
        )
        .map(hashOf),
    );
  }
  return { collections, tokens: [...tokens.values()], unproven };
}

/** The block time as the API writes it: RFC 3339 UTC, whole seconds (the corpus' own precision). */
const rfc3339 = (time: string) => new Date(time).toISOString().replace('.000Z', 'Z');

const tokenView = (t: any) => ({
  collection: t.collection_addr,
  tokenId: t.nft.token_id,
  uri: t.nft.uri,
  object: t.object_addr,
  owner: t.owner,
  height: t.height,
  timestamp: t.timestamp,
});
const expectedTokenView = (t: ExpectedToken, collection: ExpectedCollection) => ({
  collection: t.collection,
  tokenId: t.tokenId,
  uri: '',
  object: t.object,
  owner: t.owner,
  height: t.height,
  timestamp: rfc3339(t.timestamp),
  names: [collection.name, collection.originName],
});

async function itemsOf(api: ApiClient, template: string, params: Record<string, string>, key: string) {
  return (await api.walk(template, params, { 'pagination.limit': 100 }, key)).items;
}

describe.each(await testBackends())('real NFTs through weft replay (%s)', (backend) => {
  const indexed = useIndexedReplays(useTestDb(backend), recordings);

  describe.each(recordings.map((r) => [r.chainId]))('%s', (chainId) => {
    const ledger = nftLedger(txsOf(chainId));
    const api = () => indexed.get(chainId)!.api;

    it('serves the collections the corpus creates and the tokens minted into them, with owners and txs', async () => {
      const collections = await itemsOf(api(), '/indexer/nft/v1/collections', {}, 'collections');
      expect(
        collections.map((c: any) => ({
          addr: c.object_addr,
          name: c.collection.name,
          creator: c.collection.creator,
          originName: c.collection.origin_name,
          nfts: c.collection.nfts.length,
          height: c.height,
          timestamp: c.timestamp,
        })),
      ).toEqual(
        [...ledger.collections.values()].map((c) => ({
          addr: c.addr,
          name: c.name,
          creator: c.creator,
          originName: c.originName,
          nfts: ledger.tokens.filter((t) => t.collection === c.addr).length,
          height: c.height,
          timestamp: rfc3339(c.timestamp),
        })),
      );
      for (const collection of ledger.collections.values()) {
        const tokens = await itemsOf(
          api(),
          '/indexer/nft/v1/tokens/by_collection/{collection_addr}',
          { collection_addr: collection.addr },
          'tokens',
        );
        const view = (t: any) => ({ ...tokenView(t), names: [t.collection_name, t.collection_origin_name] });
        expect(tokens.map(view)).toEqual(
          ledger.tokens
            .filter((t) => t.collection === collection.addr)
            .map((t) => expectedTokenView(t, collection)),
        );
      }
      const holders = new Set([
        ...ledger.tokens.map((t) => t.owner),
        ...[...ledger.collections.values()].map((c) => c.creator),
      ]);
      for (const account of holders) {
        const held = ledger.tokens.filter((t) => t.owner === account);
        const tokens = await itemsOf(
          api(),
          '/indexer/nft/v1/tokens/by_account/{account}',
          { account },
          'tokens',
        );
        expect(tokens.map(tokenView), account).toEqual(
          held.map((t) => {
            const { names: _, ...rest } = expectedTokenView(t, ledger.collections.get(t.collection)!);
            return rest;
          }),
        );
        const inCollections = await itemsOf(
          api(),
          '/indexer/nft/v1/collections/by_account/{account}',
          { account },
          'collections',
        );
        expect(
          inCollections.map((c: any) => c.object_addr),
          account,
        ).toEqual([...new Set(held.map((t) => t.collection))]);
      }
      for (const token of ledger.tokens) {
        const txs = await itemsOf(
          api(),
          '/indexer/nft/v1/txs/{collection_addr}/{token_id}',
          { collection_addr: token.collection, token_id: token.tokenId },
          'txs',
        );
        expect(new Set(txs.map((tx: any) => tx.txhash)), token.tokenId).toEqual(token.txs);
      }
    });

    it('keeps nothing of an NFT whose collection the corpus does not create, and indexes its tx', async () => {
      // The look-ups those NFTs needed were asked, refused, and the indexer went on.
      expect(indexed.get(chainId)!.unrecorded > 0).toBe(ledger.unproven.length > 0);
      for (const { tx, fact } of ledger.unproven) {
        const what = `${tx.response.txhash} ${fact.kind}`;
        await api().get('/indexer/tx/v1/txs/{tx_hash}', { tx_hash: hashOf(tx) });
        if (fact.kind !== 'create' && fact.collection !== undefined) {
          const collection_addr = fact.collection;
          await api().get('/indexer/nft/v1/collections/{collection_addr}', { collection_addr }, {}, 404);
          const tokens = '/indexer/nft/v1/tokens/by_collection/{collection_addr}';
          expect(await itemsOf(api(), tokens, { collection_addr }, 'tokens'), what).toEqual([]);
          const txs = '/indexer/nft/v1/txs/{collection_addr}/{token_id}';
          const params = { collection_addr, token_id: fact.tokenId! };
          expect(await itemsOf(api(), txs, params, 'txs'), what).toEqual([]);
        }
        const party = fact.kind === 'mint' ? fact.owner : fact.kind === 'transfer' ? fact.to : undefined;
        if (party === undefined) continue;
        const account = bech32Of(party);
        const tokens = await itemsOf(
          api(),
          '/indexer/nft/v1/tokens/by_account/{account}',
          { account },
          'tokens',
        );
        expect(tokens.map(tokenView), what).toEqual(
          ledger.tokens
            .filter((t) => t.owner === account)
            .map((t) => expect.objectContaining({ tokenId: t.tokenId })),
        );
      }
    });
  });
});

describe.each(recordings.filter((r) => r.manifest.vm_type === 'evm').map((r) => [r.chainId, r]))(
  '%s: rich list',
  (chainId, recording) => {
    it("moves balances as each height's txs' ERC20 Transfer logs say", () => {
      const txs = txsOf(chainId);
      for (const height of recording.manifest.heights) {
        const exchange = readHeight(recording.dir, height).exchanges.find(
          (e) => e.path === `/block_results?height=${height}`,
        )!;
        const blockResults = JSON.parse(exchange.response).result;
        const deltas = erc20TransferDeltas({ blockResults, height });
        const atHeight = txs.filter((tx) => Number(tx.response.height) === height);
        expect(
          new Map(deltas.map((d) => [`0x${Buffer.from(d.account).toString('hex')}/${d.denom}`, d.delta])),
          String(height),
        ).toEqual(erc20Deltas(atHeight));
      }
    });
  },
);

it('the corpus holds NFT events of each kind and ERC20 transfers on each EVM rollup', () => {
  const kinds = new Set(corpus.flatMap((tx) => nftFacts(tx).map((f) => `${tx.vm} ${f.kind}`)));
  expect([...kinds].sort()).toEqual([
    'evm burn',
    'evm mint',
    'move burn',
    'move create',
    'move mint',
    'move transfer',
    'wasm mint',
    'wasm transfer',
  ]);
  const evm = corpus.filter((tx) => tx.vm === 'evm');
  expect(
    new Set(evm.filter((tx) => evmTransfers(tx).some((t) => !t.erc721)).map((tx) => tx.chainId)),
  ).toEqual(new Set(['embrmainnet-1', 'yominet-1']));
});
