import { l2Denom } from '../../protocol/opinit.js';
import type { OmnichainEndpoint, RouterAsset, RouterChain, RouterRegistry } from '../registry/types.js';
import { type IbcTrace, ibcDenomOf, parseIbcPath, voucherPathIn } from './denoms.js';
import { traceStart } from './lineage.js';

/** Where an asset is: a chain, the denom it holds there, and (for IBC vouchers) the denom's trace. */
export interface Place {
  chainId: string;
  denom: string;
  trace: IbcTrace;
}

interface HopBase {
  from: string;
  to: string;
  denomIn: string;
  denomOut: string;
}

/**
 * A conversion on the rollup that an OPinit deposit's hook runs as the recipient, in the deposit's
 * finalize tx, of the deposited `l2/…` coin into the token a `wrapped` registry trace names:
 *
 * - `wrap`: `wrapAll()` of an ERC20 that wraps the coin 1:1 (the devnet's CoinWrapper);
 * - `to_local`: `toLocal(receiver, denom, decimals)` of minievm's ERC20Wrapper (the registry's "Decimal
 *   Wrapper"), which takes the coin (6 decimals on Initia) and pays out its 18-decimal local ERC20, so
 *   the amount is scaled by the difference of decimals.
 */
export type DepositHook =
  | {
      kind: 'wrap';
      /** The deposited coin the wrapper takes (`l2/…`). */
      underlying: string;
      /** The wrapper ERC20 (0x). */
      wrapper: string;
    }
  | {
      kind: 'to_local';
      underlying: string;
      /** The ERC20Wrapper contract (0x); the token it pays out is the route's destination. */
      wrapper: string;
      remoteDecimals: number;
      localDecimals: number;
    };

/**
 * The conversion back, in the source tx before a withdrawal or an IBC send of a wrapped token on a minievm
 * rollup, signed by its holder:
 *
 * - `unwrap`: `unwrap(amount)` of a 1:1 wrapper (the devnet's CoinWrapper), then the hop's own msg with the
 *   coin it paid out;
 * - `to_remote`: minievm's ERC20Wrapper (`Decimal Wrapper`), whose `toRemoteAndOPWithdraw` and
 *   `toRemoteAndIBCTransfer` take the local token (approved to it first), scale it back to the coin's
 *   decimals and send the coin themselves, from the wrapper's account.
 */
export type Unwrap =
  | { kind: 'unwrap'; wrapper: string; underlying: string }
  | {
      kind: 'to_remote';
      wrapper: string;
      underlying: string;
      /** The local ERC20 the wrapper takes back. */
      token: string;
      localDecimals: number;
      remoteDecimals: number;
    };

/** A token wrapping a coin of its own chain: the wrapper, and for an ERC20Wrapper the decimals it converts between. */
interface Wrapping {
  wrapper: string;
  token: string;
  underlying: string;
  decimals?: { remote: number; local: number };
}

/** The registry's name of minievm's ERC20Wrapper in `wrapped` traces. */
const DECIMAL_WRAPPER = 'Decimal Wrapper';

export type Hop =
  | (HopBase & {
      kind: 'ibc';
      channel: string;
      counterpartyChannel: string;
      trace: IbcTrace;
      unwrap?: Unwrap;
    })
  | (HopBase & { kind: 'op_deposit'; bridgeId: string; hook?: DepositHook })
  | (HopBase & { kind: 'op_withdraw'; bridgeId: string; unwrap?: Unwrap })
  | (HopBase & { kind: 'oft'; source: OmnichainEndpoint; destination: OmnichainEndpoint });

/** The edges of the (chain, denom) graph, computed from the registry once. */
export interface HopGraph {
  registry: RouterRegistry;
  /** Hops out of a place; `ibcOnly` after an IBC hop (further hops ride the packet-forward memo). */
  hopsFrom(place: Place): Array<{ hop: Hop; to: Place }>;
  /** The place of a chain's denom (its IBC trace from the registry), or undefined for an unknown `ibc/` denom. */
  place(chainId: string, denom: string): Place | undefined;
  /**
   * Where an asset comes from (`<chain>\n<denom>`, the chain possibly outside the registry, or
   * `omnichain`): the start of its registry traces (ibc, op and wrapped steps), else its voucher path and
   * `l2/` denom unwound.
   */
  origin(place: Place): string;
}

/** At most this many hops in one transaction: IBC hops after the first ride packet-forward memos. */
export const MAX_HOPS = 3;

const plain = (denom: string): IbcTrace => ({ hops: [], base: denom });

export function createHopGraph(registry: RouterRegistry): HopGraph {
  const l1 = registry.l1();
  /** `l2/<hash>` on a rollup → the L1 denom it stands for. */
  const l2Origin = new Map<string, { bridgeId: string; l1Denom: string }>();
  /** An L1 denom → the rollups it is deposited into, and its `l2/` denom there (hashed once). */
  const deposits = new Map<string, Array<{ rollup: RouterChain; denomOut: string }>>();
  for (const rollup of registry.chains.filter((c) => c.opBridgeId && !c.isL1)) {
    for (const denom of rollup.opDenoms) {
      const denomOut = l2Denom(rollup.opBridgeId!, denom);
      l2Origin.set(`${rollup.chainId}\n${denomOut}`, { bridgeId: rollup.opBridgeId!, l1Denom: denom });
      deposits.set(denom, [...(deposits.get(denom) ?? []), { rollup, denomOut }]);
    }
  }
  // The graph is fixed for a registry: a place's hops (SHA-256 of traces and all) are worked out once.
  // Places come from requests too, so the memory is capped: past it, they are worked out each time.
  const MEMO_LIMIT = 20_000;
  const hopsKnown = new Map<string, Array<{ hop: Hop; to: Place }>>();
  const placesKnown = new Map<string, Place | undefined>();
  function knownHops(at: Place): Array<{ hop: Hop; to: Place }> {
    const key = `${at.chainId}\n${at.denom}`;
    let known = hopsKnown.get(key);
    if (!known) {
      known = hopsFrom(at);
      if (hopsKnown.size < MEMO_LIMIT) hopsKnown.set(key, known);
    }
    return known;
  }
  function knownPlace(chainId: string, denom: string): Place | undefined {
    const key = `${chainId}\n${denom}`;
    if (placesKnown.has(key)) return placesKnown.get(key);
    const found = place(chainId, denom);
    if (placesKnown.size < MEMO_LIMIT) placesKnown.set(key, found);
    return found;
  }

  /** `<rollup>\n<l2 denom>` → the ERC20s on that (minievm) rollup a deposit's hook converts the coin into. */
  const wrappers = new Map<string, Array<{ denom: string; hook: DepositHook }>>();
  for (const asset of registry.assets) {
    const key = `${asset.chainId}\n${asset.wraps?.denom}`;
    const hook = depositHook(asset, l2Origin.get(key)?.l1Denom);
    if (hook) wrappers.set(key, [...(wrappers.get(key) ?? []), { denom: asset.denom, hook }]);
  }

  /**
   * A token of a minievm rollup wrapping a coin of the same chain: its wrapper, and for minievm's
   * ERC20Wrapper the decimals it converts between (undefined when the coin's are unknown).
   */
  function wrappingOf(asset: RouterAsset | undefined): Wrapping | undefined {
    const wraps = asset?.wraps;
    const wrapper = wraps?.contract ?? asset?.tokenContract;
    if (!asset || !wraps || wraps.chainId !== asset.chainId || !wrapper || !asset.tokenContract)
      return undefined;
    if (registry.chain(asset.chainId)?.minitia !== 'minievm') return undefined;
    const wrapping: Wrapping = { wrapper, token: asset.tokenContract, underlying: wraps.denom };
    if (wraps.provider !== DECIMAL_WRAPPER) return wrapping;
    const remote = coinDecimals(asset, wraps.denom);
    return remote === undefined ? undefined : { ...wrapping, decimals: { remote, local: asset.decimals } };
  }

  /**
   * The decimals of the coin a token wraps: a deposited `l2/…` coin has those of the L1 denom it stands
   * for; another, those it is listed with, or those of what the trace step before the wrapping brought.
   */
  function coinDecimals(asset: RouterAsset, coin: string): number | undefined {
    const deposited = l2Origin.get(`${asset.chainId}\n${coin}`);
    if (deposited) return l1 ? registry.asset(l1.chainId, deposited.l1Denom)?.decimals : undefined;
    const before = asset.traces.at(-2);
    return (
      registry.asset(asset.chainId, coin)?.decimals ??
      (before?.fromChainId ? registry.asset(before.fromChainId, before.fromDenom)?.decimals : undefined)
    );
  }

  /** The hook that converts a deposited `l2/…` coin (of `l1Denom`) into `asset`, a token wrapping it. */
  function depositHook(asset: RouterAsset, l1Denom: string | undefined): DepositHook | undefined {
    const wrapping = wrappingOf(asset);
    if (!wrapping || !l1Denom) return undefined;
    const { wrapper, underlying, decimals } = wrapping;
    if (!decimals) return { kind: 'wrap', underlying, wrapper };
    return {
      kind: 'to_local',
      underlying,
      wrapper,
      remoteDecimals: decimals.remote,
      localDecimals: decimals.local,
    };
  }

  /** The conversion out of `asset` when it is a token of a minievm rollup wrapping a coin of that chain. */
  function unwrapOf(asset: RouterAsset | undefined): Unwrap | undefined {
    const wrapping = wrappingOf(asset);
    if (!wrapping) return undefined;
    const { wrapper, underlying, token, decimals } = wrapping;
    if (!decimals) return { kind: 'unwrap', wrapper, underlying };
    return {
      kind: 'to_remote',
      wrapper,
      underlying,
      token,
      localDecimals: decimals.local,
      remoteDecimals: decimals.remote,
    };
  }

  /** Where the coin a token wraps is: listed, or (an unlisted voucher) as the token's own ibc trace says. */
  function coinPlace(asset: RouterAsset, denom: string): Place | undefined {
    const listed = place(asset.chainId, denom);
    if (listed || !denom.startsWith('ibc/')) return listed;
    const path = voucherPathIn(asset.traces, denom);
    return path === undefined ? undefined : { chainId: asset.chainId, denom, trace: parseIbcPath(path) };
  }

  /** Out of a wrapped token: the withdrawal and IBC hops of the coin it wraps, each converting back first. */
  function unwrapHops(chain: RouterChain, at: Place): Array<{ hop: Hop; to: Place }> {
    const asset = registry.asset(chain.chainId, at.denom);
    const unwrap = unwrapOf(asset);
    const coin = unwrap && coinPlace(asset!, unwrap.underlying);
    if (!unwrap || !coin) return [];
    return knownHops(coin).flatMap(({ hop, to }) =>
      hop.kind === 'op_withdraw' || hop.kind === 'ibc'
        ? [{ hop: { ...hop, denomIn: at.denom, unwrap }, to }]
        : [],
    );
  }

  const members = registry.chains.filter((c) => c.omnichain);
  const memberByEid = new Map(members.map((c) => [c.omnichain!.eid, c]));

  function place(chainId: string, denom: string): Place | undefined {
    const asset = registry.asset(chainId, denom);
    const held = asset?.denom ?? denom;
    if (!held.startsWith('ibc/')) return { chainId, denom: held, trace: plain(held) };
    const path = asset?.ibcPath;
    if (!path) return undefined;
    const trace = parseIbcPath(path);
    return ibcDenomOf(trace) === held ? { chainId, denom: held, trace } : undefined;
  }

  function ibcHops(chain: RouterChain, at: Place): Array<{ hop: Hop; to: Place }> {
    const out: Array<{ hop: Hop; to: Place }> = [];
    for (const end of chain.ibcChannels) {
      const first = at.trace.hops[0];
      const wound = {
        hops: [{ port: 'transfer', channel: end.counterpartyChannelId! }, ...at.trace.hops],
        base: at.trace.base,
      };
      let trace: IbcTrace;
      if (first && first.channel === end.channelId)
        trace = { hops: at.trace.hops.slice(1), base: at.trace.base };
      else if (!first) trace = wound;
      // A voucher goes home the way it came before it goes anywhere else, unless the registry lists what
      // it becomes further on (USDC from Noble forwarded from the L1 to a rollup): no winding through
      // extra hops into denoms nobody holds.
      else if (registry.asset(end.counterpartyChainId, ibcDenomOf(wound))) trace = wound;
      else continue;
      const denomOut = ibcDenomOf(trace);
      out.push({
        hop: {
          kind: 'ibc',
          from: chain.chainId,
          to: end.counterpartyChainId,
          denomIn: at.denom,
          denomOut,
          channel: end.channelId,
          counterpartyChannel: end.counterpartyChannelId!,
          trace,
        },
        to: { chainId: end.counterpartyChainId, denom: denomOut, trace },
      });
    }
    return out;
  }

  function hopsFrom(at: Place): Array<{ hop: Hop; to: Place }> {
    const chain = registry.chain(at.chainId);
    if (!chain) return [];
    const out = [...ibcHops(chain, at), ...unwrapHops(chain, at)];
    if (chain.isL1) {
      for (const { rollup, denomOut } of deposits.get(at.denom) ?? []) {
        const deposit = {
          kind: 'op_deposit',
          from: chain.chainId,
          to: rollup.chainId,
          denomIn: at.denom,
          bridgeId: rollup.opBridgeId!,
        } as const;
        out.push({
          hop: { ...deposit, denomOut },
          to: { chainId: rollup.chainId, denom: denomOut, trace: plain(denomOut) },
        });
        // The same deposit with a hook that wraps what arrives: it ends as the wrapper token.
        for (const wrapper of wrappers.get(`${rollup.chainId}\n${denomOut}`) ?? []) {
          out.push({
            hop: { ...deposit, denomOut: wrapper.denom, hook: wrapper.hook },
            to: { chainId: rollup.chainId, denom: wrapper.denom, trace: plain(wrapper.denom) },
          });
        }
      }
    }
    const withdrawal = l2Origin.get(`${chain.chainId}\n${at.denom}`);
    if (withdrawal && l1) {
      const back = place(l1.chainId, withdrawal.l1Denom);
      if (back) {
        out.push({
          hop: {
            kind: 'op_withdraw',
            from: chain.chainId,
            to: l1.chainId,
            denomIn: at.denom,
            denomOut: back.denom,
            bridgeId: withdrawal.bridgeId,
          },
          to: back,
        });
      }
    }
    // OFT sends start from every endpoint: an EVM `send` with the quoted fee as value, a Move `oft::send`.
    const source = chain.omnichain;
    if (source && at.denom === source.denom) {
      for (const eid of [...source.peers].sort((a, b) => a - b)) {
        const peer = memberByEid.get(eid);
        if (!peer?.omnichain) continue;
        const denomOut = peer.omnichain.denom;
        out.push({
          hop: {
            kind: 'oft',
            from: chain.chainId,
            to: peer.chainId,
            denomIn: at.denom,
            denomOut,
            source,
            destination: peer.omnichain,
          },
          to: { chainId: peer.chainId, denom: denomOut, trace: plain(denomOut) },
        });
      }
    }
    return out;
  }

  function origin(at: Place, depth = 0): string {
    // The registry's own account first: the traces of a listed asset lead back to where it started.
    const asset = depth < 8 ? registry.asset(at.chainId, at.denom) : undefined;
    const start = asset && traceStart(asset);
    if (start) {
      const chainId = start.fromChainId ?? start.fromChainName!;
      const from = registry.chain(chainId) ? place(chainId, start.fromDenom) : undefined;
      return from ? origin(from, depth + 1) : `${chainId}\n${start.fromDenom}`;
    }
    let chainId = at.chainId;
    for (const [i, hop] of at.trace.hops.entries()) {
      const end = registry.chain(chainId)?.ibcChannels.find((c) => c.channelId === hop.channel);
      // A path that leaves the registry: the voucher as the last chain the registry knows holds it.
      if (!end) return `${chainId}\n${ibcDenomOf({ hops: at.trace.hops.slice(i), base: at.trace.base })}`;
      chainId = end.counterpartyChainId;
    }
    const base = at.trace.base;
    // The voucher's base where it was minted: a listed asset there has traces of its own.
    if (at.trace.hops.length > 0 && registry.asset(chainId, base))
      return origin({ chainId, denom: base, trace: plain(base) }, depth + 1);
    const l2 = l2Origin.get(`${chainId}\n${base}`);
    if (l2 && l1) {
      const back = place(l1.chainId, l2.l1Denom);
      if (back) return origin(back, depth + 1);
    }
    const member = registry.chain(chainId)?.omnichain;
    // Every member's OFT token is one asset.
    if (member && member.denom === base) return 'omnichain';
    return `${chainId}\n${base}`;
  }

  return {
    registry,
    hopsFrom: knownHops,
    place: knownPlace,
    origin,
  };
}
