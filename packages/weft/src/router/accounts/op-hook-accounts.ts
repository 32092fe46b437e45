import { createEndpoints, type Endpoints } from '../../chain/endpoints.js';
import type { Logger } from '../../common/logger.js';
import { AccountCreationLimitError, AccountUnavailableError, RouteRequestError } from '../errors.js';
import type { ChainAddress } from '../msgs/addresses.js';
import type { RouterChain } from '../registry/types.js';
import { accountExists } from './account-info.js';
import { type AccountFunder, createAccountFunder } from './funder.js';

/**
 * What `/op-hook` promises InterwovenKit: once it answers, the hook's signer has an account on the hook
 * chain, or will within InterwovenKit's wait (`waitForAccountCreation`: 24 polls 5 s apart). A hook is
 * signed with the account's number and sequence, and a first-time user's account would only come with
 * the deposit that carries the hook, so without help the wallet waits out its 2 minutes and fails.
 */
export interface OpHookAccounts {
  /**
   * Resolves when `signer` has an account on `chain`, or its creation was accepted by the chain's node
   * (its inclusion is not waited for). Without a funder, a signer with no account is a 400.
   */
  ensure(chain: RouterChain, signer: ChainAddress & { bech32: string }): Promise<void>;
  /** The funder's account on `chain`, when the router has a funder. */
  funderOn(chain: RouterChain): string | undefined;
  close(): Promise<void>;
}

export interface OpHookAccountsOptions {
  /** The funder's key and its cap of creations per minute; absent: the router creates no account. */
  funder?: { privateKey: string; perMinute: number };
  timeoutMs: number;
  logger: Logger;
  now?: () => number;
}

/** How long a sent creation counts as pending: a second `/op-hook` meanwhile does not send again. */
const PENDING_MS = 120_000;
const MINUTE_MS = 60_000;

export const FUNDER_SETTING = '--op-hook-funder-key / ROUTER_OP_HOOK_FUNDER_KEY';

export function createOpHookAccounts(options: OpHookAccountsOptions): OpHookAccounts {
  const now = options.now ?? Date.now;
  const funder: AccountFunder | undefined = options.funder
    ? createAccountFunder({
        privateKey: options.funder.privateKey,
        timeoutMs: options.timeoutMs,
        logger: options.logger,
      })
    : undefined;
  const perMinute = options.funder?.perMinute ?? 0;
  const endpoints = new Map<string, Endpoints>();
  const restOf = (chain: RouterChain): Endpoints => {
    if (!chain.rest)
      throw new AccountUnavailableError(`${chain.chainId} has no REST endpoint in the registry`);
    let known = endpoints.get(chain.rest);
    if (!known) {
      known = createEndpoints([chain.rest], { timeoutMs: options.timeoutMs });
      endpoints.set(chain.rest, known);
    }
    return known;
  };
  /** Creations sent or in flight, by `<chain id>/<account hex>`, with when they were admitted. */
  const pending = new Map<string, { at: number; sent: Promise<void> }>();
  /** When each creation of the last minute was admitted, oldest first. */
  const admitted: number[] = [];

  const forget = (t: number) => {
    for (const [key, entry] of pending) if (t - entry.at >= PENDING_MS) pending.delete(key);
    while (admitted.length > 0 && t - admitted[0]! >= MINUTE_MS) admitted.shift();
  };

  return {
    funderOn: (chain) => funder?.addressOn(chain),
    async ensure(chain, signer) {
      const key = `${chain.chainId}/${Buffer.from(signer.bytes).toString('hex')}`;
      if (await accountExists(restOf(chain), chain.chainId, signer.bech32)) {
        pending.delete(key);
        return;
      }
      if (!funder)
        throw new RouteRequestError(
          `the account ${signer.bech32} does not exist on ${chain.chainId}, and this router creates none (${FUNDER_SETTING} is not set): ` +
            'the hook is signed with the account number and sequence it has there, so it must exist first; ' +
            `any transfer to it on ${chain.chainId} creates it`,
        );
      // From here to the entry's insertion nothing awaits, so two requests for one signer send once.
      const t = now();
      forget(t);
      const known = pending.get(key);
      if (known) return known.sent;
      if (admitted.length >= perMinute) {
        const retryAfter = Math.ceil((admitted[0]! + MINUTE_MS - t) / 1000);
        throw new AccountCreationLimitError(
          `the router creates at most ${perMinute} account${perMinute === 1 ? '' : 's'} a minute for op-hook signers, and ${signer.bech32} has none on ${chain.chainId}: retry in ${retryAfter} s`,
          retryAfter,
        );
      }
      admitted.push(t);
      const sent = funder.send(chain, signer.bech32).then(() => undefined);
      pending.set(key, { at: t, sent });
      // A refused creation may be asked again at once.
      sent.catch(() => {
        if (pending.get(key)?.sent === sent) pending.delete(key);
      });
      return sent;
    },
    async close() {
      await Promise.all([...endpoints.values()].map((e) => e.close()));
    },
  };
}
