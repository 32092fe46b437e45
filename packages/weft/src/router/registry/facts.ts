import { decodeFunctionResult, encodeFunctionData, type Hex, parseAbi } from 'viem';
import { createEndpoints, type Endpoints, parseJson } from '../../chain/endpoints.js';
import { UpstreamError } from '../../common/errors.js';
import type { ChainFacts } from '../graph/plan.js';
import type { RouterRegistry } from './types.js';

const ALLOWANCE_ABI = parseAbi(['function allowance(address owner, address spender) view returns (uint256)']);
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
 * `oft::quote_send` view over REST; for a minute), the ERC20 of a coin on a minievm rollup (what a deposit
 * hook approves) and each chain's block time (CometBFT `/status`, for 5 s), against which IBC timeouts are
 * judged; and, read each time, the allowance that decides whether a hook approves at all.
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
  const erc20s = new Map<string, Promise<string>>();
  /** `eth_call` of `data` on `to` at the latest block of a chain's JSON-RPC. */
  const ethCall = (chainId: string, to: string, data: Hex): Promise<Hex> => {
    const url = registry.chain(chainId)?.jsonRpc;
    if (!url) return Promise.reject(new UpstreamError(`chain ${chainId} has no EVM JSON-RPC endpoint`));
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'eth_call',
      params: [{ to, data }, 'latest'],
    });
    return endpointsOf(url)
      .request({ method: 'POST', path: '', body }, parseJson)
      .then((json: any) => {
        if (typeof json.result !== 'string')
          throw new UpstreamError(`eth_call on ${chainId}: ${JSON.stringify(json.error)}`);
        return json.result as Hex;
      });
  };

  /** `quoteSend` of the EVM OFT over JSON-RPC `eth_call`. */
  function evmQuote(chainId: string, oft: string, dstEid: number): Promise<bigint> {
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
    return ethCall(chainId, oft, data).then(
      (result) => decodeFunctionResult({ abi: OFT_ABI, functionName: 'quoteSend', data: result }).nativeFee,
    );
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
    erc20Of(chainId, denom) {
      const key = `${chainId}\n${denom}`;
      let known = erc20s.get(key);
      if (!known) {
        const rest = registry.chain(chainId)?.rest;
        if (!rest) return Promise.reject(new UpstreamError(`chain ${chainId} has no REST endpoint`));
        known = endpointsOf(rest)
          .request(
            { path: `/minievm/evm/v1/contracts/by_denom?denom=${encodeURIComponent(denom)}` },
            parseJson,
          )
          .then((json: any) => {
            if (typeof json.address !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(json.address))
              throw new UpstreamError(`chain ${chainId} names no ERC20 of ${denom}`);
            return json.address as string;
          });
        // A coin's ERC20 never moves: kept once found, asked again after a failure.
        known.catch(() => erc20s.delete(key));
        erc20s.set(key, known);
      }
      return known;
    },
    async erc20Allowance(chainId, token, owner, spender) {
      const data = encodeFunctionData({
        abi: ALLOWANCE_ABI,
        functionName: 'allowance',
        args: [owner as Hex, spender as Hex],
      });
      const result = await ethCall(chainId, token, data);
      return decodeFunctionResult({ abi: ALLOWANCE_ABI, functionName: 'allowance', data: result });
    },
    async close() {
      await Promise.all([...endpoints.values()].map((e) => e.close()));
    },
  };
}
