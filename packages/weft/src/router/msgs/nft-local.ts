import { encodeFunctionData, type Hex, parseAbi } from 'viem';
import { toChecksumAddress } from '../../chain/address.js';
import { RouteRequestError } from '../errors.js';
import type { RouterChain } from '../registry/types.js';
import type { ChainAddress } from './addresses.js';
import { aminoJson } from './amino.js';
import type { AminoJsonMsg, NftTransferRequest } from './nft.js';
import { wasmContract, wasmNftTransferMsgs } from './nft-wasm.js';

const ERC721_ABI = parseAbi(['function transferFrom(address from, address to, uint256 tokenId)']);
const UINT256_MAX = 2n ** 256n - 1n;

/** A Move address argument in BCS: 32 bytes, the account's bytes left-padded with zeros. */
function moveAddress(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(32);
  out.set(bytes, 32 - bytes.length);
  return out;
}

/** `object_addresses[i]` as 32 bytes (0x + at most 64 hex digits). */
function objectAddress(input: string | null | undefined, i: number): Uint8Array {
  if (typeof input !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(input))
    throw new RouteRequestError(
      `invalid value for object_addresses/${i}: ${JSON.stringify(input ?? null)} (the token's object, 0x and up to 64 hex digits)`,
    );
  return Uint8Array.from(Buffer.from(input.slice(2).padStart(64, '0'), 'hex'));
}

function tokenNumber(id: string, i: number): bigint {
  if (!/^[0-9]{1,78}$/.test(id) || BigInt(id) > UINT256_MAX)
    throw new RouteRequestError(
      `invalid value for token_ids/${i}: ${JSON.stringify(id)} (an ERC721 uint256, decimal)`,
    );
  return BigInt(id);
}

/**
 * NFTs sent within one chain (InterwovenKit's "Send NFT" to an address on the same chain asks `/nft` too):
 * on Move chains one `0x1::object::transfer_call(object, to)` per token object (`move/MsgExecute`), on EVM
 * rollups one ERC721 `transferFrom(from, to, id)` per token (`evm/MsgCall`), on Wasm rollups one cw721
 * `transfer_nft` per token (`wasm/MsgExecuteContract`).
 */
export function buildLocalNftMsgs(
  chain: RouterChain,
  vm: 'move' | 'evm' | 'wasm' | undefined,
  sender: ChainAddress,
  receiver: ChainAddress,
  request: NftTransferRequest,
): AminoJsonMsg[] {
  if (vm === 'move') {
    const objects = request.objectAddresses ?? [];
    if (objects.length !== request.tokenIds.length)
      throw new RouteRequestError(
        `object_addresses must give the object of each of the ${request.tokenIds.length} tokens on Move chain ${chain.chainId}`,
      );
    return objects.map((object, i) =>
      aminoJson('/initia.move.v1.MsgExecute', {
        sender: sender.bech32,
        moduleAddress: '0x1',
        moduleName: 'object',
        functionName: 'transfer_call',
        typeArgs: [],
        args: [objectAddress(object, i), moveAddress(receiver.bytes)],
      }),
    );
  }
  if (vm === 'evm') {
    if (!sender.hex || !receiver.hex)
      throw new RouteRequestError(`${sender.hex ? 'to' : 'from'}_address: an EVM rollup account is 20 bytes`);
    if (!/^0x[0-9a-fA-F]{40}$/.test(request.collectionAddress))
      throw new RouteRequestError(
        `invalid value for collection_address: ${JSON.stringify(request.collectionAddress.slice(0, 80))} (the ERC721 contract, 0x and 40 hex digits)`,
      );
    const contract = toChecksumAddress(request.collectionAddress);
    return request.tokenIds.map((id, i) =>
      aminoJson('/minievm.evm.v1.MsgCall', {
        sender: sender.bech32,
        contractAddr: contract,
        input: encodeFunctionData({
          abi: ERC721_ABI,
          functionName: 'transferFrom',
          args: [sender.hex as Hex, receiver.hex as Hex, tokenNumber(id, i)],
        }),
        value: '0',
        accessList: [],
      }),
    );
  }
  if (vm === 'wasm')
    return wasmNftTransferMsgs(
      sender.bech32!,
      wasmContract(chain, request.collectionAddress, 'collection_address'),
      receiver.bech32!,
      request.tokenIds,
    );
  throw new RouteRequestError(
    `from_chain_id and to_chain_id are both ${chain.chainId}: sends within this chain are not built`,
  );
}
