import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from 'weft/common/logger.js';
import { createBankMsgModule } from '../bank/msg-send.js';
import { createStoreBank } from '../bank/store-bank.js';
import { createMemoryBlockStore } from '../block-store.js';
import { createChain } from '../chain.js';
import { type DevAccount, deriveAccounts, deriveValidatorKey } from '../keys.js';
import { createMoveNftModule } from '../move/module.js';
import { moveAddresses, moveMsgs } from '../move/msgs.js';
import type { ChainNodeExtensions } from '../node.js';
import { GENESIS_TIME_MS, moduleAddressBytes } from '../rollup.js';
import { type Auth, createAuth } from '../state/auth.js';
import { createStateStore, type StateStore } from '../state/store.js';
import { signTx } from '../tx/sign.js';
import type { AnyMsg, MsgModule } from '../types.js';
import { createCw721Module } from '../wasm/module.js';
import { cw721Msgs } from '../wasm/msgs.js';
import { createRestServer } from './rest.js';

/** A real chain running one VM module, with two funded accounts. */
async function vmChain(
  vm: 'move' | 'wasm',
  build: (store: StateStore, auth: Auth) => { module: MsgModule; extensions: ChainNodeExtensions },
) {
  const seed = `rest-vm-${vm}`;
  const chainId = `${vm}-rest-1`;
  const store = createStateStore();
  const auth = createAuth({ prefix: 'init', moduleAddress: moduleAddressBytes });
  const bank = createStoreBank({ auth });
  const accounts = deriveAccounts({ seed, count: 2, keyType: 'secp256k1', prefix: 'init' });
  const { module, extensions } = build(store, auth);
  const chain = await createChain({
    info: { chainId, vm, bech32Prefix: 'init', denom: 'umin', minGasPrice: 0.15 },
    seed,
    genesisTimeMs: GENESIS_TIME_MS,
    blockTimeMs: 1000,
    store,
    blocks: createMemoryBlockStore(),
    auth,
    bank,
    modules: [createBankMsgModule({ bank, prefix: 'init' }), module],
    sequencer: { ...deriveValidatorKey(seed, chainId), moniker: 'sequencer' },
    async genesis(ctx) {
      for (const account of accounts) {
        auth.ensure(store, account.address);
        await bank.mint(ctx, account.address, [{ denom: 'umin', amount: '1000000000000' }]);
      }
    },
    extensions,
    logger: silentLogger(),
  });
  /** Sends msgs in their own block; returns the block's first tx result. */
  const commit = async (signer: DevAccount, msgs: AnyMsg[]) => {
    const account = chain.account(signer.address)!;
    const raw = signTx({
      msgs,
      fee: { amount: [{ denom: 'umin', amount: '450000' }], gasLimit: 3_000_000n },
      signer,
      chainId,
      accountNumber: account.accountNumber,
      sequence: account.sequence,
    });
    expect((await chain.broadcastTx(raw)).code).toBe(0);
    const block = await chain.produceBlock();
    expect(block.txs[0]!.result.log).toBe('');
    return block;
  };
  return { chain, accounts, commit, rest: createRestServer(chain) };
}

describe('Move resources', () => {
  let setup: Awaited<ReturnType<typeof vmChain>>;
  beforeAll(async () => {
    setup = await vmChain('move', (store, auth) => {
      const { module, node } = createMoveNftModule({ prefix: 'init', store, auth });
      return { module, extensions: { move: node } };
    });
    const [creator] = setup.accounts;
    await setup.commit(creator!, [
      moveMsgs.createCollection(creator!.address, { name: 'Cats', maxSupply: 10n }),
    ]);
    await setup.commit(creator!, [
      moveMsgs.mint(creator!.address, { collection: 'Cats', tokenId: '1', uri: 'ipfs://1' }),
    ]);
  });
  afterAll(() => setup.rest.close());

  it('serves a resource by struct tag at the x-cosmos-block-height height', async () => {
    const creator = setup.accounts[0]!.address;
    const nft = moveAddresses.nft(creator, 'Cats', '1');
    const url = `/initia/move/v1/accounts/${nft}/resources/by_struct_tag?struct_tag=0x1::nft::Nft`;
    const res = await setup.rest.inject({ url });
    expect(res.statusCode).toBe(200);
    const { resource } = JSON.parse(res.body);
    expect(resource.struct_tag).toBe('0x1::nft::Nft');
    expect(JSON.parse(resource.move_resource).data).toMatchObject({ token_id: '1', uri: 'ipfs://1' });
    expect(resource).toEqual(setup.chain.move!.resource(nft, '0x1::nft::Nft')!);

    // Before the mint block the NFT does not exist.
    const before = await setup.rest.inject({ url, headers: { 'x-cosmos-block-height': '1' } });
    expect(before.statusCode).toBe(500);
    expect(JSON.parse(before.body)).toMatchObject({ code: 2, details: [] });
    const badTag = await setup.rest.inject({
      url: `/initia/move/v1/accounts/${nft}/resources/by_struct_tag?struct_tag=nft`,
    });
    expect(badTag.statusCode).toBe(500);
  });

  it('has no wasm or minievm routes', async () => {
    const res = await setup.rest.inject({ url: '/cosmwasm/wasm/v1/contract/init1x' });
    expect(res.statusCode).toBe(501);
  });
});

describe('CosmWasm contracts', () => {
  let setup: Awaited<ReturnType<typeof vmChain>>;
  let contract: string;
  beforeAll(async () => {
    setup = await vmChain('wasm', (store, auth) => {
      const { module, node } = createCw721Module({ prefix: 'init', store, auth });
      return { module, extensions: { wasm: node } };
    });
    const [minter] = setup.accounts;
    const block = await setup.commit(minter!, [
      cw721Msgs.instantiate(minter!.address, { name: 'Cats', symbol: 'CAT' }),
    ]);
    const instantiate = block.txs[0]!.result.events.find((e) => e.type === 'instantiate')!;
    contract = instantiate.attributes!.find((a) => a.key === '_contract_address')!.value;
    await setup.commit(minter!, [
      cw721Msgs.mint(minter!.address, contract, { tokenId: '1', owner: minter!.address }),
    ]);
  });
  afterAll(() => setup.rest.close());

  const smart = (query: unknown, encoding: 'base64' | 'base64url' = 'base64') =>
    setup.rest.inject({
      url: `/cosmwasm/wasm/v1/contract/${contract}/smart/${encodeURIComponent(Buffer.from(JSON.stringify(query)).toString(encoding))}`,
    });

  it('answers smart queries given in standard or URL-safe base64', async () => {
    const info = await smart({ contract_info: {} });
    expect(info.statusCode).toBe(200);
    expect(JSON.parse(info.body)).toEqual({ data: { name: 'Cats', symbol: 'CAT' } });
    const owner = await smart({ owner_of: { token_id: '1' } }, 'base64url');
    expect(JSON.parse(owner.body).data.owner).toBe(setup.accounts[0]!.address);
  });

  it('answers a query the contract rejects as wasmd does', async () => {
    const res = await smart({ no_such_query: {} });
    expect(res.statusCode).toBe(500);
    const body = JSON.parse(res.body);
    expect(body.code).toBe(2);
    expect(body.message).toMatch(/^codespace wasm code 9: query wasm contract failed: .*unknown variant/);
  });

  it('serves the contract info, and refuses unknown contracts', async () => {
    const res = await setup.rest.inject({ url: `/cosmwasm/wasm/v1/contract/${contract}` });
    expect(JSON.parse(res.body)).toEqual({
      address: contract,
      contract_info: setup.chain.wasm!.contractInfo(contract),
    });
    expect(JSON.parse(res.body).contract_info.creator).toBe(setup.accounts[0]!.address);
    const unknown = await setup.rest.inject({
      url: `/cosmwasm/wasm/v1/contract/${setup.accounts[1]!.address}`,
    });
    expect(unknown.statusCode).toBe(500);
    expect(JSON.parse(unknown.body).message).toMatch(/no such contract/);
  });
});
