import { encodeAny } from 'weft/chain/registry.js';
import type { AnyMsg } from '../types.js';
import type { Expiration } from './cw721.js';
import { CW721_CODE_ID, RECEIVER_CODE_ID } from './keeper.js';
import { MSG_EXECUTE_CONTRACT, MSG_INSTANTIATE_CONTRACT } from './module.js';
import { RECEIVER_SUCCEED } from './receiver.js';

/** Builders of the wasm msgs a client sends to cw721 contracts. */

const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

function execute(sender: string, contract: string, msg: unknown): AnyMsg {
  return encodeAny(MSG_EXECUTE_CONTRACT, { sender, contract, msg: json(msg), funds: [] });
}

export const cw721Msgs = {
  /** Instantiates cw721-base; the sender is the minter unless another is given. */
  instantiate(
    sender: string,
    p: { name: string; symbol: string; minter?: string; label?: string; admin?: string; codeId?: bigint },
  ): AnyMsg {
    return encodeAny(MSG_INSTANTIATE_CONTRACT, {
      sender,
      admin: p.admin ?? '',
      codeId: p.codeId ?? CW721_CODE_ID,
      label: p.label ?? p.name,
      msg: json({ name: p.name, symbol: p.symbol, minter: p.minter ?? sender }),
      funds: [],
    });
  },

  /** Instantiates cw721-receiver-tester, a contract `send_nft` can deliver to. */
  instantiateReceiver(sender: string, label = 'nft receiver'): AnyMsg {
    return encodeAny(MSG_INSTANTIATE_CONTRACT, {
      sender,
      admin: '',
      codeId: RECEIVER_CODE_ID,
      label,
      msg: json({}),
      funds: [],
    });
  },

  mint(sender: string, contract: string, p: { tokenId: string; owner: string; tokenUri?: string }): AnyMsg {
    const mint: Record<string, unknown> = { token_id: p.tokenId, owner: p.owner, extension: null };
    if (p.tokenUri !== undefined) mint.token_uri = p.tokenUri;
    return execute(sender, contract, { mint });
  },

  transfer(sender: string, contract: string, p: { recipient: string; tokenId: string }): AnyMsg {
    return execute(sender, contract, { transfer_nft: { recipient: p.recipient, token_id: p.tokenId } });
  },

  /** `send_nft` to a contract; `msg` is base64 (the receiver-tester wants `"succeed"`, the default). */
  send(sender: string, contract: string, p: { to: string; tokenId: string; msg?: string }): AnyMsg {
    return execute(sender, contract, {
      send_nft: { contract: p.to, token_id: p.tokenId, msg: p.msg ?? RECEIVER_SUCCEED },
    });
  },

  burn(sender: string, contract: string, tokenId: string): AnyMsg {
    return execute(sender, contract, { burn: { token_id: tokenId } });
  },

  approve(
    sender: string,
    contract: string,
    p: { spender: string; tokenId: string; expires?: Expiration },
  ): AnyMsg {
    return execute(sender, contract, {
      approve: { spender: p.spender, token_id: p.tokenId, expires: p.expires ?? null },
    });
  },
};
