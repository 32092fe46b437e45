/** `Transfer(address,address,uint256)`: ERC20 (3 topics) and ERC721 (4 topics, the token id indexed). */
export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
export const ZERO_TOPIC = `0x${'0'.repeat(64)}`;

/** An EVM log as minievm writes it in the `log` attribute of an `evm` event. */
export interface EvmLog {
  address: string;
  /** Hex strings as minievm writes them; only the first is compared here. */
  topics: string[];
  data: string;
}

const UNREADABLE = Symbol('unreadable');
const parsedLogs = new WeakMap<object, unknown>();

/**
 * `JSON.parse` of a `log` attribute's value, undefined when it is not JSON. The account grep, the NFT
 * passes and the rich list all read the same attribute objects of a block, so each value is parsed
 * once (kept per attribute object, forgotten with the block). The result is shared: read it only.
 */
export function parsedLogValue(attr: { value: string }): unknown {
  let parsed = parsedLogs.get(attr);
  if (parsed === undefined) {
    try {
      parsed = JSON.parse(attr.value);
    } catch {
      parsed = UNREADABLE;
    }
    parsedLogs.set(attr, parsed);
  }
  return parsed === UNREADABLE ? undefined : parsed;
}

/**
 * The attribute's log when it is a `log` whose first of exactly `topicCount` topics is `topic`;
 * undefined for any other attribute or a log that does not read, which `malformed` hears of.
 */
export function logWithTopic(
  attr: { key: string; value: string },
  topic: string,
  topicCount: number,
  malformed?: (reason: string) => void,
): EvmLog | undefined {
  if (attr.key !== 'log' || !attr.value.includes(topic)) return undefined;
  const log = parsedLogValue(attr) as
    | { address?: unknown; topics?: unknown; data?: unknown }
    | null
    | undefined;
  if (log === undefined || log === null || typeof log !== 'object') {
    malformed?.('bad_json');
    return undefined;
  }
  const { address, topics, data } = log;
  if (!Array.isArray(topics) || typeof address !== 'string' || typeof data !== 'string') {
    malformed?.('bad_log');
    return undefined;
  }
  // Another event, or a Transfer of the other standard (ERC20 has 3 topics, ERC721 4): not malformed.
  if (topics.length !== topicCount || topics[0] !== topic) return undefined;
  return { address, topics: topics as string[], data };
}
