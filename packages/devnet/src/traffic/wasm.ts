import type { DevAccount } from '../keys.js';
import { cw721Msgs } from '../wasm/msgs.js';
import { successfulTxEvents } from './events.js';
import type { TrafficPlan } from './generator.js';

interface Token {
  id: string;
  owner: DevAccount;
}

interface Collection {
  address: string;
  minter: DevAccount;
  tokens: Map<string, Token>;
  nextId: number;
}

/**
 * The cw721 lifecycle: instantiations, mints, transfers, sends to a receiver contract and burns.
 * Contract addresses are learned from committed `instantiate` events.
 */
export function cw721Plan(accounts: readonly DevAccount[], weight = 4): TrafficPlan {
  const collections = new Map<string, Collection>();
  const receivers: string[] = [];
  let pendingInstantiations = 0;
  const byAddress = new Map(accounts.map((a) => [a.address, a]));
  const busy = new Set<string>();
  let instantiated = 0;
  let receiverPending = false;

  return {
    name: 'cw721',
    weight,
    observe(record) {
      busy.clear();
      for (const e of successfulTxEvents(record)) {
        const contract = e.attrs.get('_contract_address');
        if (!contract) continue;
        if (e.type === 'instantiate') {
          if (e.attrs.get('code_id') === '2') {
            receivers.push(contract);
            receiverPending = false;
          } else if (e.msg.action === '/cosmwasm.wasm.v1.MsgInstantiateContract') {
            // The generator instantiates with the sender as minter; ICS-721 vouchers are minted by the contract.
            const minter = byAddress.get(e.msg.sender);
            pendingInstantiations = Math.max(0, pendingInstantiations - 1);
            if (minter)
              collections.set(contract, { address: contract, minter, tokens: new Map(), nextId: 1 });
          }
          continue;
        }
        const collection = collections.get(contract);
        if (e.type !== 'wasm' || !collection) continue;
        const tokenId = e.attrs.get('token_id')!;
        switch (e.attrs.get('action')) {
          case 'mint': {
            const owner = byAddress.get(e.attrs.get('owner')!);
            if (owner) collection.tokens.set(tokenId, { id: tokenId, owner });
            break;
          }
          case 'transfer_nft': {
            const owner = byAddress.get(e.attrs.get('recipient')!);
            const token = collection.tokens.get(tokenId);
            if (token && owner) token.owner = owner;
            break;
          }
          case 'send_nft':
          case 'burn':
            collection.tokens.delete(tokenId);
            break;
        }
      }
    },
    next({ rng }) {
      const live = [...collections.values()];
      const tokens = live
        .flatMap((c) => [...c.tokens.values()].map((t) => ({ c, t })))
        .filter(({ c, t }) => !busy.has(`${c.address}/${t.id}`));
      const action = rng.weighted({
        instantiate: live.length + pendingInstantiations < 3 ? 5 : 0.2,
        receiver: receivers.length === 0 && !receiverPending ? 2 : 0,
        mint: live.length > 0 ? 5 : 0,
        transfer: tokens.length > 0 ? 4 : 0,
        send: tokens.length > 0 && receivers.length > 0 ? 0.7 : 0,
        burn: tokens.length > 4 ? 1.5 : 0,
      });
      if (action === 'instantiate') {
        const minter = rng.pick(accounts);
        pendingInstantiations += 1;
        instantiated += 1;
        return {
          kind: 'cosmos',
          signer: minter,
          msgs: [
            cw721Msgs.instantiate(minter.address, {
              name: `Devnet Wasm Collection ${instantiated}`,
              symbol: `DWC${instantiated}`,
            }),
          ],
        };
      }
      if (action === 'receiver') {
        receiverPending = true;
        const sender = rng.pick(accounts);
        return { kind: 'cosmos', signer: sender, msgs: [cw721Msgs.instantiateReceiver(sender.address)] };
      }
      if (action === 'mint') {
        const c = rng.pick(live);
        const tokenId = String(c.nextId++);
        const owner = rng.pick(accounts);
        return {
          kind: 'cosmos',
          signer: c.minter,
          msgs: [
            cw721Msgs.mint(c.minter.address, c.address, {
              tokenId,
              owner: owner.address,
              tokenUri: `ipfs://devnet/${c.address}/${tokenId}`,
            }),
          ],
        };
      }
      const { c, t } = rng.pick(tokens);
      busy.add(`${c.address}/${t.id}`);
      if (action === 'transfer') {
        const to = rng.pick(accounts.filter((a) => a !== t.owner));
        return {
          kind: 'cosmos',
          signer: t.owner,
          msgs: [cw721Msgs.transfer(t.owner.address, c.address, { recipient: to.address, tokenId: t.id })],
        };
      }
      if (action === 'send') {
        return {
          kind: 'cosmos',
          signer: t.owner,
          msgs: [cw721Msgs.send(t.owner.address, c.address, { to: rng.pick(receivers), tokenId: t.id })],
        };
      }
      return { kind: 'cosmos', signer: t.owner, msgs: [cw721Msgs.burn(t.owner.address, c.address, t.id)] };
    },
  };
}
