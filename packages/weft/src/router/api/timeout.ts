import { RouteRequestError } from '../errors.js';

const MAX_TIMEOUT_SECONDS = 7 * 24 * 3600;

/** An IBC timeout in seconds from now (`timeout_seconds` of `/msgs`, `timeout` of `/nft`): 1 s to 7 days. */
export function timeoutSecondsOf(raw: string | number | undefined, field: string, fallback: number): number {
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > MAX_TIMEOUT_SECONDS)
    throw new RouteRequestError(`${field} must be an integer from 1 to ${MAX_TIMEOUT_SECONDS}`);
  return value;
}
