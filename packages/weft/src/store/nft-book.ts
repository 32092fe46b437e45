import { storedText } from './bulk.js';
import { addressKey, type Dictionary } from './dictionary.js';
import {
  type Collection,
  deriveCreations,
  fetchCollections,
  type NftBlock,
  objectOf,
  prefetchTokens,
  type Token,
} from './nft-state.js';
import { writeNftBook } from './nft-write.js';
import type { NftChange } from './records.js';
import type { WriteSession } from './write-session.js';

export type { NftBlock };

/**
 * Applies a batch's NFT changes in order. Current state of every touched collection and token is
 * read up front (nft-state.ts), the changes are replayed in memory, and the end state is written back in a
 * handful of set-based statements (nft-write.ts).
 */
export async function applyNftChanges(
  session: WriteSession,
  accounts: Dictionary<Uint8Array>,
  accountIds: Map<string, number>,
  blocks: NftBlock[],
): Promise<void> {
  if (
    !blocks.some(
      (b) =>
        b.changes.length > 0 || b.origins.length > 0 || [...b.txs.values()].some((t) => t.nfts.length > 0),
    )
  )
    return;
  const accountId = (address: Uint8Array) => accountIds.get(addressKey(address))!;

  // Collections named by the batch, by address or (for origins) by name.
  const addrs = new Map<string, Uint8Array>();
  const noteAddr = (addr: Uint8Array) => addrs.set(addressKey(addr), addr);
  for (const block of blocks) {
    for (const change of block.changes)
      noteAddr(change.kind === 'collection' ? change.collection : change.nft.collection);
    for (const t of block.txs.values()) for (const key of t.nfts) noteAddr(key.collection);
  }
  const originNames = [...new Set(blocks.flatMap((b) => b.origins.map((o) => storedText(o.className))))];
  const collections = new Map<string, Collection>();
  const byName = new Map<string, Collection[]>();
  const indexByName = (c: Collection) => byName.set(c.name, [...(byName.get(c.name) ?? []), c]);
  for (const c of await fetchCollections(session, 'addr = ANY($1::bytea[]) OR name = ANY($2::text[])', [
    [...addrs.values()],
    originNames,
  ])) {
    collections.set(addressKey(c.addr), c);
    indexByName(c);
  }

  const creations = await deriveCreations(session, accounts, accountIds, blocks, collections);
  const createCollection = (addr: Uint8Array): Collection => {
    const key = addressKey(addr);
    const made = creations.get(key)!;
    const c: Collection = {
      ...made,
      id: session.nextId('nft_collection'),
      addr,
      originName: '',
      isNew: true,
      originChanged: false,
      nftDelta: 0,
    };
    collections.set(key, c);
    indexByName(c);
    session.counters.add('collection');
    return c;
  };

  // Tokens: every (collection, token id) of a known collection, and every Move object named.
  const tokens = await prefetchTokens(session, blocks, collections);
  const byObject = new Map<string, Token>();
  for (const t of tokens.values()) if (t.objectAddr) byObject.set(addressKey(t.objectAddr), t);
  const tokenOf = (collection: Collection, rawTokenId: string): Token => {
    const tokenId = storedText(rawTokenId);
    const key = `${collection.id}:${tokenId}`;
    let t = tokens.get(key);
    if (!t) {
      t = {
        id: session.nextId('nft_token'),
        collection,
        tokenId,
        objectAddr: null,
        isNew: true,
        objectChanged: false,
        wasLive: false,
        live: false,
        ownerId: 0,
        uri: '',
        height: 0,
        time: '',
        dirty: false,
        txDelta: 0,
      };
      tokens.set(key, t);
    }
    return t;
  };
  const find = (
    change: Exclude<NftChange, { kind: 'collection' }>,
  ): { token: Token; byObject: boolean } | undefined => {
    const object = objectOf(change);
    if (object) {
      const token = byObject.get(addressKey(object));
      return token && { token, byObject: true };
    }
    const collection = collections.get(addressKey(change.nft.collection));
    return collection && { token: tokenOf(collection, change.nft.tokenId), byObject: false };
  };

  const holdings = new Map<string, { ownerId: number; collection: Collection; delta: number }>();
  const hold = (ownerId: number, collection: Collection, delta: number) => {
    const key = `${ownerId}:${collection.id}`;
    const h = holdings.get(key) ?? { ownerId, collection, delta: 0 };
    h.delta += delta;
    holdings.set(key, h);
    session.addAccountStat(ownerId, 'nfts', delta);
  };
  const edges = new Set<string>();
  const touch = (token: Token, sequence: number | undefined) => {
    if (sequence === undefined || edges.has(`${token.id}:${sequence}`)) return;
    edges.add(`${token.id}:${sequence}`);
    token.txDelta += 1;
  };

  for (const block of blocks) {
    const stamp = (token: Token) => {
      token.height = block.height;
      token.time = block.time;
      token.dirty = true;
    };
    for (const change of block.changes) {
      const sequence = change.txIndex === null ? undefined : block.txs.get(change.txIndex)?.sequence;
      if (change.kind === 'collection') {
        if (!collections.has(addressKey(change.collection))) createCollection(change.collection);
        continue;
      }
      if (change.kind === 'mint') {
        const collection =
          collections.get(addressKey(change.nft.collection)) ?? createCollection(change.nft.collection);
        const token = tokenOf(collection, change.nft.tokenId);
        if (change.objectAddr) {
          token.objectAddr = change.objectAddr;
          token.objectChanged = true;
          byObject.set(addressKey(change.objectAddr), token);
        }
        if (token.live) hold(token.ownerId, collection, -1);
        else collection.nftDelta += 1;
        token.live = true;
        token.ownerId = accountId(change.owner);
        token.uri = change.uri;
        hold(token.ownerId, collection, 1);
        stamp(token);
        touch(token, sequence);
        continue;
      }
      const found = find(change);
      if (!found) continue;
      const { token } = found;
      touch(token, sequence);
      if (change.kind === 'transfer') {
        if (token.live) hold(token.ownerId, token.collection, -1);
        else if (found.byObject) continue;
        else {
          // A transfer of a token minted before the first indexed height: it exists from now on.
          token.collection.nftDelta += 1;
          token.live = true;
        }
        token.ownerId = accountId(change.to);
        hold(token.ownerId, token.collection, 1);
        stamp(token);
      } else if (change.kind === 'uri') {
        if (!token.live) continue;
        token.uri = change.uri;
        stamp(token);
      } else if (token.live) {
        hold(token.ownerId, token.collection, -1);
        token.collection.nftDelta -= 1;
        token.live = false;
      }
    }
    for (const t of block.txs.values()) {
      for (const key of t.nfts) {
        const collection = collections.get(addressKey(key.collection));
        if (collection) touch(tokenOf(collection, key.tokenId), t.sequence);
      }
    }
    for (const origin of block.origins) {
      for (const collection of byName.get(storedText(origin.className)) ?? []) {
        const originName = storedText(origin.originName);
        if (collection.originName === originName) continue;
        collection.originName = originName;
        collection.originChanged = true;
      }
    }
  }

  await writeNftBook(session, {
    collections: [...collections.values()],
    tokens: [...tokens.values()],
    holdings: [...holdings.values()],
    edges,
  });
}
