import { fromBech32 } from '../../chain/address.js';
import { AddressError, NoRouteError, RouteRequestError, UnknownAssetError } from '../errors.js';
import type { NftChannel, RouterChain, RouterRegistry } from '../registry/types.js';
import { type ChainAddress, chainAddress } from './addresses.js';
import { aminoJson } from './amino.js';
import { firstHop, NFT_FORWARD_FUNCTION, nftForwardMemo, pathOnArrival } from './nft-hops.js';
import { buildLocalNftMsgs } from './nft-local.js';
import { wasmContract, wasmNftSendMsgs } from './nft-wasm.js';

export const NFT_TRANSFER_TYPE_URL = '/ibc.applications.nft_transfer.v1.MsgTransfer';
export const MAX_NFT_TOKENS = 30;
export const DEFAULT_NFT_TIMEOUT_SECONDS = 1800;

/** `POST /nft` in the router's terms (the wire names are the snake_case of these). */
export interface NftTransferRequest {
  fromAddress: string;
  fromChainId: string;
  toAddress: string;
  toChainId: string;
  /** Move: the collection object; EVM: the ERC721 contract; Wasm: the cw721 contract. */
  collectionAddress: string;
  tokenIds: string[];
  /** The tokens' objects on Move chains (InterwovenKit sends them for every VM, `null` where none). */
  objectAddresses?: Array<string | null>;
  /** The ICS-721 class as the source chain names it (`move/<object>`, `evm/<contract>`, `ibc/<hash>`…). */
  classId?: string;
  /** The class's path (`<port>/<channel>/…`, the first hop being this chain's end) and its base class. */
  classTrace?: { path: string; baseClassId: string };
  l1RecoverAddress?: string;
  /** Wasm: the ics721 contract's outgoing proxy, which takes the NFTs in its place. */
  outgoingProxy?: string;
  timeoutSeconds: number;
  nowMs: number;
}

export interface AminoJsonMsg {
  type: string;
  value: unknown;
}

/** The vm of a chain as its NFTs are named: the L1 is a Move chain. */
function vmOf(chain: RouterChain): 'move' | 'evm' | 'wasm' | undefined {
  if (chain.isL1 || chain.minitia === 'minimove') return 'move';
  if (chain.minitia === 'minievm') return 'evm';
  if (chain.minitia === 'miniwasm') return 'wasm';
  return undefined;
}

/** `collection_address` as hex (0x + at most 64 digits, or bech32 of the same bytes), left-padded to `bytes`. */
function collectionHex(input: string, bytes: number, chain: RouterChain): string {
  let hex: string | undefined;
  if (/^0x[0-9a-fA-F]{1,64}$/.test(input)) hex = input.slice(2).toLowerCase();
  else {
    try {
      const decoded = fromBech32(input);
      if (decoded.prefix === chain.bech32Prefix) hex = Buffer.from(decoded.bytes).toString('hex');
    } catch {}
  }
  if (hex === undefined || hex.replace(/^0+/, '').length > bytes * 2)
    throw new RouteRequestError(
      `invalid value for collection_address: ${JSON.stringify(input.slice(0, 80))} (a ${bytes}-byte address, 0x hex or ${chain.bech32Prefix}1… bech32)`,
    );
  return hex.replace(/^0+/, '').padStart(bytes * 2, '0');
}

/**
 * The class id the source chain's ICS-721 module knows the collection by, when the request gives none:
 * `move/<64 hex>` of the collection object on Move chains, `evm/<40 hex>` of the contract on EVM rollups.
 */
function classIdOf(request: NftTransferRequest, source: RouterChain): string {
  if (request.classId !== undefined) return request.classId;
  const vm = vmOf(source);
  if (vm === 'move') return `move/${collectionHex(request.collectionAddress, 32, source)}`;
  if (vm === 'evm') return `evm/${collectionHex(request.collectionAddress, 20, source)}`;
  throw new RouteRequestError(
    `missing class_id: chain ${source.chainId} has no default class id for a collection`,
  );
}

/**
 * The ICS-721 channel end from the source to the destination. A class that came in over one of them goes
 * back over that one (unwinding, as ICS-721 does); otherwise the first such channel in channel order.
 */
export function nftChannel(
  source: RouterChain,
  destChainId: string,
  classPath: string | undefined,
): NftChannel {
  const candidates = source.nftChannels.filter((c) => c.counterpartyChainId === destChainId);
  if (candidates.length === 0)
    throw new NoRouteError(`no ICS-721 (nft-transfer) channel from ${source.chainId} to ${destChainId}`);
  const came = firstHop(classPath);
  return (
    candidates.find((c) => came && c.portId === came.portId && c.channelId === came.channelId) ??
    candidates[0]!
  );
}

function checkedAddress(chain: RouterChain, input: string, field: string): ChainAddress {
  try {
    const address = chainAddress(chain, input);
    if (!address.bech32) throw new AddressError(`chain ${chain.chainId} has no bech32 accounts`);
    return address;
  } catch (err) {
    if (err instanceof AddressError) throw new AddressError(`${field}: ${err.message}`);
    throw err;
  }
}

function checkedTokenIds(tokenIds: string[]): string[] {
  if (tokenIds.length < 1 || tokenIds.length > MAX_NFT_TOKENS)
    throw new RouteRequestError(`token_ids must hold 1 to ${MAX_NFT_TOKENS} token ids`);
  const seen = new Set<string>();
  for (const id of tokenIds) {
    if (id === '') throw new RouteRequestError('invalid value for token_ids: an empty token id');
    if (seen.has(id)) throw new RouteRequestError(`invalid value for token_ids: ${JSON.stringify(id)} twice`);
    seen.add(id);
  }
  return tokenIds;
}

/**
 * The class path the packet carries (`<port>/<channel>/…/<base>`, or the base class of a class of this
 * chain's own): the trace when the request gives one, else the class id, else the collection's default class.
 * An `ibc/<hash>` class id alone does not say its path.
 */
function classPathOf(
  request: NftTransferRequest,
  source: RouterChain,
  vm: string | undefined,
): string | undefined {
  const trace = request.classTrace;
  if (trace && trace.baseClassId !== '')
    return trace.path === '' ? trace.baseClassId : `${trace.path}/${trace.baseClassId}`;
  if (vm === 'wasm')
    return request.classId ?? wasmContract(source, request.collectionAddress, 'collection_address');
  const classId = classIdOf(request, source);
  return classId.startsWith('ibc/') ? undefined : classId;
}

/**
 * The msgs that send NFTs of one collection, in amino JSON as InterwovenKit decodes them with
 * `aminoTypes.fromAmino` and signs them on the source chain:
 * - between two chains an ICS-721 channel joins: one `/ibc.applications.nft_transfer.v1.MsgTransfer`
 *   (`nft-transfer/MsgTransfer`), or from a Wasm rollup the collection's `send_nft` to its ics721 contract;
 * - between two rollups, through the L1 (InterwovenKit's NFT send passes it as the intermediary): the same
 *   first hop to the L1 with the L1's `0x1::nft_transfer` move hook in its memo, which sends the NFTs on;
 * - within one chain: the chain's own transfer calls (`nft-local.ts`).
 */
export function buildNftTransferMsgs(registry: RouterRegistry, request: NftTransferRequest): AminoJsonMsg[] {
  const source = registry.chainByAnyId(request.fromChainId);
  if (!source) throw new UnknownAssetError(`chain ${request.fromChainId} is not supported`);
  const dest = registry.chainByAnyId(request.toChainId);
  if (!dest) throw new UnknownAssetError(`chain ${request.toChainId} is not supported`);
  const sender = checkedAddress(source, request.fromAddress, 'from_address');
  const receiver = checkedAddress(dest, request.toAddress, 'to_address');
  const l1 = registry.l1();
  const recover =
    request.l1RecoverAddress === undefined || !l1
      ? undefined
      : checkedAddress(l1, request.l1RecoverAddress, 'l1_recover_address');
  const tokenIds = checkedTokenIds(request.tokenIds);
  if (request.objectAddresses && request.objectAddresses.length > MAX_NFT_TOKENS)
    throw new RouteRequestError(`object_addresses must hold at most ${MAX_NFT_TOKENS} addresses`);
  const vm = vmOf(source);
  if (source.chainId === dest.chainId) return buildLocalNftMsgs(source, vm, sender, receiver, request);

  const path = classPathOf(request, source, vm);
  const timeoutNs = BigInt(request.nowMs + request.timeoutSeconds * 1000) * 1_000_000n;
  const direct = source.nftChannels.some((c) => c.counterpartyChainId === dest.chainId);
  let hop: { channel: NftChannel; receiver: string; memo: string };
  if (direct) {
    hop = { channel: nftChannel(source, dest.chainId, path), receiver: receiver.bech32!, memo: '' };
  } else {
    if (
      !l1 ||
      source.isL1 ||
      dest.isL1 ||
      !source.nftChannels.some((c) => c.counterpartyChainId === l1.chainId)
    )
      throw new NoRouteError(`no ICS-721 (nft-transfer) channel from ${source.chainId} to ${dest.chainId}`);
    if (path === undefined)
      throw new RouteRequestError(
        `class_trace is needed to send class ${request.classId} through the L1: an ibc/<hash> class id does not name its path`,
      );
    const toL1 = nftChannel(source, l1.chainId, path);
    const l1ClassPath = pathOnArrival(toL1, path);
    const onward = nftChannel(l1, dest.chainId, l1ClassPath);
    const memo = nftForwardMemo({
      recoverAddress: (recover ?? sender).bytes,
      receiver: receiver.bech32!,
      l1ClassPath,
      tokenIds,
      channel: onward,
      // The second hop leaves when the first arrives: it gets the same time again.
      timeoutTimestampNs: timeoutNs + BigInt(request.timeoutSeconds) * 1_000_000_000n,
    });
    hop = { channel: toL1, receiver: NFT_FORWARD_FUNCTION, memo };
  }

  if (vm === 'wasm') {
    const proxy = request.outgoingProxy
      ? wasmContract(source, request.outgoingProxy, 'outgoing_proxy')
      : undefined;
    return wasmNftSendMsgs(source, {
      sender: sender.bech32!,
      collection: wasmContract(source, request.collectionAddress, 'collection_address'),
      tokenIds,
      channel: hop.channel,
      outgoingProxy: proxy,
      receiver: hop.receiver,
      timeoutTimestampNs: timeoutNs,
      memo: hop.memo,
    });
  }
  if (hop.channel.portId.startsWith('wasm.'))
    throw new RouteRequestError(
      `chain ${source.chainId}'s ICS-721 end ${hop.channel.channelId} is bound to a contract port (${hop.channel.portId}) on a chain without CosmWasm`,
    );
  return [
    aminoJson(NFT_TRANSFER_TYPE_URL, {
      sourcePort: hop.channel.portId,
      sourceChannel: hop.channel.channelId,
      classId: classIdOf(request, source),
      tokenIds,
      sender: sender.bech32,
      receiver: hop.receiver,
      timeoutHeight: { revisionNumber: 0n, revisionHeight: 0n },
      timeoutTimestamp: timeoutNs,
      memo: hop.memo,
    }),
  ];
}
