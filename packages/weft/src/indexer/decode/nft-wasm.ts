import { type Attributes, attributesOf } from '../../protocol/events.js';
import type { NftKey } from '../../store/records.js';
import { type AccountRef, accAddressFromString } from './account-address.js';
import type { BlockEvent } from './block-events.js';
import { type DropReporter, ignoreDrops } from './drops.js';
import { type MetaAnswers, metaKeys, type RequestList } from './meta.js';
import { createNftChanges, type NftDecodeResult } from './nft-changes.js';

/**
 * cw721 (rollytics wasm-nft) from `wasm` events. A contract is a collection when one of its events has
 * `minter` and (`creator` or `owner`) (a cw721 instantiate or mint); its name comes from the
 * `{"contract_info":{}}` smart query and its creator from the contract info. A collection whose query fails
 * (rollytics blacklists the "unknown variant" parse error) is skipped with its mints, transfers and burns in
 * the block, where rollytics still records its mints.
 */

const CONTRACT_INFO_QUERY = { contract_info: {} };

interface WasmNftEvent {
  contract: string;
  account: AccountRef;
  attrs: Attributes;
  isCollection: boolean;
  txIndex: number | null;
}

/** The block's `wasm` events; of the two passes over a block, one reports drops. */
function wasmNftEvents(
  events: BlockEvent[],
  prefix: string,
  drops: DropReporter = ignoreDrops,
): WasmNftEvent[] {
  const out: WasmNftEvent[] = [];
  for (const { event, txIndex } of events) {
    if (event.type !== 'wasm') continue;
    const attrs = attributesOf(event);
    const contract = attrs._contract_address;
    if (contract === undefined) {
      drops.drop('nft_wasm', 'missing_attribute', { attribute: '_contract_address' });
      continue;
    }
    const account = accAddressFromString(contract, prefix);
    if (!account) {
      drops.drop('nft_wasm', 'bad_address', { contract });
      continue;
    }
    const isCollection = 'minter' in attrs && ('creator' in attrs || 'owner' in attrs);
    out.push({ contract, account, attrs, isCollection, txIndex });
  }
  return out;
}

export function wasmNftRequests(events: BlockEvent[], prefix: string, out: RequestList): void {
  for (const e of wasmNftEvents(events, prefix)) {
    if (!e.isCollection) continue;
    out.add({
      kind: 'wasm-smart',
      key: metaKeys.wasmSmart(e.contract, CONTRACT_INFO_QUERY),
      contract: e.contract,
      query: CONTRACT_INFO_QUERY,
    });
    out.add({ kind: 'wasm-contract-info', key: metaKeys.wasmContractInfo(e.contract), contract: e.contract });
  }
}

export function wasmNftChanges(
  events: BlockEvent[],
  prefix: string,
  answers: MetaAnswers,
  drops: DropReporter = ignoreDrops,
): NftDecodeResult {
  const out = createNftChanges();
  /** An account attribute of an NFT event that is missing or names no account. */
  const badAccount = (e: WasmNftEvent, attribute: string, value: string | undefined) =>
    drops.drop('nft_wasm', value === undefined ? 'missing_attribute' : 'bad_address', {
      contract: e.contract,
      attribute,
      ...(value === undefined ? {} : { value }),
    });
  const collections = new Map<string, { name: string } | null>(); // by account hex; null: blacklisted

  /** Announces a collection at its first detecting event, or blacklists it when its query failed. */
  const detect = (e: WasmNftEvent) => {
    if (collections.has(e.account.hex)) return;
    const info = answers.get(metaKeys.wasmSmart(e.contract, CONTRACT_INFO_QUERY));
    const name = info.ok ? (info.value as { name?: unknown } | null)?.name : undefined;
    if (typeof name !== 'string') {
      collections.set(e.account.hex, null);
      return;
    }
    collections.set(e.account.hex, { name });
    const contractInfo = answers.get(metaKeys.wasmContractInfo(e.contract));
    const creatorText = contractInfo.ok
      ? (contractInfo.value as { creator?: unknown } | null)?.creator
      : undefined;
    const creator = typeof creatorText === 'string' ? accAddressFromString(creatorText, prefix) : null;
    out.push({
      kind: 'collection',
      collection: e.account.bytes,
      name,
      ...(creator ? { creator: creator.bytes } : {}),
      txIndex: e.txIndex,
    });
  };

  for (const e of wasmNftEvents(events, prefix, drops)) {
    if (e.isCollection) detect(e);
    if (collections.get(e.account.hex) === null) continue;
    const tokenId = e.attrs.token_id;
    if (tokenId === undefined) continue;
    const nft: NftKey = { collection: e.account.bytes, tokenId };
    switch (e.attrs.action) {
      case 'mint': {
        const ownerText = e.attrs.owner;
        const owner = ownerText === undefined ? null : accAddressFromString(ownerText, prefix);
        if (!owner) {
          badAccount(e, 'owner', ownerText);
          continue;
        }
        out.push({
          kind: 'mint',
          nft,
          owner: owner.bytes,
          uri: e.attrs.token_uri ?? '',
          txIndex: e.txIndex,
        });
        break;
      }
      case 'transfer_nft':
      case 'send_nft': {
        const recipient = e.attrs.recipient;
        const to = recipient === undefined ? null : accAddressFromString(recipient, prefix);
        if (!to) {
          badAccount(e, 'recipient', recipient);
          continue;
        }
        out.push({ kind: 'transfer', nft, to: to.bytes, txIndex: e.txIndex });
        break;
      }
      case 'burn':
        out.push({ kind: 'burn', nft, txIndex: e.txIndex });
        break;
      default:
        continue;
    }
    out.touch(e.txIndex, nft);
  }
  return out.result();
}
