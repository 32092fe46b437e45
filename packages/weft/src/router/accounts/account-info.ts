import { type Endpoints, type HttpAnswer, troubleOfStatus } from '../../chain/endpoints.js';
import { errorMessage } from '../../common/errors.js';
import { AccountUnavailableError } from '../errors.js';

/** gRPC NotFound, as the gateway answers `account_info` of an address with no account. */
const NOT_FOUND = 5;

/** Reads `GET /cosmos/auth/v1beta1/account_info/{address}`: true when the account exists, false when not found. */
function readAccountInfo(answer: HttpAnswer): boolean {
  if (answer.status === 200) return true;
  let code: unknown;
  try {
    code = JSON.parse(answer.body)?.code;
  } catch {
    code = undefined;
  }
  if (answer.status === 404 || code === NOT_FOUND) return false;
  throw (
    troubleOfStatus(answer) ??
    new AccountUnavailableError(`${answer.url}: HTTP ${answer.status} ${answer.body.slice(0, 200)}`)
  );
}

/**
 * Whether `address` has an account on `chainId`, asked as InterwovenKit's `waitForAccountCreation` asks
 * (the account's number and sequence are what a hook is signed with). A node that does not answer, or
 * answers something else than the account or "not found", is a 503 naming the chain.
 */
export async function accountExists(rest: Endpoints, chainId: string, address: string): Promise<boolean> {
  try {
    return await rest.request(
      { path: `/cosmos/auth/v1beta1/account_info/${encodeURIComponent(address)}` },
      readAccountInfo,
    );
  } catch (err) {
    throw new AccountUnavailableError(
      `cannot tell whether ${address} has an account on ${chainId}: ${errorMessage(err)}`,
    );
  }
}
