import { decodeFunctionResult, encodeFunctionData, erc20Abi, erc721Abi, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Devnet, DevnetChain } from 'weft-devnet/devnet.js';
import type { BlockRecord } from 'weft-devnet/node.js';
import { testDevnet } from 'weft-devnet/test-support/devnet.js';
import { fromBech32, toBech32 } from '../../chain/address.js';
import type { IndexedBlock, NftChange } from '../../store/records.js';
import type { BlockBundle, MetaAnswer, MetaRequest } from '../bundle.js';
import { captureDrops } from '../test-support/drops.js';
import { decodeBlock, erc20TransferDeltas, flattenTraces, metaRequests } from './index.js';

/**
 * Decodes every block of a real devnet run (all three VMs) from the devnet's own node JSON, answering the
 * decoder's metadata requests through the chains' node queries at the block height, and checks the records
 * against the chain: tx counts, hashes, fees and signers; NFT events against changes; the NFT state the
 * changes add up to against the chain's own state; ERC20 deltas against balances.
 */

const BLOCKS = 40;
const ERC721_TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const CALLER = '0x0000000000000000000000000000000000000001';

let devnet: Devnet;
const decoded = new Map<string, IndexedBlock[]>();
// Every decoder of this file reports here: well-formed node JSON drops nothing.
const dropped = captureDrops();

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

async function answer(chain: DevnetChain, request: MetaRequest, height: number): Promise<MetaAnswer> {
  const node = chain.chain;
  switch (request.kind) {
    case 'evm-call': {
      const result = await node.evm!.call(
        { from: CALLER, to: request.contract, data: request.input },
        height,
      );
      return result.error ? { ok: false, error: result.error } : { ok: true, value: result.returnData };
    }
    case 'move-resource': {
      const resource = node.move!.resource(request.address, request.structTag, height);
      return resource
        ? { ok: true, value: JSON.parse(resource.move_resource) }
        : { ok: false, error: 'collections: not found' };
    }
    case 'wasm-smart':
      try {
        return { ok: true, value: node.wasm!.smartQuery(request.contract, request.query, height) };
      } catch (err) {
        return { ok: false, error: (err as Error).message };
      }
    case 'wasm-contract-info': {
      const info = node.wasm!.contractInfo(request.contract, height);
      return info ? { ok: true, value: info } : { ok: false, error: 'no such contract' };
    }
  }
}

async function bundleOf(chain: DevnetChain, record: BlockRecord): Promise<BlockBundle> {
  const block = record.block as BlockBundle['block'];
  const options = { vm: chain.vm, bech32Prefix: chain.chain.info.bech32Prefix };
  const meta = new Map<string, MetaAnswer>();
  for (const request of metaRequests(block, record.blockResults, options)) {
    meta.set(request.key, await answer(chain, request, record.height));
  }
  return {
    height: record.height,
    block,
    blockResults: record.blockResults,
    restTxs: record.txs.map((t) => t.restTx as unknown as Record<string, unknown>),
    ...(record.evm ? { evmReceipts: record.evm.receipts } : {}),
    meta,
  };
}

const chainOf = (vm: string) => devnet.chains.find((c) => c.vm === vm)!;
const records = (chain: DevnetChain) =>
  Array.from({ length: chain.chain.latestHeight() }, (_, i) => chain.chain.getBlock(i + 1)!);

type Attrs = Array<{ key: string; value: string }>;
const eventsOf = (record: BlockRecord) => {
  const results = (record.blockResults.txs_results ?? []) as Array<{
    events: Array<{ type: string; attributes?: Attrs }>;
  }>;
  const block = (record.blockResults.finalize_block_events ?? []) as Array<{
    type: string;
    attributes?: Attrs;
  }>;
  return [...block, ...results.flatMap((r) => r.events)];
};
const attr = (attrs: Attrs | undefined, key: string) => attrs?.find((a) => a.key === key)?.value;

beforeAll(async () => {
  devnet = await testDevnet({
    seed: 'decode-devnet',
    vms: ['evm', 'move', 'wasm'],
    accounts: 6,
    txsPerBlock: 12,
  });
  await devnet.fastForward(BLOCKS);
  for (const chain of devnet.chains) {
    const options = {
      vm: chain.vm,
      bech32Prefix: chain.chain.info.bech32Prefix,
      chainId: chain.chain.info.chainId,
      drops: dropped.drops,
    };
    const blocks: IndexedBlock[] = [];
    for (const record of records(chain)) blocks.push(decodeBlock(await bundleOf(chain, record), options));
    decoded.set(chain.vm, blocks);
  }
}, 120_000);

afterAll(async () => {
  await devnet?.close();
});

describe.each(['evm', 'move', 'wasm'] as const)('decoding the %s devnet', (vm) => {
  it('decodes every tx with its hash, fee, signer and REST JSON', () => {
    const chain = chainOf(vm);
    const prefix = chain.chain.info.bech32Prefix;
    let txs = 0;
    let checkedSigners = 0;
    for (const [i, record] of records(chain).entries()) {
      const block = decoded.get(vm)![i]!;
      expect(block.height).toBe(record.height);
      expect(block.txCount).toBe(record.txs.length);
      expect(block.txs.map((t) => hex(t.hash).toUpperCase())).toEqual(record.txs.map((t) => t.hash));
      const fees = new Map<string, bigint>();
      for (const t of record.txs) {
        for (const c of t.restTx.auth_info.fee.amount)
          fees.set(c.denom, (fees.get(c.denom) ?? 0n) + BigInt(c.amount));
      }
      expect(block.totalFee).toEqual(
        [...fees]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([denom, amount]) => ({ denom, amount: String(amount) })),
      );
      for (const [j, tx] of block.txs.entries()) {
        const source = record.txs[j]!;
        expect(tx.record.tx).toEqual(source.restTx);
        expect(tx.record.txhash).toBe(source.hash);
        expect(tx.code).toBe(source.result.code);
        const feeEvent = source.result.events.find((e) => e.type === 'tx' && attr(e.attributes, 'fee_payer'));
        const feePayer = attr(feeEvent?.attributes, 'fee_payer');
        if (feePayer) {
          expect(toBech32(prefix, tx.signer)).toBe(feePayer);
          checkedSigners += 1;
        }
        expect(tx.accounts.filter((a) => a.signer).map((a) => hex(a.address))).toEqual([hex(tx.signer)]);
        expect(tx.msgTypes.length).toBeGreaterThan(0);
        txs += 1;
      }
    }
    expect(txs).toBeGreaterThan(BLOCKS * 5);
    expect(checkedSigners).toBeGreaterThan(txs / 2);
  });

  it('turns every NFT event into a change', () => {
    const chain = chainOf(vm);
    let events = 0;
    for (const [i, record] of records(chain).entries()) {
      const changes = decoded.get(vm)![i]!.nftChanges.filter((c) => c.kind !== 'collection');
      let expected = 0;
      for (const e of eventsOf(record)) {
        if (vm === 'evm' && e.type === 'evm') {
          for (const a of e.attributes ?? []) {
            const log = JSON.parse(a.key === 'log' ? a.value : '{}') as { topics?: string[]; data?: string };
            if (log.topics?.length === 4 && log.topics[0] === ERC721_TRANSFER && log.data === '0x')
              expected += 1;
          }
        }
        const tag = attr(e.attributes, 'type_tag');
        if (vm === 'move' && e.type === 'move' && tag) {
          const data = JSON.parse(attr(e.attributes, 'data')!) as Record<string, string>;
          if (
            [
              '0x1::collection::MintEvent',
              '0x1::collection::BurnEvent',
              '0x1::object::TransferEvent',
            ].includes(tag)
          )
            expected += 1;
          if (tag === '0x1::nft::MutationEvent' && data.mutated_field_name === 'uri') expected += 1;
        }
        const action = attr(e.attributes, 'action');
        if (
          vm === 'wasm' &&
          e.type === 'wasm' &&
          ['mint', 'transfer_nft', 'send_nft', 'burn'].includes(action!)
        )
          expected += 1;
      }
      expect(changes.length).toBe(expected);
      events += expected;
    }
    expect(events).toBeGreaterThan(10);
  });

  it('adds up to the NFT state of the chain', async () => {
    const chain = chainOf(vm);
    const node = chain.chain;
    const prefix = node.info.bech32Prefix;
    const tokens = new Map<
      string,
      { change: Extract<NftChange, { kind: 'mint' }>; owner: string; uri: string }
    >();
    const names = new Map<string, string>();
    for (const block of decoded.get(vm)!) {
      for (const c of block.nftChanges) {
        if (c.kind === 'collection') {
          names.set(hex(c.collection), c.name);
          continue;
        }
        const id = `${hex(c.nft.collection)}/${c.nft.tokenId}`;
        if (c.kind === 'mint') tokens.set(id, { change: c, owner: hex(c.owner), uri: c.uri });
        else if (c.kind === 'burn') tokens.delete(id);
        else if (c.kind === 'transfer') tokens.get(id)!.owner = hex(c.to);
        else tokens.get(id)!.uri = c.uri;
      }
    }
    expect(tokens.size).toBeGreaterThan(3);
    for (const { change, owner, uri } of tokens.values()) {
      const collection = hex(change.nft.collection);
      expect(names.has(collection)).toBe(true);
      if (vm === 'evm') {
        const call = async (functionName: 'ownerOf' | 'tokenURI') => {
          const data = encodeFunctionData({
            abi: erc721Abi,
            functionName,
            args: [BigInt(change.nft.tokenId)],
          });
          const result = await node.evm!.call({ from: CALLER, to: `0x${collection}`, data });
          return decodeFunctionResult({ abi: erc721Abi, functionName, data: result.returnData as Hex });
        };
        expect(String(await call('ownerOf')).toLowerCase()).toBe(`0x${owner}`);
        expect(await call('tokenURI')).toBe(uri);
      } else if (vm === 'move') {
        const object = `0x${hex(change.objectAddr!)}`;
        const core = JSON.parse(node.move!.resource(object, '0x1::object::ObjectCore')!.move_resource);
        expect(BigInt(core.data.owner)).toBe(BigInt(`0x${owner}`));
        const nft = JSON.parse(node.move!.resource(object, '0x1::nft::Nft')!.move_resource);
        expect(nft.data.uri).toBe(uri);
        expect(nft.data.token_id).toBe(change.nft.tokenId);
      } else {
        const contract = toBech32(prefix, change.nft.collection);
        const info = node.wasm!.smartQuery(contract, { all_nft_info: { token_id: change.nft.tokenId } }) as {
          access: { owner: string };
          info: { token_uri: string | null };
        };
        expect(hex(fromBech32(info.access.owner).bytes)).toBe(owner);
        expect(info.info.token_uri ?? '').toBe(uri);
      }
    }
  });

  it('names the collections ICS-721 receives land in', () => {
    if (vm === 'evm') return;
    const blocks = decoded.get(vm)!;
    const origins = blocks.flatMap((b) => b.nftOrigins);
    expect(origins.length).toBeGreaterThan(0);
    const names = new Set(
      blocks.flatMap((b) => b.nftChanges.flatMap((c) => (c.kind === 'collection' ? [c.name] : []))),
    );
    for (const origin of origins) {
      expect(names.has(origin.className)).toBe(true);
      expect(origin.originName).toMatch(/^L1 Collection \d+$/);
    }
  });
});

describe('the EVM devnet', () => {
  it('decodes every receipt', () => {
    for (const [i, record] of records(chainOf('evm')).entries()) {
      const block = decoded.get('evm')![i]!;
      const receipts = record.evm?.receipts ?? [];
      expect(block.evmTxs.map((t) => `0x${hex(t.hash)}`)).toEqual(receipts.map((r) => r.transactionHash));
      for (const [j, tx] of block.evmTxs.entries()) {
        expect(`0x${hex(tx.signer)}`).toBe(String(receipts[j]!.from).toLowerCase());
        expect(Object.keys(tx.record)).toHaveLength(14);
      }
    }
  });

  it('numbers every traced call frame', () => {
    let frames = 0;
    for (const record of records(chainOf('evm'))) {
      const traces = record.evm?.traces ?? [];
      const flat = flattenTraces(record.height, traces, dropped.drops);
      expect(flat.filter((f) => f.index === 0).length).toBe(
        traces.filter((t) => !t.error && t.result).length,
      );
      for (const frame of flat) expect(frame.parentIndex).toBeLessThan(frame.index);
      frames += flat.length;
    }
    expect(frames).toBeGreaterThan(BLOCKS);
  });

  it('tracks ERC20 balances through tx and block-level transfers', async () => {
    const chain = chainOf('evm');
    const evm = chain.chain.evm!;
    const from = 2;
    const to = chain.chain.latestHeight();
    const sum = (blockEvents: boolean) => {
      const totals = new Map<string, bigint>();
      for (const record of records(chain).filter((r) => r.height > from)) {
        for (const d of erc20TransferDeltas(record, { blockEvents, drops: dropped.drops })) {
          const id = `${d.denom}/${hex(d.account)}`;
          totals.set(id, (totals.get(id) ?? 0n) + d.delta);
        }
      }
      return totals;
    };
    const balance = async (denom: string, account: string, height: number) => {
      const data = encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [`0x${account}`] });
      const result = await evm.call({ from: CALLER, to: denom, data }, height);
      return BigInt(result.returnData);
    };
    const withBlockEvents = sum(true);
    expect(withBlockEvents.size).toBeGreaterThan(5);
    for (const [id, delta] of withBlockEvents) {
      const [denom, account] = id.split('/') as [string, string];
      expect(`${id}: ${(await balance(denom, account, to)) - (await balance(denom, account, from))}`).toBe(
        `${id}: ${delta}`,
      );
    }
    // Tx events alone miss the fee distribution paid at BeginBlock.
    const txOnly = sum(false);
    expect([...withBlockEvents].some(([id, delta]) => txOnly.get(id) !== delta)).toBe(true);
  });
});

describe('decoding the devnets', () => {
  it('drops nothing of their node JSON', async () => {
    expect(decoded.size).toBe(3);
    expect(await dropped.counts()).toEqual({});
    expect(dropped.warnings()).toEqual([]);
  });
});
