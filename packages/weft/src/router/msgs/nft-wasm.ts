import { fromBech32, toBech32 } from '../../chain/address.js';
import { RouteRequestError } from '../errors.js';
import type { NftChannel, RouterChain } from '../registry/types.js';
import { aminoJson } from './amino.js';

/**
 * NFTs of a Wasm rollup: a cw721 contract holds them and the chain's ICS-721 is a contract (cw-ics721), bound
 * to the port `wasm.<contract>`. A send is the collection's `send_nft` to that contract (or to its outgoing
 * proxy when it has one) with an `IbcOutgoingMsg`; one msg per token, as cw721 sends one token at a time.
 */

const MSG_EXECUTE_CONTRACT = '/cosmwasm.wasm.v1.MsgExecuteContract';

/** A Wasm contract as bech32 with the chain's prefix, from bech32 or 0x hex (20 or 32 bytes). */
export function wasmContract(chain: RouterChain, input: string, field: string): string {
  if (/^0x([0-9a-fA-F]{40}|[0-9a-fA-F]{64})$/.test(input))
    return toBech32(chain.bech32Prefix, Uint8Array.from(Buffer.from(input.slice(2), 'hex')));
  try {
    if (fromBech32(input).prefix === chain.bech32Prefix) return input;
  } catch {}
  throw new RouteRequestError(
    `invalid value for ${field}: ${JSON.stringify(input.slice(0, 80))} (a contract of ${chain.chainId}, ${chain.bech32Prefix}1… bech32 or 0x hex)`,
  );
}

const execute = (sender: string, contract: string, msg: object) =>
  aminoJson(MSG_EXECUTE_CONTRACT, {
    sender,
    contract,
    msg: new TextEncoder().encode(JSON.stringify(msg)),
    funds: [],
  });

export interface WasmNftSend {
  sender: string;
  collection: string;
  tokenIds: string[];
  channel: NftChannel;
  /** cw-ics721's `outgoing_proxy`, which takes the NFTs in the contract's place when it is set. */
  outgoingProxy?: string;
  receiver: string;
  timeoutTimestampNs: bigint;
  memo: string;
}

/** `send_nft {contract, token_id, msg: base64(IbcOutgoingMsg)}` per token, over the channel's ics721 contract. */
export function wasmNftSendMsgs(chain: RouterChain, send: WasmNftSend) {
  const ics721 = send.channel.portId.startsWith('wasm.') ? send.channel.portId.slice(5) : undefined;
  if (!ics721)
    throw new RouteRequestError(
      `chain ${chain.chainId}'s ICS-721 channel ${send.channel.channelId} is bound to ${send.channel.portId}, not an ics721 contract`,
    );
  const outgoing = {
    receiver: send.receiver,
    channel_id: send.channel.channelId,
    timeout: { timestamp: String(send.timeoutTimestampNs) },
    ...(send.memo === '' ? {} : { memo: send.memo }),
  };
  const msg = Buffer.from(JSON.stringify(outgoing)).toString('base64');
  const contract = send.outgoingProxy ?? ics721;
  return send.tokenIds.map((tokenId) =>
    execute(send.sender, send.collection, { send_nft: { contract, token_id: tokenId, msg } }),
  );
}

/** Within the rollup: cw721 `transfer_nft {recipient, token_id}` per token. */
export function wasmNftTransferMsgs(
  sender: string,
  collection: string,
  recipient: string,
  tokenIds: string[],
) {
  return tokenIds.map((tokenId) =>
    execute(sender, collection, { transfer_nft: { recipient, token_id: tokenId } }),
  );
}
