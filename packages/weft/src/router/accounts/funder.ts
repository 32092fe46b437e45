import type { RawKey, RESTClient, Wallet } from '@initia/initia.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import {
  ETHSECP256K1_PUBKEY_TYPE,
  pubKeyToAddress,
  SECP256K1_PUBKEY_TYPE,
  toBech32,
} from '../../chain/address.js';
import { lazyRequire } from '../../common/lazy-require.js';
import type { Logger } from '../../common/logger.js';
import { AccountUnavailableError } from '../errors.js';
import type { RouterChain } from '../registry/types.js';

/**
 * The router's one sender of txs: from a key of its operator's, it sends one base unit of a chain's fee
 * denom to an address with no account there, which creates the account (the bank's `SendCoins`). The
 * funder's txs on a chain are sent one at a time, each with the next sequence, so they never race each
 * other; the sequence is read from the chain at the first send and after any refusal.
 */
export interface AccountFunder {
  /** The funder's account on `chain` (a minievm chain takes the key as ethsecp256k1). */
  addressOn(chain: RouterChain): string;
  /**
   * Sends 1 base unit of `chain`'s fee denom to `to`, simulated for gas; resolves with the tx hash once
   * the node's CheckTx accepted it (not once included). A refusal is an `AccountUnavailableError`.
   */
  send(chain: RouterChain, to: string): Promise<string>;
}

/**
 * @initia/initia.js, loaded by the first account the funder creates: about 0.5 s of CPU to load, which
 * the router (and the dev stack) would otherwise pay at start, though most routers never create one.
 */
const initia = lazyRequire<typeof import('@initia/initia.js')>('@initia/initia.js', import.meta.url);

/** The SDK's ErrWrongSequence: another sender moved the funder's sequence. */
const WRONG_SEQUENCE = 32;
const GAS_ADJUSTMENT = '1.5';

interface ChainFunder {
  wallet: Wallet;
  rest: RESTClient;
  address: string;
  denom: string;
  /** Account number and next sequence, known after the first send; unset after a refusal. */
  account?: { number: number; sequence: number };
  /** The last send in line: the next one starts once it settled. */
  tail: Promise<unknown>;
}

/** A node's refusal in words: the JSON `message` of an HTTP error, else the error's own text. */
function nodeText(err: unknown): string {
  const answer = (err as { response?: { status?: number; data?: { message?: unknown } } }).response;
  if (answer && typeof answer.data?.message === 'string')
    return `HTTP ${answer.status}: ${answer.data.message}`;
  return err instanceof Error ? err.message : String(err);
}

export function createAccountFunder(options: {
  /** 0x and 64 hex digits. */
  privateKey: string;
  timeoutMs: number;
  logger: Logger;
}): AccountFunder {
  const secret = Buffer.from(options.privateKey.slice(2), 'hex');
  const publicKey = secp256k1.getPublicKey(secret, true);
  let keys: { eth: RawKey; cosmos: RawKey } | undefined;
  const chains = new Map<string, ChainFunder>();
  const isEvm = (chain: RouterChain) => chain.minitia === 'minievm';

  const addressOn = (chain: RouterChain) =>
    toBech32(
      chain.bech32Prefix,
      pubKeyToAddress(isEvm(chain) ? ETHSECP256K1_PUBKEY_TYPE : SECP256K1_PUBKEY_TYPE, publicKey),
    );

  const funderOf = (chain: RouterChain): ChainFunder => {
    const known = chains.get(chain.chainId);
    if (known) return known;
    const refuse = (why: string) => {
      throw new AccountUnavailableError(`the router cannot create accounts on ${chain.chainId}: ${why}`);
    };
    if (!chain.rest) refuse('the registry names no REST endpoint of it');
    const fee = chain.feeAssets[0];
    if (!fee) refuse('the registry names no fee asset of it');
    const price = fee!.average || fee!.low;
    const { APIRequester, RawKey, RESTClient, Wallet } = initia();
    keys ??= { eth: new RawKey(secret, true), cosmos: new RawKey(secret, false) };
    const rest = new RESTClient(
      chain.rest!,
      { chainId: chain.chainId, gasPrices: { [fee!.denom]: price }, gasAdjustment: GAS_ADJUSTMENT },
      new APIRequester(chain.rest!, { timeout: options.timeoutMs }),
    );
    const address = addressOn(chain);
    const wallet = new Wallet(rest, isEvm(chain) ? keys.eth : keys.cosmos);
    wallet.setAccountAddress(address);
    const made: ChainFunder = { wallet, rest, address, denom: fee!.denom, tail: Promise.resolve() };
    chains.set(chain.chainId, made);
    return made;
  };

  /** One signed send with the funder's next sequence; answers the node's CheckTx result. */
  async function broadcast(funder: ChainFunder, chain: RouterChain, to: string) {
    if (!funder.account) {
      const info = await funder.wallet.accountNumberAndSequence().catch((err: unknown) => {
        throw new AccountUnavailableError(
          `the router's funder ${funder.address} has no account on ${chain.chainId} to pay from (${nodeText(err)}): fund it`,
        );
      });
      funder.account = { number: info.account_number, sequence: info.sequence };
    }
    const { number, sequence } = funder.account;
    const tx = await funder.wallet.createAndSignTx({
      msgs: [new (initia().MsgSend)(funder.address, to, { [funder.denom]: '1' })],
      accountNumber: number,
      sequence,
      feeDenoms: [funder.denom],
    });
    const result = await funder.rest.tx.broadcastSync(tx);
    return { sequence, result: result as typeof result & { code?: number | string; codespace?: string } };
  }

  async function sendNow(funder: ChainFunder, chain: RouterChain, to: string): Promise<string> {
    try {
      for (let attempt = 0; ; attempt += 1) {
        const { sequence, result } = await broadcast(funder, chain, to);
        const code = Number(result.code ?? 0);
        if (code === 0) {
          funder.account!.sequence = sequence + 1;
          options.logger.info(
            { chainId: chain.chainId, address: to, funder: funder.address, sequence, txHash: result.txhash },
            "created an op-hook signer's account",
          );
          return result.txhash;
        }
        // Another sender of the same key moved its sequence: the node says which one it expects.
        const expected = /expected (\d+)/.exec(result.raw_log ?? '')?.[1];
        if (code === WRONG_SEQUENCE && expected !== undefined && attempt === 0) {
          funder.account!.sequence = Number(expected);
          continue;
        }
        funder.account = undefined;
        throw new AccountUnavailableError(
          `the router could not create the account ${to} on ${chain.chainId}: its funder's tx was refused (code ${code}${result.codespace ? ` ${result.codespace}` : ''}: ${result.raw_log})`,
        );
      }
    } catch (err) {
      funder.account = undefined;
      if (err instanceof AccountUnavailableError) throw err;
      throw new AccountUnavailableError(
        `the router could not create the account ${to} on ${chain.chainId}: ${nodeText(err)}`,
      );
    }
  }

  return {
    addressOn,
    send(chain, to) {
      let funder: ChainFunder;
      try {
        funder = funderOf(chain);
      } catch (err) {
        return Promise.reject(err);
      }
      const sent = funder.tail.then(() => sendNow(funder, chain, to));
      funder.tail = sent.catch(() => undefined);
      return sent;
    },
  };
}
