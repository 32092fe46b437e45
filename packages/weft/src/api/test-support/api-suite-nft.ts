import { expect, it } from 'vitest';
import type { SuiteReads } from './api-suite.js';

/** The API suite's NFT reads: collections, tokens by owner and collection, and burned tokens' history. */
export function describeNftReads(reads: SuiteReads): void {
  it('lists collections and finds them by address, name and holder', async () => {
    const { chain, client, walkAll, count, accountsOfChain } = reads;
    const collections = await walkAll(
      '/indexer/nft/v1/collections',
      {},
      {},
      'collections',
      (c) => c.object_addr,
    );
    expect(collections.length).toBeGreaterThan(0);
    expect(String(collections.length)).toBe(await count('SELECT count(*) AS n FROM nft_collection'));
    for (const collection of collections) {
      const one = await client.get('/indexer/nft/v1/collections/{collection_addr}', {
        collection_addr: collection.object_addr,
      });
      expect(one.body.collection).toEqual(collection);
      expect(collection.collection.nfts.length).toBe(
        Number(
          await count(
            "SELECT count(*) AS n FROM nft n JOIN nft_collection c ON c.id = n.collection_id WHERE c.addr = decode($1, 'hex')",
            [collection.object_addr.slice(2)],
          ),
        ),
      );
      const name = collection.collection.name as string;
      const part = name.slice(Math.floor(name.length / 3), Math.floor(name.length / 3) + 4);
      const found = await walkAll(
        '/indexer/nft/v1/collections/by_name/{name}',
        { name: part.toUpperCase() },
        {},
        'collections',
        (c) => c.object_addr,
      );
      expect(found.map((c) => c.object_addr)).toContain(collection.object_addr);
    }
    await client.get(
      '/indexer/nft/v1/collections/{collection_addr}',
      { collection_addr: `0x${'ee'.repeat(20)}` },
      {},
      404,
    );
    for (const account of accountsOfChain()) {
      const held = await walkAll(
        '/indexer/nft/v1/collections/by_account/{account}',
        { account },
        {},
        'collections',
        (c) => c.object_addr,
      );
      const owned = await count(
        `SELECT count(DISTINCT n.collection_id) AS n FROM nft n JOIN account a ON a.id = n.owner_id WHERE a.address = $1`,
        [Buffer.from(chain.accounts.find((a) => a.address === account)!.hexAddress.slice(2), 'hex')],
      );
      expect(String(held.length)).toBe(owned);
    }
  });

  it('lists NFTs by owner and by collection in both orders, with filters', async () => {
    const { client, walkAll, accountsOfChain } = reads;
    const collections = (
      await client.walk('/indexer/nft/v1/collections', {}, { 'pagination.limit': 1000 }, 'collections')
    ).items;
    let owners = 0;
    for (const collection of collections) {
      const { object_addr: addr } = collection;
      const byToken = await walkAll(
        '/indexer/nft/v1/tokens/by_collection/{collection_addr}',
        { collection_addr: addr },
        {},
        'tokens',
        (t) => t.nft.token_id,
      );
      expect(byToken.length).toBe(collection.collection.nfts.length);
      const tokenIds = byToken.map((t) => t.nft.token_id);
      expect(tokenIds).toEqual([...tokenIds].sort((x, y) => (x < y ? 1 : x > y ? -1 : 0)));
      const byHeight = await walkAll(
        '/indexer/nft/v1/tokens/by_collection/{collection_addr}',
        { collection_addr: addr },
        { order_by: 'HEIGHT' },
        'tokens',
        (t) => t.nft.token_id,
      );
      const heights = byHeight.map((t) => t.height);
      expect(heights).toEqual([...heights].sort((x, y) => y - x));
      expect(new Set(byHeight.map((t) => t.nft.token_id))).toEqual(new Set(tokenIds));
      for (const token of byToken.slice(0, 3)) {
        const one = await client.get(
          '/indexer/nft/v1/tokens/by_collection/{collection_addr}',
          { collection_addr: addr },
          { token_id: token.nft.token_id },
        );
        expect(one.body.tokens).toEqual([token]);
        expect(one.body.pagination.total).toBe('1');
        const history = await walkAll(
          '/indexer/nft/v1/txs/{collection_addr}/{token_id}',
          { collection_addr: addr, token_id: token.nft.token_id },
          {},
          'txs',
          (t) => t.txhash,
        );
        expect(history.length).toBeGreaterThan(0);
        const owner = await client.get(
          '/indexer/nft/v1/tokens/by_account/{account}',
          { account: token.owner },
          { collection_addr: addr, token_id: token.nft.token_id },
        );
        expect(owner.body.tokens).toEqual([token]);
      }
    }
    for (const account of accountsOfChain()) {
      const tokens = await walkAll(
        '/indexer/nft/v1/tokens/by_account/{account}',
        { account },
        {},
        'tokens',
        (t) => `${t.collection_addr}/${t.nft.token_id}`,
      );
      await walkAll(
        '/indexer/nft/v1/tokens/by_account/{account}',
        { account },
        { order_by: 'height' },
        'tokens',
        (t) => `${t.collection_addr}/${t.nft.token_id}`,
      );
      expect(tokens.every((t) => t.owner === account)).toBe(true);
      owners += tokens.length > 0 ? 1 : 0;
      for (const collection of new Set(tokens.map((t) => t.collection_addr))) {
        const mine = await walkAll(
          '/indexer/nft/v1/tokens/by_account/{account}',
          { account },
          { collection_addr: collection },
          'tokens',
          (t) => t.nft.token_id,
        );
        expect(mine.length).toBe(tokens.filter((t) => t.collection_addr === collection).length);
      }
    }
    expect(owners).toBeGreaterThan(0);
  });

  it('keeps the tx history of burned NFTs', async () => {
    const { db, client, walkAll } = reads;
    const burned = await db.query<{ addr: Buffer; token_id: string; txs: string }>(
      `SELECT c.addr, k.token_id, k.txs FROM nft_token k JOIN nft_collection c ON c.id = k.collection_id
       WHERE NOT EXISTS (SELECT 1 FROM nft n WHERE n.id = k.id) ORDER BY k.id`,
    );
    expect(burned.length).toBeGreaterThan(0);
    for (const token of burned) {
      const params = { collection_addr: `0x${token.addr.toString('hex')}`, token_id: token.token_id };
      const history = await walkAll(
        '/indexer/nft/v1/txs/{collection_addr}/{token_id}',
        params,
        {},
        'txs',
        (t) => t.txhash,
      );
      expect(String(history.length)).toBe(token.txs);
      expect(history.length).toBeGreaterThan(0);
      const live = await client.get(
        '/indexer/nft/v1/tokens/by_collection/{collection_addr}',
        { collection_addr: params.collection_addr },
        { token_id: token.token_id },
      );
      expect(live.body.tokens).toEqual([]);
    }
  });
}
