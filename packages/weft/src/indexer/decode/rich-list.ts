import type { BalanceDelta } from '../../store/records.js';
import type { BlockBundle } from '../bundle.js';
import { accAddressFromString } from './account-address.js';
import { orderedBlockEvents } from './block-events.js';
import { type DropReporter, dropsAtHeight } from './drops.js';
import { logWithTopic, TRANSFER_TOPIC, ZERO_TOPIC } from './evm-logs.js';

/**
 * Rich-list changes of an EVM block: every ERC20 `Transfer` log (exactly three topics) moves `data` (a
 * uint256) of the token, the lowercased contract address, from `topics[1]` to `topics[2]`; the zero
 * address side of a mint or burn is skipped. Deltas are summed per account and token, in first-seen order
 * (a zero sum is kept: the holder still gets a row, as rollytics' upsert gives it).
 *
 * Unlike rollytics, which reads tx events only, block-level `finalize_block_events` count too by default:
 * minievm pays fees and distributes them with ERC20 transfers outside any tx, and leaving those out makes
 * balances drift from the chain.
 */

const EVM_EVENTS = new Set(['evm']);
// Topics are 0x hex, so any bech32 prefix reads them the same way.
const HEX_ONLY_PREFIX = 'init';

export function erc20TransferDeltas(
  bundle: Pick<BlockBundle, 'blockResults'> & { height?: number },
  options: { blockEvents?: boolean; drops?: DropReporter } = {},
): BalanceDelta[] {
  const drops = dropsAtHeight(options.drops, bundle.height ?? Number(bundle.blockResults.height));
  const malformed = (reason: string) => drops.drop('rich_list', reason);
  const totals = new Map<string, BalanceDelta>();
  const apply = (topic: string, denom: string, delta: bigint) => {
    if (topic === ZERO_TOPIC) return;
    const account = accAddressFromString(topic, HEX_ONLY_PREFIX);
    if (!account) {
      // The other side of the transfer still counts; this one is left out.
      drops.drop('rich_list', 'bad_address', { topic });
      return;
    }
    const id = `${account.hex}/${denom}`;
    const entry = totals.get(id);
    if (entry) entry.delta += delta;
    else totals.set(id, { account: account.bytes, denom, delta });
  };
  for (const { event, txIndex } of orderedBlockEvents(bundle.blockResults, EVM_EVENTS)) {
    if (txIndex === null && options.blockEvents === false) continue;
    for (const attr of event.attributes ?? []) {
      const log = logWithTopic(attr, TRANSFER_TOPIC, 3, malformed);
      if (!log) continue;
      if (!/^0x[0-9a-fA-F]+$/.test(log.data)) {
        drops.drop('rich_list', 'bad_amount', { token: log.address });
        continue;
      }
      const { topics } = log;
      const amount = BigInt(log.data);
      const denom = log.address.toLowerCase();
      apply(String(topics[1]), denom, -amount);
      apply(String(topics[2]), denom, amount);
    }
  }
  return [...totals.values()];
}
