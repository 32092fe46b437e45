import { fromBech32 } from 'weft/chain/address.js';
import { bcs } from 'weft/chain/bcs.js';
import { encodeAny } from 'weft/chain/registry.js';
import type { AnyMsg } from '../types.js';
import { collectionAddress, nftAddress, padMoveAddress, parseMoveAddress, toHexLiteral } from './address.js';
import { DECIMAL_ONE, formatDecimal, parseDecimal } from './bigdecimal.js';
import { MSG_EXECUTE, MSG_EXECUTE_JSON } from './module.js';

/** Builders of the `MsgExecute` calls a client makes to the NFT modules, and the addresses they produce. */

/** A Move address from bech32 (any prefix) or `0x` hex. */
function moveAddress(input: string | Uint8Array): Uint8Array {
  if (typeof input !== 'string') return padMoveAddress(input);
  return input.startsWith('0x') ? parseMoveAddress(input, '') : padMoveAddress(fromBech32(input).bytes);
}

export interface CollectionParams {
  name: string;
  description?: string;
  uri?: string;
  maxSupply?: bigint;
  /** Decimal fraction, e.g. `"0.05"`. */
  royalty?: string;
  mutableDescription?: boolean;
  mutableRoyalty?: boolean;
  mutableUri?: boolean;
  mutableNftDescription?: boolean;
  mutableNftUri?: boolean;
}

export interface MintParams {
  collection: string;
  tokenId: string;
  description?: string;
  uri?: string;
  canBurn?: boolean;
  /** Recipient (bech32 or hex); the NFT stays with the minter when absent. */
  to?: string;
}

/** A typed argument, encoded as BCS for `MsgExecute` or JSON for `MsgExecuteJSON`. */
type Arg =
  | { string: string }
  | { bool: boolean }
  | { u64: bigint | undefined; option?: true }
  | { address: Uint8Array | undefined; option?: true }
  | { decimal: bigint };

function toBcs(arg: Arg): Uint8Array {
  if ('string' in arg) return bcs.string(arg.string);
  if ('bool' in arg) return bcs.bool(arg.bool);
  if ('decimal' in arg) return bcs.bigDecimal(arg.decimal);
  if ('u64' in arg) return arg.option ? bcs.option(arg.u64, bcs.u64) : bcs.u64(arg.u64!);
  return arg.option ? bcs.option(arg.address, bcs.address) : arg.address!;
}

function toJson(arg: Arg): string {
  if ('string' in arg) return JSON.stringify(arg.string);
  if ('bool' in arg) return JSON.stringify(arg.bool);
  if ('decimal' in arg) return JSON.stringify(formatDecimal(arg.decimal));
  if ('u64' in arg) return arg.u64 === undefined ? 'null' : JSON.stringify(arg.u64.toString());
  return arg.address === undefined ? 'null' : JSON.stringify(toHexLiteral(arg.address));
}

interface BuildOptions {
  /** Build `MsgExecuteJSON` instead of `MsgExecute`. */
  json?: boolean;
}

function execute(
  sender: string,
  moduleName: string,
  functionName: string,
  typeArgs: string[],
  args: Arg[],
  options: BuildOptions = {},
): AnyMsg {
  const base = { sender, moduleAddress: '0x1', moduleName, functionName, typeArgs };
  return options.json
    ? encodeAny(MSG_EXECUTE_JSON, { ...base, args: args.map(toJson) })
    : encodeAny(MSG_EXECUTE, { ...base, args: args.map(toBcs) });
}

const NFT_TYPE = '0x1::nft::Nft';

export const moveMsgs = {
  /** `0x1::initia_nft::create_collection`. */
  createCollection(sender: string, p: CollectionParams, options?: BuildOptions): AnyMsg {
    const royalty = parseDecimal(p.royalty ?? '0');
    if (royalty === undefined || royalty > DECIMAL_ONE) throw new Error(`invalid royalty ${p.royalty}`);
    const args: Arg[] = [
      { string: p.description ?? '' },
      { u64: p.maxSupply, option: true },
      { string: p.name },
      { string: p.uri ?? '' },
      { bool: p.mutableDescription ?? false },
      { bool: p.mutableRoyalty ?? false },
      { bool: p.mutableUri ?? false },
      { bool: p.mutableNftDescription ?? false },
      { bool: p.mutableNftUri ?? false },
      { decimal: royalty },
    ];
    return execute(sender, 'initia_nft', 'create_collection', [], args, options);
  },

  /** `0x1::initia_nft::mint` (the sender must own the collection). */
  mint(sender: string, p: MintParams, options?: BuildOptions): AnyMsg {
    const args: Arg[] = [
      { string: p.collection },
      { string: p.description ?? '' },
      { string: p.tokenId },
      { string: p.uri ?? '' },
      { bool: p.canBurn ?? true },
      { address: p.to === undefined ? undefined : moveAddress(p.to), option: true },
    ];
    return execute(sender, 'initia_nft', 'mint', [], args, options);
  },

  /** `0x1::initia_nft::burn<0x1::nft::Nft>`. */
  burn(sender: string, nft: string | Uint8Array, options?: BuildOptions): AnyMsg {
    return execute(sender, 'initia_nft', 'burn', [NFT_TYPE], [{ address: moveAddress(nft) }], options);
  },

  /** `0x1::object::transfer_call`: moves any object the sender owns. */
  transfer(sender: string, object: string | Uint8Array, to: string, options?: BuildOptions): AnyMsg {
    const args: Arg[] = [{ address: moveAddress(object) }, { address: moveAddress(to) }];
    return execute(sender, 'object', 'transfer_call', [], args, options);
  },

  /** `0x1::initia_nft::set_uri<0x1::nft::Nft>` (collection creator, when NFT URIs are mutable). */
  setUri(sender: string, nft: string | Uint8Array, uri: string, options?: BuildOptions): AnyMsg {
    return execute(
      sender,
      'initia_nft',
      'set_uri',
      [NFT_TYPE],
      [{ address: moveAddress(nft) }, { string: uri }],
      options,
    );
  },
};

/** Object addresses a client computes for itself, as `0x` short hex (the form events carry). */
export const moveAddresses = {
  collection: (creator: string | Uint8Array, name: string) =>
    toHexLiteral(collectionAddress(moveAddress(creator), name)),
  nft: (collectionCreator: string | Uint8Array, collectionName: string, tokenId: string) =>
    toHexLiteral(nftAddress(moveAddress(collectionCreator), collectionName, tokenId)),
  /** A 20-byte account as Move prints it. */
  account: (address: string | Uint8Array) => toHexLiteral(moveAddress(address)),
};
