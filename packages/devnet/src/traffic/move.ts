import type { DevAccount } from '../keys.js';
import { moveAddresses, moveMsgs } from '../move/msgs.js';
import { successfulTxEvents } from './events.js';
import type { TrafficPlan } from './generator.js';

interface Token {
  id: string;
  address: string;
  owner: DevAccount;
}

interface Collection {
  name: string;
  creator: DevAccount;
  address: string;
  tokens: Map<string, Token>;
  nextId: number;
}

/**
 * The Move NFT lifecycle: collections created by test accounts, mints to other accounts, transfers,
 * uri updates and burns. The model follows committed `move` events; NFTs used in the block being
 * filled are held back so that two txs never race for the same object.
 */
export function moveNftPlan(accounts: readonly DevAccount[], weight = 4): TrafficPlan {
  const collections = new Map<string, Collection>();
  const byMoveAddress = new Map(accounts.map((a) => [moveAddresses.account(a.address), a]));
  const busy = new Set<string>();
  let created = 0;

  return {
    name: 'move-nft',
    weight,
    observe(record) {
      busy.clear();
      for (const e of successfulTxEvents(record)) {
        if (e.type !== 'move') continue;
        const data = JSON.parse(e.attrs.get('data') ?? '{}') as Record<string, string>;
        const collection = [...collections.values()].find((c) => c.address === data.collection);
        switch (e.attrs.get('type_tag')) {
          case '0x1::collection::MintEvent':
            if (collection) {
              collection.tokens.set(data.nft!, {
                id: data.token_id!,
                address: data.nft!,
                owner: collection.creator,
              });
            }
            break;
          case '0x1::object::TransferEvent':
            for (const c of collections.values()) {
              const token = c.tokens.get(data.object!);
              const owner = byMoveAddress.get(data.to!);
              if (token && owner) token.owner = owner;
            }
            break;
          case '0x1::collection::BurnEvent':
            collection?.tokens.delete(data.nft!);
            break;
        }
      }
    },
    next({ rng }) {
      const live = [...collections.values()];
      const tokens = live
        .flatMap((c) => [...c.tokens.values()].map((t) => ({ c, t })))
        .filter(({ t }) => !busy.has(t.address));
      const action = rng.weighted({
        create: live.length < 3 ? 5 : 0.3,
        mint: live.length > 0 ? 5 : 0,
        transfer: tokens.length > 0 ? 4 : 0,
        setUri: tokens.length > 0 ? 1 : 0,
        burn: tokens.length > 4 ? 1.5 : 0,
      });
      if (action === 'create') {
        const creator = rng.pick(accounts);
        created += 1;
        const name = `Devnet Move Collection ${created}`;
        const address = moveAddresses.collection(creator.address, name);
        collections.set(name, { name, creator, address, tokens: new Map(), nextId: 1 });
        return {
          kind: 'cosmos',
          signer: creator,
          msgs: [
            moveMsgs.createCollection(creator.address, {
              name,
              description: `${name} (devnet)`,
              uri: `https://devnet.weft/move/${created}`,
              mutableNftUri: true,
            }),
          ],
        };
      }
      if (action === 'mint') {
        const c = rng.pick(live);
        const id = String(c.nextId++);
        const to = rng.pick(accounts);
        return {
          kind: 'cosmos',
          signer: c.creator,
          msgs: [
            moveMsgs.mint(c.creator.address, {
              collection: c.name,
              tokenId: id,
              uri: `ipfs://devnet/${c.address}/${id}`,
              to: to.address,
            }),
          ],
        };
      }
      const { c, t } = rng.pick(tokens);
      busy.add(t.address);
      if (action === 'transfer') {
        const to = rng.pick(accounts.filter((a) => a !== t.owner));
        return {
          kind: 'cosmos',
          signer: t.owner,
          msgs: [moveMsgs.transfer(t.owner.address, t.address, to.address)],
        };
      }
      if (action === 'setUri') {
        return {
          kind: 'cosmos',
          signer: c.creator,
          msgs: [moveMsgs.setUri(c.creator.address, t.address, `ipfs://devnet/updated/${t.id}`)],
        };
      }
      return { kind: 'cosmos', signer: t.owner, msgs: [moveMsgs.burn(t.owner.address, t.address)] };
    },
  };
}
