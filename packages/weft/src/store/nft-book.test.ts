import { describe, expect, it } from 'vitest';
import { checkCounters } from './counter-check.js';
import type { Db } from './db.js';
import { digest } from './digest.js';
import type { IndexedBlock, NftChange } from './records.js';
import { testBackends, useTestDb } from './test-support/backends.js';
import { address, makeBlock } from './test-support/chain.js';
import { createBlockWriter } from './writer.js';

const backends = await testBackends();

const alice = address(1);
const bob = address(2);
const carol = address(3);
const moveCollection = address(500, 32);
const evmCollection = address(600);
const object1 = address(701, 32);
const object2 = address(702, 32);
const key = (collection: Uint8Array, tokenId: string) => ({ collection, tokenId });

async function write(db: Db, blocks: IndexedBlock[], vm: 'move' | 'evm' = 'move') {
  await createBlockWriter(db, { chainId: `mini${vm}-1`, vm, bech32Prefix: 'init' }).writeBlocks(blocks);
  expect(await checkCounters(db)).toEqual([]);
}

const nfts = (db: Db) =>
  db.query<{ token_id: string; owner: Buffer; uri: string; height: string; object_addr: Buffer | null }>(
    `SELECT n.token_id, a.address AS owner, n.uri, n.height, n.object_addr FROM nft n JOIN account a ON a.id = n.owner_id
     ORDER BY n.token_id`,
  );

const stats = async (db: Db, who: Uint8Array) =>
  (
    await db.query<{ nfts: string; collections: string }>(
      `SELECT s.nfts, s.collections FROM account_stat s JOIN account a ON a.id = s.account_id WHERE a.address = $1`,
      [who],
    )
  ).map((r) => [Number(r.nfts), Number(r.collections)])[0];

const history = async (db: Db, tokenId: string) =>
  (
    await db.query<{ height: string }>(
      `SELECT t.height FROM tx_nft e JOIN nft_token k ON k.id = e.nft_token_id JOIN tx t ON t.sequence = e.sequence
       WHERE k.token_id = $1 ORDER BY e.sequence`,
      [tokenId],
    )
  ).map((r) => Number(r.height));

/** A Move collection's life: NFTs named by object address after their mint, as the Move modules do. */
function moveLife(): IndexedBlock[] {
  const tx = (signer: Uint8Array) => ({ txs: [{ signer }] });
  const changes: NftChange[][] = [
    [
      {
        kind: 'collection',
        collection: moveCollection,
        name: 'My NFT: Genesis!',
        creator: alice,
        txIndex: 0,
      },
      {
        kind: 'mint',
        nft: key(moveCollection, '1'),
        objectAddr: object1,
        owner: alice,
        uri: 'ipfs://1',
        txIndex: 0,
      },
      {
        kind: 'mint',
        nft: key(moveCollection, '2'),
        objectAddr: object2,
        owner: alice,
        uri: 'ipfs://2',
        txIndex: 0,
      },
    ],
    [{ kind: 'transfer', nft: key(moveCollection, '1'), to: bob, txIndex: 0 }],
    [{ kind: 'uri', nft: key(moveCollection, '1'), uri: 'ipfs://1b', txIndex: 0 }],
    [{ kind: 'burn', nft: key(moveCollection, '2'), txIndex: 0 }],
    [{ kind: 'transfer', nft: key(moveCollection, '1'), to: carol, txIndex: null }],
  ];
  return changes.map((nftChanges, i) => makeBlock(i + 1, { ...tx(i === 0 ? alice : bob), nftChanges }));
}

describe.each(backends)('NFT bookkeeping on %s', (backend) => {
  const testDb = useTestDb(backend);

  it('follows mints, transfers, URI changes and burns with owners, holdings and counts', async () => {
    const db = await testDb.fresh();
    const blocks = moveLife();
    await write(db, blocks.slice(0, 1));
    expect(await stats(db, alice)).toEqual([2, 1]);
    await write(db, blocks.slice(1, 3));
    expect(
      (await nfts(db)).map((n) => [
        n.token_id,
        Buffer.from(n.owner).equals(Buffer.from(bob)),
        n.uri,
        Number(n.height),
      ]),
    ).toEqual([
      ['1', true, 'ipfs://1b', 3],
      ['2', false, 'ipfs://2', 1],
    ]);
    expect(await stats(db, alice)).toEqual([1, 1]);
    expect(await stats(db, bob)).toEqual([1, 1]);
    await write(db, blocks.slice(3));
    expect((await nfts(db)).map((n) => n.token_id)).toEqual(['1']);
    expect(await stats(db, alice)).toEqual([0, 0]);
    expect(await stats(db, bob)).toEqual([0, 0]);
    expect(await stats(db, carol)).toEqual([1, 1]);
    const [collection] = await db.query<{
      nft_count: string;
      name_key: string;
      creator: Buffer;
      height: string;
    }>(
      `SELECT c.nft_count, c.name_key, a.address AS creator, c.height FROM nft_collection c JOIN account a ON a.id = c.creator_id`,
    );
    expect(collection).toEqual({
      nft_count: '1',
      name_key: 'mynftgenesis',
      creator: Buffer.from(alice),
      height: '1',
    });
  });

  it('keeps the tx history of a burned token', async () => {
    const db = await testDb.fresh();
    await write(db, moveLife());
    expect(await history(db, '2')).toEqual([1, 4]);
    expect(await history(db, '1')).toEqual([1, 2, 3]);
    const [token] = await db.query<{ txs: string; object_addr: Buffer }>(
      `SELECT txs, object_addr FROM nft_token WHERE token_id = '2'`,
    );
    expect(token).toEqual({ txs: '2', object_addr: Buffer.from(object2) });
  });

  it('finds Move NFTs by object address when a change names only the object', async () => {
    const db = await testDb.fresh();
    await write(db, moveLife().slice(0, 1));
    const byObject = {
      kind: 'transfer',
      nft: key(address(0, 32), ''),
      objectAddr: object1,
      to: carol,
      txIndex: 0,
    } as NftChange;
    const unknownObject = {
      kind: 'burn',
      nft: key(address(0, 32), ''),
      objectAddr: address(799, 32),
      txIndex: 0,
    } as NftChange;
    await write(db, [makeBlock(2, { txs: [{ signer: alice }], nftChanges: [byObject, unknownObject] })]);
    expect(
      (await nfts(db)).map((n) => [n.token_id, Buffer.from(n.owner).equals(Buffer.from(carol))]),
    ).toEqual([
      ['1', true],
      ['2', false],
    ]);
  });

  it('dates an EVM collection and names its creator from the first tx that touched its address', async () => {
    const db = await testDb.fresh();
    const deploy = makeBlock(1, { txs: [{ signer: bob, accounts: [evmCollection] }] });
    const mint = makeBlock(2, {
      txs: [{ signer: alice, accounts: [evmCollection] }],
      nftChanges: [
        { kind: 'collection', collection: evmCollection, name: 'Punks', txIndex: 0 },
        { kind: 'mint', nft: key(evmCollection, '7'), owner: alice, uri: '', txIndex: 0 },
        // Never touched by a tx: block-level mint into an unknown contract.
        { kind: 'mint', nft: key(address(601), '1'), owner: carol, uri: '', txIndex: null },
      ],
    });
    await write(db, [deploy], 'evm');
    await write(db, [mint], 'evm');
    const rows = await db.query<{ name: string; creator: Buffer | null; height: string; timestamp: string }>(
      `SELECT c.name, a.address AS creator, c.height, c.timestamp FROM nft_collection c
       LEFT JOIN account a ON a.id = c.creator_id ORDER BY c.id`,
    );
    expect(rows).toEqual([
      {
        name: 'Punks',
        creator: Buffer.from(bob),
        height: '1',
        timestamp: expect.stringMatching(/^2025-08-06T08:00:01\./),
      },
      { name: '', creator: null, height: '2', timestamp: expect.stringMatching(/^2025-08-06T08:00:02\./) },
    ]);
    // The holding carries the collection's (derived) height for by-holder ordering.
    expect(await db.query('SELECT collection_height FROM nft_holding ORDER BY collection_id')).toEqual([
      { collection_height: '1' },
      { collection_height: '2' },
    ]);
  });

  it('sets origin names on collections named like the ICS-721 class, in block order', async () => {
    const db = await testDb.fresh();
    const blocks = [
      makeBlock(1, {
        txs: [{ signer: alice }],
        nftChanges: [
          { kind: 'collection', collection: moveCollection, name: 'ibc/ABC', creator: alice, txIndex: 0 },
        ],
        nftOrigins: [
          { className: 'ibc/ABC', originName: 'Crypto Kitties' },
          { className: 'ibc/DEF', originName: 'Too early' },
        ],
      }),
      makeBlock(2, {
        txs: [{ signer: alice }],
        nftChanges: [
          { kind: 'collection', collection: evmCollection, name: 'ibc/DEF', creator: alice, txIndex: 0 },
        ],
      }),
    ];
    await write(db, blocks);
    expect(await db.query('SELECT name, origin_name, origin_key FROM nft_collection ORDER BY id')).toEqual([
      { name: 'ibc/ABC', origin_name: 'Crypto Kitties', origin_key: 'cryptokitties' },
      { name: 'ibc/DEF', origin_name: '', origin_key: '' },
    ]);
  });

  it('lets a transfer bring a token minted before the first indexed height into existence', async () => {
    const db = await testDb.fresh();
    await write(db, moveLife().slice(0, 1));
    await write(db, [
      makeBlock(2, {
        txs: [{ signer: bob }],
        nftChanges: [{ kind: 'transfer', nft: key(moveCollection, '99'), to: bob, txIndex: 0 }],
      }),
    ]);
    expect((await nfts(db)).map((n) => [n.token_id, n.uri])).toEqual([
      ['1', 'ipfs://1'],
      ['2', 'ipfs://2'],
      ['99', ''],
    ]);
  });

  it('drops NUL characters, which PostgreSQL text cannot hold, consistently', async () => {
    const db = await testDb.fresh();
    await write(db, [
      makeBlock(1, {
        txs: [{ signer: alice }],
        nftChanges: [
          { kind: 'collection', collection: moveCollection, name: 'N\u0000UL', creator: alice, txIndex: 0 },
          { kind: 'mint', nft: key(moveCollection, 't\u00001'), owner: alice, uri: 'u\u0000', txIndex: 0 },
        ],
      }),
      makeBlock(2, {
        txs: [{ signer: alice }],
        nftChanges: [{ kind: 'transfer', nft: key(moveCollection, 't\u00001'), to: bob, txIndex: 0 }],
      }),
    ]);
    expect(
      (await nfts(db)).map((n) => [n.token_id, n.uri, Buffer.from(n.owner).equals(Buffer.from(bob))]),
    ).toEqual([['t1', 'u', true]]);
    expect(await db.query('SELECT name FROM nft_collection')).toEqual([{ name: 'NUL' }]);
  });

  it('ends in the same state however the changes are batched', async () => {
    const one = await testDb.fresh();
    const many = await testDb.fresh();
    await write(one, moveLife());
    for (const block of moveLife()) await write(many, [block]);
    expect(await digest(many)).toEqual(await digest(one));
  });
});
