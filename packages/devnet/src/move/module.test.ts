import { sha3_256 } from '@noble/hashes/sha3.js';
import { describe, expect, it } from 'vitest';
import { toBech32 } from 'weft/chain/address.js';
import { createAuth } from '../state/auth.js';
import { createStateStore, type StateStore } from '../state/store.js';
import { runMsg, testTxContext } from '../test-support/move-test-context.js';
import { type AbciEvent, TxError } from '../types.js';
import { createMoveNftModule } from './module.js';
import { moveAddresses, moveMsgs } from './msgs.js';

const account = (fill: number) => new Uint8Array(20).fill(fill);
const CREATOR = account(0x11);
const ALICE = account(0x22);
const BOB = account(0x33);
const creator = toBech32('init', CREATOR);
const alice = toBech32('init', ALICE);
const bob = toBech32('init', BOB);
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** Independent of the code under test: sha3-256(32-byte source ‖ seed ‖ 0xFE), as `0x` short hex. */
function namedObject(source20: Uint8Array, seed: string): string {
  const source = new Uint8Array(32);
  source.set(source20, 12);
  const digest = sha3_256(new Uint8Array([...source, ...new TextEncoder().encode(seed), 0xfe]));
  return `0x${hex(digest).replace(/^0+/, '')}`;
}

const COLLECTION = namedObject(CREATOR, 'Cats');
const NFT_1 = namedObject(CREATOR, 'Cats::1');

const pairs = (e: AbciEvent) => e.attributes.map((a) => [a.key, a.value]);
const move = (typeTag: string, data: string, scalars: [string, string][]) => ({
  type: 'move',
  pairs: [['type_tag', typeTag], ['data', data], ...scalars, ['msg_index', '0']],
});
const shape = (events: AbciEvent[]) => events.map((e) => ({ type: e.type, pairs: pairs(e) }));
const executeEvent = (sender: Uint8Array, fn: string, moduleName = 'initia_nft') => ({
  type: 'execute',
  pairs: [
    ['sender', `0x${hex(sender)}`],
    ['module_addr', '0x1'],
    ['module_name', moduleName],
    ['function_name', fn],
    ['msg_index', '0'],
  ],
});

function setup() {
  const store = createStateStore();
  const moveNft = createMoveNftModule({ prefix: 'init', store });
  let height = 0;
  /** Runs the msg as the only tx of a new block. */
  const block = async (msg: { typeUrl: string; value: Uint8Array }) => {
    height += 1;
    const ctx = testTxContext(store, { vm: 'move' }, { height });
    try {
      await runMsg(moveNft.module, ctx, msg);
    } finally {
      store.commitBlock(height);
    }
    return ctx.events;
  };
  return { store, moveNft, block };
}

function snapshot(store: StateStore): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const group of ['move/object', 'move/collection', 'move/nft', 'move/tombstone']) {
    for (const key of store.group(group)) out[key] = store.get(key);
  }
  return out;
}

const CATS = { name: 'Cats', description: 'meow', uri: 'ipfs://cats', royalty: '0.05', mutableNftUri: true };
const createCats = () => moveMsgs.createCollection(creator, CATS);

describe('Move NFT module', () => {
  it('derives object addresses as create_named_object does', () => {
    expect(moveAddresses.collection(creator, 'Cats')).toBe(COLLECTION);
    expect(moveAddresses.nft(creator, 'Cats', '1')).toBe(NFT_1);
  });

  it('emits the stdlib events through create, mint, transfer, set_uri and burn', async () => {
    const { block, moveNft } = setup();
    const c = `0x${hex(CREATOR)}`;
    const a = `0x${hex(ALICE)}`;
    const b = `0x${hex(BOB)}`;

    expect(shape(await block(createCats()))).toEqual([
      executeEvent(CREATOR, 'create_collection'),
      move('0x1::object::CreateEvent', `{"object":"${COLLECTION}","owner":"${c}","version":"1"}`, [
        ['object', COLLECTION],
        ['owner', c],
        ['version', '1'],
      ]),
      move(
        '0x1::collection::CreateEvent',
        `{"collection":"${COLLECTION}","creator":"${c}","name":"Cats","description":"meow","uri":"ipfs://cats",` +
          `"royalty":{"royalty":"0.05","payee_address":"${c}"},"supply":{"current_supply":"0","total_minted":"0"}}`,
        [
          ['collection', COLLECTION],
          ['creator', c],
          ['description', 'meow'],
          ['name', 'Cats'],
          ['uri', 'ipfs://cats'],
        ],
      ),
      move(
        '0x1::collection::CreateCollectionEvent',
        `{"collection":"${COLLECTION}","creator":"${c}","name":"Cats"}`,
        [
          ['collection', COLLECTION],
          ['creator', c],
          ['name', 'Cats'],
        ],
      ),
    ]);

    const minted = await block(
      moveMsgs.mint(creator, { collection: 'Cats', tokenId: '1', uri: 'ipfs://1', to: alice }),
    );
    expect(shape(minted)).toEqual([
      executeEvent(CREATOR, 'mint'),
      move('0x1::object::CreateEvent', `{"object":"${NFT_1}","owner":"${c}","version":"1"}`, [
        ['object', NFT_1],
        ['owner', c],
        ['version', '1'],
      ]),
      move('0x1::collection::MintEvent', `{"collection":"${COLLECTION}","token_id":"1","nft":"${NFT_1}"}`, [
        ['collection', COLLECTION],
        ['nft', NFT_1],
        ['token_id', '1'],
      ]),
      move(
        '0x1::nft::CreateEvent',
        `{"collection":"${COLLECTION}","token_id":"1","description":"","uri":"ipfs://1"}`,
        [
          ['collection', COLLECTION],
          ['description', ''],
          ['token_id', '1'],
          ['uri', 'ipfs://1'],
        ],
      ),
      move('0x1::object::TransferEvent', `{"object":"${NFT_1}","from":"${c}","to":"${a}"}`, [
        ['from', c],
        ['object', NFT_1],
        ['to', a],
      ]),
    ]);

    const transferred = await block(moveMsgs.transfer(alice, NFT_1, bob));
    expect(shape(transferred)).toEqual([
      executeEvent(ALICE, 'transfer_call', 'object'),
      move('0x1::object::TransferEvent', `{"object":"${NFT_1}","from":"${a}","to":"${b}"}`, [
        ['from', a],
        ['object', NFT_1],
        ['to', b],
      ]),
    ]);

    const mutated = await block(moveMsgs.setUri(creator, NFT_1, 'ipfs://1b'));
    expect(shape(mutated)[1]).toEqual(
      move(
        '0x1::nft::MutationEvent',
        `{"nft":"${NFT_1}","mutated_field_name":"uri","old_value":"ipfs://1","new_value":"ipfs://1b"}`,
        [
          ['mutated_field_name', 'uri'],
          ['new_value', 'ipfs://1b'],
          ['nft', NFT_1],
          ['old_value', 'ipfs://1'],
        ],
      ),
    );

    const burned = await block(moveMsgs.burn(bob, NFT_1));
    expect(shape(burned)).toEqual([
      executeEvent(BOB, 'burn'),
      move('0x1::object::DeleteEvent', `{"object":"${NFT_1}","owner":"${b}"}`, [
        ['object', NFT_1],
        ['owner', b],
      ]),
      move('0x1::collection::BurnEvent', `{"collection":"${COLLECTION}","token_id":"1","nft":"${NFT_1}"}`, [
        ['collection', COLLECTION],
        ['nft', NFT_1],
        ['token_id', '1'],
      ]),
    ]);

    // Heights: 1 create, 2 mint, 3 transfer, 4 set_uri, 5 burn.
    const nftAt = (h: number) => moveNft.node.resource(NFT_1, '0x1::nft::Nft', h);
    expect(nftAt(1)).toBeUndefined();
    expect(nftAt(2)).toEqual({
      address: NFT_1,
      struct_tag: '0x1::nft::Nft',
      move_resource: `{"type":"0x1::nft::Nft","data":{"collection":{"inner":"${COLLECTION}"},"description":"","token_id":"1","uri":"ipfs://1"}}`,
      raw_bytes: expect.any(String),
    });
    expect(JSON.parse(nftAt(4)!.move_resource).data.uri).toBe('ipfs://1b');
    expect(nftAt(5)).toBeUndefined();

    const ownerAt = (h: number) =>
      JSON.parse(moveNft.node.resource(NFT_1, '0x1::object::ObjectCore', h)!.move_resource);
    expect(ownerAt(2).data).toEqual({ allow_ungated_transfer: true, owner: a, version: '1' });
    expect(ownerAt(3).data.owner).toBe(b);

    const collection = moveNft.node.resource(COLLECTION, '0x1::collection::Collection', 2)!;
    const data = JSON.parse(collection.move_resource).data;
    expect(Object.keys(data)).toEqual(['creator', 'description', 'name', 'nfts', 'uri']);
    expect(data).toMatchObject({ creator: c, description: 'meow', name: 'Cats', uri: 'ipfs://cats' });
    expect(data.nfts.length).toBe('1');
    expect(
      JSON.parse(moveNft.node.resource(COLLECTION, '0x1::collection::Collection')!.move_resource).data.nfts
        .length,
    ).toBe('0');
  });

  it('registers the object accounts the VM creates, as the keeper does', async () => {
    const store = createStateStore();
    const auth = createAuth({ prefix: 'init', moduleAddress: () => new Uint8Array(20) });
    const moveNft = createMoveNftModule({ prefix: 'init', store, auth });
    const ctx = testTxContext(store, { vm: 'move' }, { height: 1 });
    await runMsg(moveNft.module, ctx, createCats());
    const collectionAccount = toBech32('init', Buffer.from(COLLECTION.slice(2).padStart(64, '0'), 'hex'));
    expect(auth.get(store, collectionAccount)).toMatchObject({ number: '0', sequence: '0' });
  });

  it('re-minting a burned token id bumps the object version past its tombstone', async () => {
    const { block } = setup();
    await block(createCats());
    await block(moveMsgs.mint(creator, { collection: 'Cats', tokenId: '1' }));
    await block(moveMsgs.burn(creator, NFT_1));
    const again = await block(moveMsgs.mint(creator, { collection: 'Cats', tokenId: '1' }));
    expect(again[1]!.attributes.find((x) => x.key === 'version')?.value).toBe('2');
  });

  it('encodes the raw bytes of a resource as BCS', async () => {
    const { block, moveNft } = setup();
    await block(createCats());
    await block(moveMsgs.mint(creator, { collection: 'Cats', tokenId: '1', uri: 'u' }));
    const raw = Buffer.from(moveNft.node.resource(NFT_1, '0x1::nft::Nft')!.raw_bytes, 'base64');
    // collection address, then description "", token id "1", uri "u" as ULEB128-prefixed strings.
    expect(hex(raw)).toBe(`${COLLECTION.slice(2).padStart(64, '0')}00013101${hex(Buffer.from('u'))}`);
  });

  it('runs MsgExecuteJSON with the same events as MsgExecute', async () => {
    const viaBcs = setup();
    const viaJson = setup();
    const calls = [
      (json: boolean) => moveMsgs.createCollection(creator, CATS, { json }),
      (json: boolean) => moveMsgs.mint(creator, { collection: 'Cats', tokenId: '7', to: alice }, { json }),
      (json: boolean) => moveMsgs.transfer(alice, moveAddresses.nft(creator, 'Cats', '7'), bob, { json }),
    ];
    for (const build of calls)
      expect(await viaJson.block(build(true))).toEqual(await viaBcs.block(build(false)));
  });

  describe('failures', () => {
    const aborted = (module: string, code: number) =>
      `VM aborted: location=0000000000000000000000000000000000000000000000000000000000000001::${module}, code=${code}`;

    async function expectAbort(
      store: StateStore,
      run: () => Promise<unknown>,
      message: string,
      codespace = 'undefined',
      code = 1,
    ) {
      const before = snapshot(store);
      const err = await run().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TxError);
      expect(err).toMatchObject({ codespace, code, message });
      expect(snapshot(store)).toEqual(before);
    }

    it('rejects a duplicate collection, a duplicate token id, and an unknown collection', async () => {
      const { block, store } = setup();
      await block(createCats());
      await block(moveMsgs.mint(creator, { collection: 'Cats', tokenId: '1' }));
      await expectAbort(store, () => block(createCats()), aborted('object', 0x80001));
      await expectAbort(
        store,
        () => block(moveMsgs.mint(creator, { collection: 'Cats', tokenId: '1' })),
        aborted('object', 0x80001),
      );
      await expectAbort(
        store,
        () => block(moveMsgs.mint(alice, { collection: 'Cats', tokenId: '2' })),
        aborted('object', 0x60002),
      );
    });

    it('rejects transfers and burns by someone who does not own the NFT', async () => {
      const { block, store } = setup();
      await block(createCats());
      await block(moveMsgs.mint(creator, { collection: 'Cats', tokenId: '1', to: alice }));
      await expectAbort(store, () => block(moveMsgs.transfer(bob, NFT_1, bob)), aborted('object', 0x50004));
      await expectAbort(store, () => block(moveMsgs.burn(bob, NFT_1)), aborted('initia_nft', 0x50005));
      await expectAbort(
        store,
        () => block(moveMsgs.setUri(alice, NFT_1, 'x')),
        aborted('initia_nft', 0x50003),
      );
      await expectAbort(
        store,
        () => block(moveMsgs.burn(bob, namedObject(CREATOR, 'Cats::404'))),
        aborted('object', 0x60002),
      );
    });

    it('rejects token ids with a colon and bad arguments before running', async () => {
      const { block, store } = setup();
      await block(createCats());
      await expectAbort(
        store,
        () => block(moveMsgs.mint(creator, { collection: 'Cats', tokenId: 'a:b' })),
        aborted('nft', 0x10009),
      );
      const msg = moveMsgs.createCollection(creator, { name: 'Dogs' }, { json: true });
      const { MsgExecuteJSON } = await import('@initia/initia.proto/initia/move/v1/tx.js');
      const decoded = MsgExecuteJSON.decode(msg.value);
      decoded.args = decoded.args.slice(1);
      const short = { typeUrl: msg.typeUrl, value: MsgExecuteJSON.encode(decoded).finish() };
      await expectAbort(
        store,
        () => block(short),
        'VM error: status NUMBER_OF_ARGUMENTS_MISMATCH of type Verification',
      );
    });
  });
});
