import { toHexAddress } from '../chain/address.js';
import { createJsonRpcClient } from '../chain/json-rpc-client.js';

/**
 * What the rich list may ask on replay beyond what it asked while recording. Its repairs depend on how the
 * heights were batched: a token first met in a batch is checked for code the block before the batch
 * (`eth_getCode`), and a token it re-reads is read at the batch's last height for every account the store
 * knows by then, which the block indexer running ahead decides. So for each token the recording saw checked,
 * the recorder also asks its code at every height, and for each token it saw re-read, every known
 * account's `balanceOf` at every height: real answers to every question a replay's batching can lead to.
 */

export interface RichListCoverage {
  /** Notes a JSON-RPC call the indexer made. */
  seen(call: { method?: string; params?: unknown[] }): void;
  /** Asks (through the recording proxy) what the noted tokens' repairs may ask in `from..to`. */
  cover(options: {
    jsonRpc: string;
    from: number;
    to: number;
    accounts: readonly Uint8Array[];
    timeoutMs: number;
  }): Promise<number>;
}

const BALANCE_OF = '0x70a08231';
const EVM_ADDRESS_BYTES = 20;

export function createRichListCoverage(): RichListCoverage {
  const checked = new Set<string>();
  const reread = new Set<string>();
  return {
    seen(call) {
      const [first] = call.params ?? [];
      if (call.method === 'eth_getCode' && typeof first === 'string') checked.add(first);
      const target = first as { to?: unknown; data?: unknown } | undefined;
      if (
        call.method === 'eth_call' &&
        typeof target?.to === 'string' &&
        typeof target.data === 'string' &&
        target.data.startsWith(BALANCE_OF)
      )
        reread.add(target.to);
    },
    async cover({ jsonRpc, from, to, accounts, timeoutMs }) {
      if (checked.size === 0 && reread.size === 0) return 0;
      const client = createJsonRpcClient([jsonRpc], { timeoutMs });
      const holders = accounts.filter((a) => a.length === EVM_ADDRESS_BYTES).map(toHexAddress);
      let asked = 0;
      try {
        for (let height = from; height <= to; height++) {
          await Promise.all([
            ...[...checked].map((token) => (height < to ? client.hasCode(token, height) : undefined)),
            ...[...reread].map((token) =>
              height > from ? client.balancesOf(token, holders, height) : undefined,
            ),
          ]);
          asked += (height < to ? checked.size : 0) + (height > from ? reread.size * holders.length : 0);
        }
      } finally {
        await client.endpoints.close();
      }
      return asked;
    },
  };
}
