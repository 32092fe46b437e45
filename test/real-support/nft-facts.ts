import { toBech32 } from '@cosmjs/encoding';
import { keccak_256 } from '@noble/hashes/sha3.js';
import type { CorpusTx } from './corpus.js';
import { accAddressFromString } from './rollytics-rules.js';

/**
 * What a corpus tx's events say about NFTs and ERC20 balances, read as each VM's module emits them and
 * importing nothing from src/, so the real-index NFT tests compare weft's reading with an independent one:
 * - Move, initia-labs/movevm precompile/modules/initia_stdlib/sources/token/collection.move
 *   (`CreateCollectionEvent {collection, creator, name}`, `MintEvent {collection, token_id, nft}`,
 *   `BurnEvent {collection, token_id, nft}`) and object.move (`CreateEvent {object, owner, version}`,
 *   `TransferEvent {object, from, to}`): a `move` event's `type_tag`, and its `data` as JSON;
 * - cw721-base: a `wasm` event's `action` = `mint` (`token_id`, `owner`), `transfer_nft` / `send_nft`
 *   (`token_id`, `recipient`) or `burn` (`token_id`), the collection being `_contract_address`;
 * - ERC721 / ERC20 on minievm: the `log` attributes of `evm` events, `Transfer(from, to, tokenId)` with all
 *   three indexed (four topics, empty data) or `Transfer(from, to, value)` with the value in data.
 */

export const TRANSFER_TOPIC = `0x${Buffer.from(keccak_256(Buffer.from('Transfer(address,address,uint256)'))).toString('hex')}`;

export type NftFact =
  | { kind: 'create'; collection: string; creator: string; name: string }
  /** `owner` is who holds the NFT once minted: the `owner` of the object's CreateEvent on Move. */
  | { kind: 'mint'; collection: string; tokenId: string; object?: string; owner: string }
  | { kind: 'transfer'; collection?: string; tokenId?: string; object?: string; to: string }
  | { kind: 'burn'; collection: string; tokenId: string; object?: string };

/** An address as rollytics' AccAddressFromString reads it: bech32 `init`, 20 or 32 bytes. */
export const bech32Of = (text: string): string => {
  const bytes = accAddressFromString(text, 'init');
  if (!bytes) throw new Error(`not an address: ${text}`);
  return toBech32('init', bytes);
};

/** `0x` and lowercase hex of an address's 20 or 32 bytes (Move objects and collections are 32). */
export const hexOf = (text: string): string =>
  `0x${Buffer.from(accAddressFromString(text, 'init') ?? []).toString('hex')}`;

const attrsOf = (event: CorpusTx['response']['events'][number]) =>
  new Map(event.attributes.map((a) => [a.key, a.value]));

function moveFacts(tx: CorpusTx): NftFact[] {
  const moves = tx.response.events
    .filter((e) => e.type === 'move')
    .map((e) => {
      const attrs = attrsOf(e);
      return { tag: attrs.get('type_tag'), data: JSON.parse(attrs.get('data') ?? 'null') };
    });
  const createdOwner = new Map(
    moves
      .filter((m) => m.tag === '0x1::object::CreateEvent')
      .map((m) => [hexOf(m.data.object), m.data.owner]),
  );
  return moves.flatMap(({ tag, data }): NftFact[] => {
    switch (tag) {
      case '0x1::collection::CreateCollectionEvent':
        return [
          { kind: 'create', collection: hexOf(data.collection), creator: data.creator, name: data.name },
        ];
      case '0x1::collection::MintEvent': {
        const object = hexOf(data.nft);
        const owner = createdOwner.get(object);
        if (owner === undefined) throw new Error(`${tx.response.txhash}: no CreateEvent for ${object}`);
        return [{ kind: 'mint', collection: hexOf(data.collection), tokenId: data.token_id, object, owner }];
      }
      case '0x1::object::TransferEvent':
        return [{ kind: 'transfer', object: hexOf(data.object), to: data.to }];
      case '0x1::collection::BurnEvent':
        return [
          {
            kind: 'burn',
            collection: hexOf(data.collection),
            tokenId: data.token_id,
            object: hexOf(data.nft),
          },
        ];
      default:
        return [];
    }
  });
}

function wasmFacts(tx: CorpusTx): NftFact[] {
  return tx.response.events
    .filter((e) => e.type === 'wasm')
    .flatMap((e): NftFact[] => {
      const a = attrsOf(e);
      const collection = hexOf(a.get('_contract_address')!);
      const tokenId = a.get('token_id');
      if (tokenId === undefined) return [];
      const action = a.get('action');
      if (action === 'mint') return [{ kind: 'mint', collection, tokenId, owner: a.get('owner')! }];
      if (action === 'transfer_nft' || action === 'send_nft')
        return [{ kind: 'transfer', collection, tokenId, to: a.get('recipient')! }];
      if (action === 'burn') return [{ kind: 'burn', collection, tokenId }];
      return [];
    });
}

export interface EvmTransferLog {
  address: string;
  from: string;
  to: string;
  /** ERC20: the value; ERC721: the token id. */
  amount: bigint;
  erc721: boolean;
}

/** The `Transfer` logs of a tx's `evm` events; addresses lowercase `0x` + 40 hex. */
export function evmTransfers(tx: CorpusTx): EvmTransferLog[] {
  return tx.response.events
    .filter((e) => e.type === 'evm')
    .flatMap((e) => e.attributes.filter((a) => a.key === 'log'))
    .flatMap((attr) => {
      const log = JSON.parse(attr.value) as { address: string; topics: string[]; data: string };
      if (log.topics[0]?.toLowerCase() !== TRANSFER_TOPIC) return [];
      const party = (topic: string) => `0x${topic.slice(-40).toLowerCase()}`;
      const erc721 = log.topics.length === 4 && log.data === '0x';
      if (!erc721 && log.topics.length !== 3) return [];
      const amount = BigInt(erc721 ? log.topics[3]! : log.data);
      const [, from, to] = log.topics as [string, string, string];
      return [{ address: log.address.toLowerCase(), from: party(from), to: party(to), amount, erc721 }];
    });
}

const ZERO_ADDRESS = `0x${'0'.repeat(40)}`;

function evmFacts(tx: CorpusTx): NftFact[] {
  return evmTransfers(tx)
    .filter((t) => t.erc721)
    .flatMap((t): NftFact[] => {
      const base = { collection: t.address, tokenId: t.amount.toString() };
      if (t.from === ZERO_ADDRESS) return [{ kind: 'mint', ...base, owner: t.to }];
      if (t.to === ZERO_ADDRESS) return [{ kind: 'burn', ...base }];
      return [{ kind: 'transfer', ...base, to: t.to }];
    });
}

export function nftFacts(tx: CorpusTx): NftFact[] {
  if (tx.vm === 'move') return moveFacts(tx);
  return tx.vm === 'wasm' ? wasmFacts(tx) : evmFacts(tx);
}

/**
 * ERC20 balance changes of a tx: each three-topic `Transfer` moves its value from `from` to `to`; the zero
 * address (a mint's sender, a burn's recipient) has no balance. Summed per `account/token` (hex), a zero sum
 * kept: the account's balance row is still touched.
 */
export function erc20Deltas(txs: CorpusTx[]): Map<string, bigint> {
  const deltas = new Map<string, bigint>();
  const add = (account: string, token: string, amount: bigint) => {
    if (account === ZERO_ADDRESS) return;
    const key = `${account}/${token}`;
    deltas.set(key, (deltas.get(key) ?? 0n) + amount);
  };
  for (const t of txs.flatMap(evmTransfers)) {
    if (t.erc721) continue;
    add(t.from, t.address, -t.amount);
    add(t.to, t.address, t.amount);
  }
  return deltas;
}
