import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bytesToHex, fromBech32 } from 'weft/chain/address.js';
import { bcs } from 'weft/chain/bcs.js';
import { collectionAddress, nftAddress, padMoveAddress } from 'weft/chain/move-object.js';
import type { Shutdown } from 'weft/common/shutdown.js';
import type { Devnet, DevnetChain } from 'weft-devnet/devnet.js';
import type { DevAccount } from 'weft-devnet/keys.js';
import { until } from 'weft-devnet/test-support/until.js';
import { post, routerOnDevnet } from './router-api-support.js';
import { trackingDevnet } from './router-tracking-support.js';
import { aminoTypes, signAndBroadcast } from './router-wallet-support.js';

/**
 * An NFT from the Move rollup to the Wasm rollup through the L1, as InterwovenKit's NFT send asks `POST /nft`
 * for it (the L1 as intermediary): one `MsgTransfer` over the Move rollup's ICS-721 channel to the L1, its
 * receiver and memo initia's move hook of `0x1::nft_transfer::nft_transfer`. Signed by the holder and
 * relayed, the L1 receives it into the hook's intermediate account and sends it on to the Wasm rollup's
 * ics721 contract, which mints it in its cw721 of the class, to the receiver. The other way, a cw721 goes
 * out with `send_nft` to the ics721 contract. A second hop that fails leaves the NFT at the recover address.
 */

let network: Awaited<ReturnType<typeof trackingDevnet>>;
let devnet: Devnet;
let move: DevnetChain;
let wasm: DevnetChain;
let shutdown: Shutdown;
let url: string;

beforeAll(async () => {
  network = await trackingDevnet('router-e2e-nft');
  devnet = network.devnet;
  move = devnet.rollups.find((r) => r.vm === 'move')!;
  wasm = devnet.rollups.find((r) => r.vm === 'wasm')!;
  ({ url, shutdown } = await routerOnDevnet(devnet));
}, 120_000);

afterAll(async () => {
  await shutdown?.kill();
  await network?.close();
}, 60_000);

const execute = (sender: string, functionName: string, args: Uint8Array[]) => ({
  typeUrl: '/initia.move.v1.MsgExecute',
  value: { sender, moduleAddress: '0x1', moduleName: 'initia_nft', functionName, typeArgs: [], args },
});

/** A collection of `holder` on the Move rollup with one token, minted to `holder`: their objects. */
async function mintOnMove(holder: DevAccount, name: string, tokenId: string) {
  await signAndBroadcast(move, holder, [
    execute(holder.address, 'create_collection', [
      bcs.string(`${name}, sent through the L1`),
      Uint8Array.of(0),
      bcs.string(name),
      bcs.string(`https://weft.test/${encodeURIComponent(name)}`),
      ...Array.from({ length: 5 }, () => bcs.bool(false)),
      bcs.bigDecimal(0n),
    ]),
    execute(holder.address, 'mint', [
      bcs.string(name),
      bcs.string(`token ${tokenId}`),
      bcs.string(tokenId),
      bcs.string(`https://weft.test/${tokenId}`),
      bcs.bool(true),
      bcs.option(undefined, bcs.address),
    ]),
  ]);
  const creator = padMoveAddress(fromBech32(holder.address).bytes);
  return { collection: collectionAddress(creator, name), object: nftAddress(creator, name, tokenId) };
}

/** Txs of a chain whose events match a CometBFT query, with their events as `type.key` → values. */
async function txsMatching(chain: DevnetChain, query: string) {
  const search = `${chain.urls.rpc}/tx_search?query=${encodeURIComponent(`"${query}"`)}`;
  const answer = (await (await fetch(search)).json()) as any;
  return (answer.result?.txs ?? []).map((tx: any) => {
    const values = (key: string) =>
      tx.tx_result.events.flatMap((e: any) =>
        e.attributes.filter((a: any) => `${e.type}.${a.key}` === key).map((a: any) => a.value),
      );
    return { code: tx.tx_result.code, values };
  });
}

describe('an NFT between two rollups through the L1 (ICS-721 and the L1 move hook)', () => {
  it('sends a Move rollup collection to the Wasm rollup with the msgs of POST /nft', async () => {
    const holder = move.accounts[1]!;
    const receiver = wasm.accounts[2]!.address;
    const name = 'weft e2e collection';
    const { collection, object } = await mintOnMove(holder, name, '1');

    const answer = await post(url, '/nft', {
      from_address: holder.address,
      from_chain_id: move.chain.info.chainId,
      to_address: receiver,
      to_chain_id: wasm.chain.info.chainId,
      collection_address: `0x${bytesToHex(collection)}`,
      token_ids: ['1'],
      object_addresses: [`0x${bytesToHex(object)}`],
    });
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    const msgs = answer.json.msgs.map((m: any) => aminoTypes.fromAmino(m));
    expect(msgs).toMatchObject([
      {
        typeUrl: '/ibc.applications.nft_transfer.v1.MsgTransfer',
        value: {
          sourcePort: 'nft-transfer',
          classId: `move/${bytesToHex(collection)}`,
          receiver: '0x1::nft_transfer::nft_transfer',
        },
      },
    ]);
    const toL1 = msgs[0].value.sourceChannel as string;
    await signAndBroadcast(move, holder, msgs);

    // The Wasm rollup received it over its ics721 contract's channel and minted it to the receiver.
    expect(JSON.parse(msgs[0].value.memo).move.message).toMatchObject({ module_name: 'nft_transfer' });
    const minted = await until(
      'the NFT on the Wasm rollup',
      async () => {
        const [tx] = await txsMatching(wasm, "recv_packet.packet_src_port='nft-transfer'");
        return tx?.values('wasm.action').includes('mint') && tx;
      },
      60_000,
    );
    expect(minted.code).toBe(0);
    expect(minted.values('wasm.owner')).toEqual([receiver]);
    expect(minted.values('wasm.token_id')).toEqual(['1']);
    const [voucher] = minted.values('instantiate._contract_address');
    const query = (msg: object) =>
      `${wasm.urls.rest}/cosmwasm/wasm/v1/contract/${voucher}/smart/${Buffer.from(JSON.stringify(msg)).toString('base64')}`;
    const owner = (await (await fetch(query({ owner_of: { token_id: '1' } }))).json()) as any;
    expect(owner.data.owner).toBe(receiver);
    // Its class: the Wasm end, the L1's channel to it, and the Move rollup's class as the L1 got it.
    const info = (await (await fetch(query({ contract_info: {} }))).json()) as any;
    expect(info.data.name).toMatch(
      new RegExp(
        `^wasm\\.init1[0-9a-z]+/channel-\\d+/nft-transfer/channel-\\d+/move/${bytesToHex(collection)}$`,
      ),
    );

    // The L1 ran the hook: the receive of the Move rollup's packet sent the NFT on to the Wasm rollup.
    const [hooked] = await txsMatching(devnet.l1!, `recv_packet.packet_src_channel='${toL1}'`);
    expect(hooked.code).toBe(0);
    expect(hooked.values('send_packet.packet_dst_port')).toEqual([info.data.name.split('/')[0]]);
  }, 120_000);

  it('sends a cw721 of the Wasm rollup to the Move rollup: send_nft to its ics721 contract, on through the L1', async () => {
    const holder = wasm.accounts[1]!;
    const receiver = move.accounts[3]!.address;
    const wasmMsg = (typeUrl: string, value: object) => ({ typeUrl: `/cosmwasm.wasm.v1.${typeUrl}`, value });
    const json = (msg: object) => new TextEncoder().encode(JSON.stringify(msg));
    const created = await signAndBroadcast(wasm, holder, [
      wasmMsg('MsgInstantiateContract', {
        sender: holder.address,
        admin: '',
        codeId: 1n,
        label: 'weft e2e cw721',
        msg: json({ name: 'weft e2e', symbol: 'WEFT', minter: holder.address }),
        funds: [],
      }),
    ]);
    const landed = (await (await fetch(`${wasm.urls.rest}/cosmos/tx/v1beta1/txs/${created}`)).json()) as any;
    const contract = landed.tx_response.events
      .find((e: any) => e.type === 'instantiate')
      .attributes.find((a: any) => a.key === '_contract_address').value as string;
    await signAndBroadcast(wasm, holder, [
      wasmMsg('MsgExecuteContract', {
        sender: holder.address,
        contract,
        msg: json({ mint: { token_id: '7', owner: holder.address, token_uri: 'https://weft.test/7' } }),
        funds: [],
      }),
    ]);

    // InterwovenKit's request for a collection of the rollup's own: class_id is the contract.
    const answer = await post(url, '/nft', {
      from_address: holder.address,
      from_chain_id: wasm.chain.info.chainId,
      to_address: receiver,
      to_chain_id: move.chain.info.chainId,
      collection_address: contract,
      token_ids: ['7'],
      object_addresses: [null],
      class_id: contract,
      outgoing_proxy: null,
    });
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    const msgs = answer.json.msgs.map((m: any) => aminoTypes.fromAmino(m));
    expect(msgs).toMatchObject([
      { typeUrl: '/cosmwasm.wasm.v1.MsgExecuteContract', value: { sender: holder.address, contract } },
    ]);
    await signAndBroadcast(wasm, holder, msgs);

    const received = await until(
      'the NFT on the Move rollup',
      async () => {
        const [tx] = await txsMatching(move, `non_fungible_token_packet.receiver='${receiver}'`);
        return tx?.values('non_fungible_token_packet.success').includes('true') && tx;
      },
      60_000,
    );
    expect(received.code).toBe(0);
    const [classId] = received.values('class_trace.class_id');
    expect(classId).toMatch(/^ibc\/[0-9A-F]{64}$/);
    // The cw721 holds it no more: the ics721 contract escrows it.
    const owner = (await (
      await fetch(
        `${wasm.urls.rest}/cosmwasm/wasm/v1/contract/${contract}/smart/${Buffer.from(JSON.stringify({ owner_of: { token_id: '7' } })).toString('base64')}`,
      )
    ).json()) as any;
    const sent = JSON.parse(Buffer.from(msgs[0].value.msg).toString()).send_nft;
    expect(owner.data.owner).toBe(sent.contract);
  }, 120_000);

  it("hands the NFTs to the recover address on the L1 when the hook's second hop fails", async () => {
    const holder = move.accounts[2]!;
    const recover = devnet.l1!.accounts[2]!.address;
    const name = 'weft e2e recovered';
    const { collection } = await mintOnMove(holder, name, '9');
    const answer = await post(url, '/nft', {
      from_address: holder.address,
      from_chain_id: move.chain.info.chainId,
      to_address: wasm.accounts[2]!.address,
      to_chain_id: wasm.chain.info.chainId,
      collection_address: `0x${bytesToHex(collection)}`,
      token_ids: ['9'],
      l1_recover_address: recover,
    });
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    const [msg] = answer.json.msgs.map((m: any) => aminoTypes.fromAmino(m));
    // The second hop's receiver made one the Wasm rollup refuses (another chain's prefix): its ack is an error.
    const memo = JSON.parse(msg.value.memo);
    memo.move.message.args[1] = Buffer.from(
      bcs.string(`cosmos${wasm.accounts[2]!.address.slice(4)}`),
    ).toString('base64');
    await signAndBroadcast(move, holder, [{ ...msg, value: { ...msg.value, memo: JSON.stringify(memo) } }]);

    const recoverHex = `0x${bytesToHex(fromBech32(recover).bytes).replace(/^0+/, '')}`;
    const acked = await until(
      'the error ack on the L1 and the NFT at the recover address',
      async () => {
        const txs = await txsMatching(devnet.l1!, "acknowledge_packet.packet_src_port='nft-transfer'");
        return txs.find((tx: any) => tx.values('move.to').includes(recoverHex));
      },
      60_000,
    );
    expect(acked.code).toBe(0);
    expect(acked.values('non_fungible_token_packet.error')).toHaveLength(1);
  }, 120_000);
});
