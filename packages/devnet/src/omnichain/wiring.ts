import type { Hex } from 'viem';
import type { Logger } from 'weft/common/logger.js';
import { erc20Denom } from 'weft/protocol/evm-denom.js';
import { createOmnichainRelayer, type OmnichainRelayer } from '../relayers/omnichain.js';
import { cosmosSide } from '../relayers/omnichain-cosmos.js';
import { evmSide } from '../relayers/omnichain-evm.js';
import type { ChainInfo } from '../types.js';
import { OMNI_MOVE_DENOM } from './move-module.js';
import {
  eidOf,
  evmAddresses,
  MOVE_PACKAGE,
  OFT_SYMBOL,
  type OmnichainKind,
  type OmnichainMember,
  type OmnichainSetup,
  omnichainOperator,
  SHARED_DECIMALS,
} from './network.js';

/**
 * How a network joins its chains to the bridge: members are fixed before the chains are built (each
 * chain's genesis needs its peers), the relayer once their node surfaces listen.
 */

/** The bridge's members: EVM chains and Move chains (the L1), with their endpoint ids. */
export function omnichainMembers(
  chains: Array<{ chainId: string; kind: OmnichainKind }>,
  eids: Record<string, number> = {},
): OmnichainMember[] {
  const members = chains.map((c) => ({ ...c, eid: eids[c.chainId] ?? eidOf(c.chainId) }));
  if (new Set(members.map((m) => m.eid)).size !== members.length)
    throw new Error('omnichain: two members share an endpoint id; pass explicit eids');
  return members;
}

/** The `omnichain` input of one chain's VM parts. */
export function omnichainSetupFor(seed: string, members: OmnichainMember[], chainId: string): OmnichainSetup {
  const self = members.find((m) => m.chainId === chainId);
  if (!self) throw new Error(`omnichain: ${chainId} is not a member`);
  return { seed, self, members };
}

export interface RelayedChain {
  member: OmnichainMember;
  info: ChainInfo;
  urls: { rpc: string; rest: string; jsonRpc?: string };
}

/** The verifier/executor over every member's node surfaces, signing with the operator's keys. */
export function createOmnichainRelayerFor(options: {
  seed: string;
  chains: RelayedChain[];
  delayMs?: number;
  retryDelayMs?: number;
  pollMs?: number;
  /** Read packets from genesis (tests) rather than from the current block. */
  fromGenesis?: boolean;
  logger: Logger;
}): OmnichainRelayer {
  const evmOperator = omnichainOperator(options.seed, 'ethsecp256k1', 'init');
  const { endpoint } = evmAddresses(evmOperator.hexAddress as Hex);
  return createOmnichainRelayer({
    sides: options.chains.map(({ member, info, urls }) =>
      member.kind === 'evm'
        ? evmSide({
            eid: member.eid,
            chainId: member.chainId,
            evmChainId: info.evmChainId!,
            jsonRpc: urls.jsonRpc!,
            endpoint,
            privateKey: evmOperator.privateKey as Hex,
            ...(options.pollMs !== undefined ? { waitPollMs: options.pollMs } : {}),
            ...(options.fromGenesis ? { fromBlock: 1n } : {}),
          })
        : cosmosSide({
            eid: member.eid,
            chainId: member.chainId,
            rpc: urls.rpc,
            rest: urls.rest,
            operator: omnichainOperator(options.seed, 'secp256k1', info.bech32Prefix),
            feeDenom: info.denom,
            minGasPrice: info.minGasPrice,
            ...(options.pollMs !== undefined ? { waitPollMs: options.pollMs } : {}),
            ...(options.fromGenesis ? { fromHeight: 1 } : {}),
          }),
    ),
    ...(options.delayMs !== undefined ? { delayMs: options.delayMs } : {}),
    ...(options.retryDelayMs !== undefined ? { retryDelayMs: options.retryDelayMs } : {}),
    ...(options.pollMs !== undefined ? { pollMs: options.pollMs } : {}),
    logger: options.logger,
  });
}

/** What the registry writer records of each member (an initia-registry style OFT entry). */
export function omnichainRegistry(seed: string, members: OmnichainMember[]) {
  const { endpoint, oft } = evmAddresses(omnichainOperator(seed, 'ethsecp256k1', 'init').hexAddress as Hex);
  const pkg = `0x${Buffer.from(MOVE_PACKAGE).toString('hex')}`;
  return members.map((m) => ({
    chain_id: m.chainId,
    eid: m.eid,
    kind: m.kind,
    endpoint: m.kind === 'evm' ? endpoint : pkg,
    oft: m.kind === 'evm' ? oft : pkg,
    denom: m.kind === 'evm' ? erc20Denom(oft) : OMNI_MOVE_DENOM,
    symbol: OFT_SYMBOL,
    decimals: m.kind === 'evm' ? 18 : SHARED_DECIMALS,
    shared_decimals: SHARED_DECIMALS,
    peers: members.filter((p) => p.eid !== m.eid).map((p) => p.eid),
  }));
}
