import { bytesToHex, fromBech32 } from 'weft/chain/address.js';
import { appendMsgIndex, coinsToString, event } from '../events.js';
import type { Auth } from '../state/auth.js';
import type { StateReader } from '../state/store.js';
import { type BankContext, type BankKeeper, type Coin, TxError } from '../types.js';

const balanceKey = (address: string, denom: string) =>
  `bank/${bytesToHex(fromBech32(address).bytes)}/${encodeURIComponent(denom)}`;

/**
 * The SDK bank module over the state store (move and wasm rollups, the L1). With `auth`, every credit
 * creates the recipient's base account when it has none, after the coins land (the SDK's `SendCoins`),
 * so an address funded by any path (a send, an IBC receive, a deposit, a mint) can sign at once.
 */
export function createStoreBank(options: { auth?: Auth } = {}): BankKeeper {
  const balance = (state: StateReader, address: string, denom: string): bigint =>
    BigInt(state.get(balanceKey(address, denom)) ?? '0');

  const add = (ctx: BankContext, address: string, coin: Coin, sign: 1n | -1n) => {
    const next = balance(ctx.store, address, coin.denom) + sign * BigInt(coin.amount);
    ctx.store.set(balanceKey(address, coin.denom), next === 0n ? undefined : next.toString());
  };
  const credit = (ctx: BankContext, address: string, coins: Coin[]) => {
    for (const coin of coins) add(ctx, address, coin, 1n);
    options.auth?.ensure(ctx.store, address);
  };

  const requireFunds = (ctx: BankContext, from: string, coins: Coin[]) => {
    for (const coin of coins) {
      const have = balance(ctx.store, from, coin.denom);
      if (have < BigInt(coin.amount)) {
        throw new TxError(
          'sdk',
          5,
          `spendable balance ${have}${coin.denom} is smaller than ${coin.amount}${coin.denom}: insufficient funds`,
        );
      }
    }
  };

  return {
    balance,
    balances(state, address) {
      const group = `bank/${bytesToHex(fromBech32(address).bytes)}`;
      return state.group(group).map((key) => ({
        denom: decodeURIComponent(key.slice(group.length + 1)),
        amount: state.get(key)!,
      }));
    },
    async send(ctx, from, to, coins) {
      requireFunds(ctx, from, coins);
      for (const coin of coins) add(ctx, from, coin, -1n);
      credit(ctx, to, coins);
      const amount = coinsToString(coins);
      ctx.events.push(
        ...appendMsgIndex(
          [
            event('coin_spent', { spender: from, amount }),
            event('coin_received', { receiver: to, amount }),
            event('transfer', { recipient: to, sender: from, amount }),
            event('message', { sender: from }),
          ],
          ctx.msgIndex,
        ),
      );
    },
    async burn(ctx, from, coins) {
      requireFunds(ctx, from, coins);
      for (const coin of coins) add(ctx, from, coin, -1n);
      const amount = coinsToString(coins);
      ctx.events.push(
        ...appendMsgIndex(
          [event('coin_spent', { spender: from, amount }), event('burn', { burner: from, amount })],
          ctx.msgIndex,
        ),
      );
    },
    async mint(ctx, to, coins) {
      credit(ctx, to, coins);
      const amount = coinsToString(coins);
      ctx.events.push(
        ...appendMsgIndex(
          [event('coin_received', { receiver: to, amount }), event('coinbase', { minter: to, amount })],
          ctx.msgIndex,
        ),
      );
    },
  };
}
