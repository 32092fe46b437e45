import { decodeFunctionResult, encodeFunctionData, type Hex, parseAbi } from 'viem';
import { createEndpoints, type Endpoints, parseJson } from '../../chain/endpoints.js';
import { UpstreamError } from '../../common/errors.js';
import type { ChainFacts } from '../graph/plan.js';
import type { RouterRegistry } from './types.js';

const OFT_ABI = parseAbi([
  'struct SendParam { uint32 dstEid; bytes32 to; uint256 amountLD; uint256 minAmountLD; bytes extraOptions; bytes composeMsg; bytes oftCmd; }',
  'struct MessagingFee { uint256 nativeFee; uint256 lzTokenFee; }',
  'function quoteSend(SendParam sendParam, bool payInLzToken) view returns (MessagingFee)',
]);

const ZERO32 = `0x${'00'.repeat(32)}` as Hex;
const QUOTE_TTL_MS = 60_000;
/** A chain's block time is asked again after this long; the answer is extrapolated by the wall clock meanwhile. */
const CHAIN_TIME_TTL_MS = 5_000;

/** Go's `time.Duration` text (`168h0m0s`, `10s`, `1.5s`, `500ms`) in seconds. */
export function parseGoDuration(text: string): number {
  const units: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 0.001, us: 1e-6, µs: 1e-6, ns: 1e-9 };
  let seconds = 0;
  let matched = '';
  for (const m of text.matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s|us|µs|ns)/g)) {
    seconds += Number(m[1]) * units[m[2]!]!;
    matched += m[0];
  }
  if (matched !== text || matched === '') throw new UpstreamError(`not a duration: ${text}`);
  return seconds;
}

/**
 * What routes need from the chains' nodes, asked once and kept: each OPinit bridge's timing (L1 REST
 * `opinit/ophost/v1/bridges/{id}`), the OFT messaging fee (`quoteSend` over EVM JSON-RPC, the Move OFT's
 * `oft::quote_send` view over REST) and each chain's block time (CometBFT `/status`), against which IBC
 * timeouts are judged.
 */
export function createChainFacts(
  registry: RouterRegistry,
  options: { timeoutMs?: number } = {},
): ChainFacts & {
  close(): Promise<void>;
} {
  const timeoutMs = options.timeoutMs ?? 3000;
  const endpoints = new Map<string, Endpoints>();
  const endpointsOf = (url: string) => {
    const known = endpoints.get(url);
    if (known) return known;
    const made = createEndpoints([url], { timeoutMs });
    endpoints.set(url, made);
    return made;
  };
  const withdrawal = new Map<string, Promise<number>>();
  const quotes = new Map<string, { at: number; fee: Promise<bigint> }>();
  const times = new Map<string, { at: number; offset: Promise<number | undefined> }>();

  /** `quoteSend` of the EVM OFT over JSON-RPC `eth_call`. */
  function evmQuote(chainId: string, oft: string, dstEid: number): Promise<bigint> {
    const url = registry.chain(chainId)?.jsonRpc;
    if (!url) return Promise.reject(new UpstreamError(`chain ${chainId} has no EVM JSON-RPC endpoint`));
    const data = encodeFunctionData({
      abi: OFT_ABI,
      functionName: 'quoteSend',
      args: [
        {
          dstEid,
          to: ZERO32,
          amountLD: 0n,
          minAmountLD: 0n,
          extraOptions: '0x',
          composeMsg: '0x',
          oftCmd: '0x',
        },
        false,
      ],
    });
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'eth_call',
      params: [{ to: oft, data }, 'latest'],
    });
    return endpointsOf(url)
      .request({ method: 'POST', path: '', body }, parseJson)
      .then((json: any) => {
        if (typeof json.result !== 'string')
          throw new UpstreamError(`quoteSend on ${chainId}: ${JSON.stringify(json.error)}`);
        const quote = decodeFunctionResult({
          abi: OFT_ABI,
          functionName: 'quoteSend',
          data: json.result as Hex,
        });
        return quote.nativeFee;
      });
  }

  /** The Move OFT's `#[view] oft::quote_send` over REST `view/json`: `(native_fee, zro_fee)`. */
  function moveQuote(
    chainId: string,
    rest: string | undefined,
    oft: string,
    dstEid: number,
  ): Promise<bigint> {
    if (!rest) return Promise.reject(new UpstreamError(`chain ${chainId} has no REST endpoint`));
    const body = JSON.stringify({
      address: oft,
      module_name: 'oft',
      function_name: 'quote_send',
      type_args: [],
      args: [dstEid, ZERO32, '0', '0', '0x', '0x', '0x', false].map((a) => JSON.stringify(a)),
    });
    return endpointsOf(rest)
      .request({ method: 'POST', path: '/initia/move/v1/view/json', body }, parseJson)
      .then((json: any) => {
        let fees: unknown;
        try {
          fees = JSON.parse(String(json?.data));
        } catch {
          fees = undefined;
        }
        const native = Array.isArray(fees) ? fees[0] : undefined;
        if (typeof native !== 'string' || !/^\d+$/.test(native))
          throw new UpstreamError(`oft::quote_send on ${chainId}: ${JSON.stringify(json).slice(0, 200)}`);
        return BigInt(native);
      });
  }

  return {
    withdrawalSeconds(bridgeId) {
      let known = withdrawal.get(bridgeId);
      if (!known) {
        const rest = registry.l1()?.rest;
        if (!rest) return Promise.reject(new UpstreamError('the registry names no L1 REST endpoint'));
        known = endpointsOf(rest)
          .request({ path: `/opinit/ophost/v1/bridges/${bridgeId}` }, parseJson)
          .then((json: any) => {
            const config = json.bridge_config;
            if (!config) throw new UpstreamError(`the L1 has no OPinit bridge ${bridgeId}`);
            return Math.ceil(
              parseGoDuration(String(config.finalization_period)) +
                parseGoDuration(String(config.submission_interval)),
            );
          });
        // A failed lookup is asked again next time.
        known.catch(() => withdrawal.delete(bridgeId));
        withdrawal.set(bridgeId, known);
      }
      return known;
    },
    omnichainFee(chainId, oft, dstEid) {
      const key = `${chainId}/${dstEid}`;
      const cached = quotes.get(key);
      if (cached && Date.now() - cached.at < QUOTE_TTL_MS) return cached.fee;
      const chain = registry.chain(chainId);
      const fee =
        chain?.omnichain?.kind === 'move'
          ? moveQuote(chainId, chain.rest, oft, dstEid)
          : evmQuote(chainId, oft, dstEid);
      fee.catch(() => quotes.delete(key));
      quotes.set(key, { at: Date.now(), fee });
      return fee;
    },
    async chainTimeMs(chainId) {
      const cached = times.get(chainId);
      if (cached && Date.now() - cached.at < CHAIN_TIME_TTL_MS) {
        const offset = await cached.offset;
        return offset === undefined ? undefined : Date.now() + offset;
      }
      const rpc = registry.chain(chainId)?.rpc;
      if (!rpc) return undefined;
      const asked = Date.now();
      // Kept as the chain's offset from the wall clock; a node that does not answer leaves it unknown.
      const offset = endpointsOf(rpc)
        .request({ path: '/status' }, parseJson)
        .then((json: any) => {
          const ms = Date.parse(String(json?.result?.sync_info?.latest_block_time));
          return Number.isFinite(ms) ? ms - asked : undefined;
        })
        .catch(() => undefined);
      times.set(chainId, { at: asked, offset });
      const known = await offset;
      return known === undefined ? undefined : Date.now() + known;
    },
    async close() {
      await Promise.all([...endpoints.values()].map((e) => e.close()));
    },
  };
}
