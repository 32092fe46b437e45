import { type AccountRef, accAddressFromString } from './account-address.js';
import type { CometEvent } from './block-events.js';
import { type DropReporter, ignoreDrops } from './drops.js';
import { parsedLogValue } from './evm-logs.js';

/**
 * The accounts a tx touches, grepped from its events as rollytics' `GrepAddressesFromTx` does, but with the
 * chain's bech32 prefix instead of a hard-coded `init1`:
 * - `move` `data`: every `0x…` hex run in the JSON. rollytics also looks the `store_addr` of
 *   `0x1::fungible_asset…` events up in its `fa_store` table to add the store's owner, but passes the
 *   `0x…` text for a `bytea` column, which PostgreSQL reads as those ASCII bytes: it never finds a row
 *   (rollytics@3a2b99d), so no owner is added there or here (see packages/weft/src/api/README.md, "Tx accounts");
 * - `evm` `log`: the log address and the address-shaped topics after the first;
 * - `call` `ret`: skipped, so addresses that only appear in EVM return data never become accounts (what
 *   rollytics' evm-ret cleanup removes after the fact);
 * - anything else: each comma-separated piece that is a whole bech32 or `0x` hex address.
 */

const MOVE_HEX = /0x[a-fA-F0-9]{1,64}/g;
const HEX_ADDRESS = /^0x[a-fA-F0-9]{1,64}$/;
const PADDED_TOPIC = '0x000000000000000000000000';

const bech32Patterns = new Map<string, RegExp>();
function bech32Pattern(prefix: string): RegExp {
  let pattern = bech32Patterns.get(prefix);
  if (!pattern) {
    const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    pattern = new RegExp(`^${escaped}1(?:[a-z0-9]{38}|[a-z0-9]{58})$`);
    bech32Patterns.set(prefix, pattern);
  }
  return pattern;
}

/** Accounts in first-seen order, de-duplicated by their bytes. */
export interface AccountList {
  /** Adds the account a string names (rollytics' `AccAddressFromString`); ignores what does not parse. */
  addString(text: string): void;
  add(account: AccountRef): void;
  /** The accounts with the signer flagged (and added when the events did not name it). */
  withSigner(signer: AccountRef | null): Array<{ address: Uint8Array; signer: boolean }>;
}

// A class rather than closures: one list per tx and per receipt, so no functions are made per list.
class Accounts implements AccountList {
  private readonly seen = new Map<string, AccountRef>();
  constructor(private readonly prefix: string) {}

  add(account: AccountRef): void {
    if (!this.seen.has(account.hex)) this.seen.set(account.hex, account);
  }

  addString(text: string): void {
    const account = accAddressFromString(text, this.prefix);
    if (account) this.add(account);
  }

  withSigner(signer: AccountRef | null): Array<{ address: Uint8Array; signer: boolean }> {
    if (signer) this.add(signer);
    return [...this.seen.values()].map((a) => ({ address: a.bytes, signer: a.hex === signer?.hex }));
  }
}

export function createAccountList(prefix: string): AccountList {
  return new Accounts(prefix);
}

function grepPlainValue(value: string, prefix: string, bech32: RegExp, out: AccountList): void {
  const bechStart = `${prefix}1`;
  for (const piece of value.includes(',') ? value.split(',') : [value]) {
    if (piece.startsWith('0x')) {
      if (HEX_ADDRESS.test(piece)) out.addString(piece);
    } else if (piece.startsWith(bechStart) && bech32.test(piece)) {
      out.addString(piece);
    }
  }
}

function grepEvmLog(attr: { value: string }, out: AccountList, drops: DropReporter): void {
  const log = parsedLogValue(attr) as { address?: unknown; topics?: unknown } | null | undefined;
  if (log === undefined || log === null || typeof log !== 'object') {
    drops.drop('tx_accounts', 'bad_json', { attribute: 'log' });
    return;
  }
  if (typeof log.address === 'string') out.addString(log.address);
  if (Array.isArray(log.topics)) {
    for (let i = 1; i < log.topics.length; i += 1) {
      const topic = log.topics[i];
      if (typeof topic === 'string' && topic.startsWith(PADDED_TOPIC)) out.addString(topic);
    }
  }
}

export function grepTxAccounts(
  events: CometEvent[] | null | undefined,
  prefix: string,
  drops: DropReporter = ignoreDrops,
): AccountList {
  const out = createAccountList(prefix);
  const bech32 = bech32Pattern(prefix);
  for (const event of events ?? []) {
    for (const attr of event.attributes ?? []) {
      const value = attr.value ?? '';
      if (event.type === 'move' && attr.key === 'data') {
        for (const match of value.matchAll(MOVE_HEX)) out.addString(match[0]);
      } else if (event.type === 'evm' && attr.key === 'log') {
        grepEvmLog(attr, out, drops);
      } else if (event.type === 'call' && attr.key === 'ret') {
        // EVM return data: never an account (see above)
      } else {
        grepPlainValue(value, prefix, bech32, out);
      }
    }
  }
  return out;
}
