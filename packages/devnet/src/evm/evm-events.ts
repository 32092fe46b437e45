import { getAddress } from 'viem';
import { appendMsgIndex, event } from '../events.js';
import type { AbciEvent } from '../types.js';
import type { EvmLog } from './executor.js';

/** The events minievm's keeper emits for EVM executions (x/evm/keeper/context.go, x/evm/types/log.go). */

const hex = (bytes: Uint8Array) =>
  `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`;

const MAX_CACHED = 50_000;
const checksums = new Map<string, string>();

/** `common.Address.Hex()`: EIP-55 checksum form. */
export function checksumAddress(address: Uint8Array): string {
  const lower = hex(address);
  let found = checksums.get(lower);
  if (found === undefined) {
    found = getAddress(lower);
    if (checksums.size >= MAX_CACHED) checksums.clear();
    checksums.set(lower, found);
  }
  return found;
}

/** `json.Marshal(types.Log)`: checksum address, lowercase topics (omitted when none), data `0x` when empty. */
export function logJson(log: EvmLog): string {
  const topics = log.topics.map(hex);
  return JSON.stringify(
    topics.length > 0
      ? { address: checksumAddress(log.address), topics, data: hex(log.data) }
      : { address: checksumAddress(log.address), data: hex(log.data) },
  );
}

/** `types.Log` of a msg response. */
export function responseLog(log: EvmLog): { address: string; topics: string[]; data: string } {
  return { address: checksumAddress(log.address), topics: log.topics.map(hex), data: hex(log.data) };
}

/**
 * What one successful `EVMCall`/`EVMCreate` emits: `contract_created` for every contract the state DB
 * created, the `call` or `create` action event, then one `evm` event with a `log` attribute per log.
 */
export function executionEvents(input: {
  kind: 'call' | 'create';
  contract: Uint8Array;
  ret: Uint8Array;
  logs: EvmLog[];
  createdContracts: Uint8Array[];
  msgIndex: number | undefined;
}): AbciEvent[] {
  const events: AbciEvent[] = input.createdContracts.map((address) =>
    event('contract_created', { contract: checksumAddress(address) }),
  );
  events.push(event(input.kind, { contract: checksumAddress(input.contract), ret: hex(input.ret) }));
  events.push({
    type: 'evm',
    attributes: input.logs.map((log) => ({ key: 'log', value: logJson(log), index: true })),
  });
  return appendMsgIndex(events, input.msgIndex);
}
