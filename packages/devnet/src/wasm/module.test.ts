import { describe, expect, it } from 'vitest';
import { toBech32 } from 'weft/chain/address.js';
import { createStateStore, type StateStore } from '../state/store.js';
import { runMsg, testTxContext } from '../test-support/move-test-context.js';
import { type AbciEvent, type AnyMsg, TxError } from '../types.js';
import { contractAddress } from './address.js';
import { createCw721Module } from './module.js';
import { cw721Msgs } from './msgs.js';
import { RECEIVER_FAIL } from './receiver.js';

const minter = toBech32('init', new Uint8Array(20).fill(0x11));
const alice = toBech32('init', new Uint8Array(20).fill(0x22));
const bob = toBech32('init', new Uint8Array(20).fill(0x33));
const COLLECTION = contractAddress('init', 1n, 1n);
const RECEIVER = contractAddress('init', 2n, 2n);

const shape = (events: AbciEvent[]) =>
  events.map((e) => [e.type, ...e.attributes.map((a) => `${a.key}=${a.value}`)]);

function setup() {
  const store = createStateStore();
  const cw721 = createCw721Module({ prefix: 'init', store });
  let height = 0;
  const block = async (msg: AnyMsg) => {
    height += 1;
    const ctx = testTxContext(store, { vm: 'wasm' }, { height });
    try {
      await runMsg(cw721.module, ctx, msg);
    } finally {
      store.commitBlock(height);
    }
    return ctx.events;
  };
  return { store, cw721, block };
}

/** Every wasm key: contract infos, the instance sequence, and each contract's storage and tokens. */
function snapshot(store: StateStore) {
  const groups = ['wasm/contract', 'wasm/seq'];
  for (const key of store.group('wasm/contract')) {
    const hex = key.slice('wasm/contract/'.length);
    groups.push(`wasm/s/${hex}`, `wasm/s/${hex}/token`);
  }
  const all: Record<string, string | undefined> = {};
  for (const group of groups) for (const k of store.group(group)) all[k] = store.get(k);
  return all;
}

describe('cw721 module', () => {
  it('derives classic contract addresses as wasmd does', () => {
    // The well-known first contract of a wasmd chain (code 1, instance 1).
    expect(contractAddress('wasm', 1n, 1n)).toBe(
      'wasm14hj2tavq8fpesdwxxcu44rty3hh90vhujrvcmstl4zr3txmfvw9s0phg4d',
    );
  });

  it('emits wasmd and cw721-base events through instantiate, mint, transfer, send and burn', async () => {
    const { block, cw721 } = setup();
    expect(shape(await block(cw721Msgs.instantiate(minter, { name: 'Cats', symbol: 'CAT' })))).toEqual([
      ['instantiate', `_contract_address=${COLLECTION}`, 'code_id=1', 'msg_index=0'],
    ]);
    expect(shape(await block(cw721Msgs.instantiateReceiver(minter)))).toEqual([
      ['instantiate', `_contract_address=${RECEIVER}`, 'code_id=2', 'msg_index=0'],
    ]);

    expect(
      shape(
        await block(cw721Msgs.mint(minter, COLLECTION, { tokenId: '1', owner: alice, tokenUri: 'ipfs://1' })),
      ),
    ).toEqual([
      ['execute', `_contract_address=${COLLECTION}`, 'msg_index=0'],
      [
        'wasm',
        `_contract_address=${COLLECTION}`,
        'action=mint',
        `minter=${minter}`,
        `owner=${alice}`,
        'token_id=1',
        'token_uri=ipfs://1',
        'msg_index=0',
      ],
    ]);
    await block(cw721Msgs.mint(minter, COLLECTION, { tokenId: '2', owner: alice }));

    expect(
      shape(await block(cw721Msgs.transfer(alice, COLLECTION, { recipient: bob, tokenId: '1' }))),
    ).toEqual([
      ['execute', `_contract_address=${COLLECTION}`, 'msg_index=0'],
      [
        'wasm',
        `_contract_address=${COLLECTION}`,
        'action=transfer_nft',
        `sender=${alice}`,
        `recipient=${bob}`,
        'token_id=1',
        'msg_index=0',
      ],
    ]);

    const sent = await block(cw721Msgs.send(alice, COLLECTION, { to: RECEIVER, tokenId: '2' }));
    expect(shape(sent)).toEqual([
      ['execute', `_contract_address=${COLLECTION}`, 'msg_index=0'],
      [
        'wasm',
        `_contract_address=${COLLECTION}`,
        'action=send_nft',
        `sender=${alice}`,
        `recipient=${RECEIVER}`,
        'token_id=2',
        'msg_index=0',
      ],
      ['execute', `_contract_address=${RECEIVER}`, 'msg_index=0'],
      [
        'wasm',
        `_contract_address=${RECEIVER}`,
        'action=receive_nft',
        'token_id=2',
        `sender=${alice}`,
        `msg=${Buffer.from('"succeed"').toString('base64')}`,
        'msg_index=0',
      ],
    ]);

    expect(shape(await block(cw721Msgs.burn(bob, COLLECTION, '1')))).toEqual([
      ['execute', `_contract_address=${COLLECTION}`, 'msg_index=0'],
      [
        'wasm',
        `_contract_address=${COLLECTION}`,
        'action=burn',
        `sender=${bob}`,
        'token_id=1',
        'msg_index=0',
      ],
    ]);

    // Heights: 1 instantiate, 2 receiver, 3 mint 1, 4 mint 2, 5 transfer, 6 send, 7 burn.
    const q = (query: unknown, h?: number) => cw721.node.smartQuery(COLLECTION, query, h);
    expect(q({ contract_info: {} })).toEqual({ name: 'Cats', symbol: 'CAT' });
    expect(q({ owner_of: { token_id: '1' } }, 4)).toEqual({ owner: alice, approvals: [] });
    expect(q({ owner_of: { token_id: '1' } }, 5)).toEqual({ owner: bob, approvals: [] });
    expect(q({ nft_info: { token_id: '1' } }, 5)).toEqual({ token_uri: 'ipfs://1', extension: null });
    expect(q({ num_tokens: {} }, 4)).toEqual({ count: 2 });
    expect(q({ num_tokens: {} })).toEqual({ count: 1 });
    expect(q({ tokens: { owner: alice } }, 4)).toEqual({ tokens: ['1', '2'] });
    expect(q({ tokens: { owner: RECEIVER } })).toEqual({ tokens: ['2'] });
    expect(q({ all_tokens: {} }, 4)).toEqual({ tokens: ['1', '2'] });
    expect(() => q({ owner_of: { token_id: '1' } })).toThrow(
      'cw721_base::state::TokenInfo<core::option::Option<cosmwasm_std::results::empty::Empty>> not found',
    );
    expect(() => q({ bogus: {} })).toThrow(
      /^Error parsing into type cw721_base::msg::QueryMsg<cosmwasm_std::results::empty::Empty>: unknown variant `bogus`, expected one of `owner_of`, .*`extension`$/,
    );
    expect(() => cw721.node.smartQuery(RECEIVER, { contract_info: {} })).toThrow(
      'Error parsing into type cw721_receiver_tester::msg::QueryMsg: unknown variant `contract_info`, there are no variants',
    );

    expect(cw721.node.contractInfo(COLLECTION)).toEqual({
      code_id: '1',
      creator: minter,
      admin: '',
      label: 'Cats',
      created: { block_height: '1', tx_index: '0' },
      ibc_port_id: '',
      extension: null,
    });
    expect(cw721.node.contractInfo(COLLECTION, 0)).toBeUndefined();
  });

  describe('failures', () => {
    async function expectFailure(
      store: StateStore,
      run: () => Promise<unknown>,
      codespace: string,
      code: number,
      log: string,
    ) {
      const before = snapshot(store);
      const err = await run().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TxError);
      expect(err).toMatchObject({ codespace, code, message: log });
      expect(snapshot(store)).toEqual(before);
    }

    it('rejects unauthorized mints, claimed ids, unknown tokens and failed deliveries', async () => {
      const { block, store, cw721 } = setup();
      await block(cw721Msgs.instantiate(minter, { name: 'Cats', symbol: 'CAT' }));
      await block(cw721Msgs.instantiateReceiver(minter));
      await block(cw721Msgs.mint(minter, COLLECTION, { tokenId: '1', owner: alice }));

      const failed = (reason: string) => `${reason}: execute wasm contract failed`;
      await expectFailure(
        store,
        () => block(cw721Msgs.mint(alice, COLLECTION, { tokenId: '2', owner: alice })),
        'wasm',
        5,
        failed('Unauthorized'),
      );
      await expectFailure(
        store,
        () => block(cw721Msgs.mint(minter, COLLECTION, { tokenId: '1', owner: bob })),
        'wasm',
        5,
        failed('token_id already claimed'),
      );
      await expectFailure(
        store,
        () => block(cw721Msgs.transfer(bob, COLLECTION, { recipient: bob, tokenId: '1' })),
        'wasm',
        5,
        failed('Unauthorized'),
      );
      await expectFailure(
        store,
        () => block(cw721Msgs.burn(alice, COLLECTION, '9')),
        'wasm',
        5,
        failed(
          'cw721_base::state::TokenInfo<core::option::Option<cosmwasm_std::results::empty::Empty>> not found',
        ),
      );
      // The receiver fails after cw721 moved the token: the whole msg is undone.
      await expectFailure(
        store,
        () => block(cw721Msgs.send(alice, COLLECTION, { to: RECEIVER, tokenId: '1', msg: RECEIVER_FAIL })),
        'wasm',
        5,
        failed('I failed because you asked me to do so'),
      );
      await expectFailure(
        store,
        () => block(cw721Msgs.send(alice, COLLECTION, { to: bob, tokenId: '1' })),
        'wasm',
        22,
        `address ${bob}: no such contract`,
      );
      expect(cw721.node.smartQuery(COLLECTION, { owner_of: { token_id: '1' } })).toEqual({
        owner: alice,
        approvals: [],
      });
    });

    it('lets an approved spender transfer once', async () => {
      const { block } = setup();
      await block(cw721Msgs.instantiate(minter, { name: 'Cats', symbol: 'CAT' }));
      await block(cw721Msgs.mint(minter, COLLECTION, { tokenId: '1', owner: alice }));
      const approved = await block(cw721Msgs.approve(alice, COLLECTION, { spender: bob, tokenId: '1' }));
      expect(shape(approved)[1]).toEqual([
        'wasm',
        `_contract_address=${COLLECTION}`,
        'action=approve',
        `sender=${alice}`,
        `spender=${bob}`,
        'token_id=1',
        'msg_index=0',
      ]);
      await block(cw721Msgs.transfer(bob, COLLECTION, { recipient: minter, tokenId: '1' }));
      await expect(
        block(cw721Msgs.transfer(bob, COLLECTION, { recipient: bob, tokenId: '1' })),
      ).rejects.toThrow('Unauthorized');
    });
  });
});
