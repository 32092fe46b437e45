import { decodeAbiParameters, type Hex } from 'viem';
import type { NftKey } from '../../store/records.js';
import { accAddressFromString, hexToBytesPadded } from './account-address.js';
import type { BlockEvent } from './block-events.js';
import { type DropReporter, ignoreDrops } from './drops.js';
import { logWithTopic, TRANSFER_TOPIC, ZERO_TOPIC } from './evm-logs.js';
import { type MetaAnswers, metaKeys, type RequestList } from './meta.js';
import { createNftChanges, type NftDecodeResult } from './nft-changes.js';

/**
 * ERC721 on minievm (rollytics evm-nft): `Transfer` logs with four topics and empty data, read from the `log`
 * attributes of `evm` events. A collection's `name()` is asked for every collection seen in a block (its key
 * is height-free, so the fetch stage can cache it); a failed `name()` (a revert) blacklists the collection and
 * all its logs are skipped, not only its mints as in rollytics. `tokenURI(id)` is asked at the mint height.
 */

const NAME_INPUT = '0x06fdde03';
const TOKEN_URI_SELECTOR = '0xc87b56dd';

interface Erc721Transfer {
  /** Lowercase `0x` hex. */
  collection: string;
  from: string;
  to: string;
  tokenId: string;
  txIndex: number | null;
}

/** The ERC721 `Transfer` logs of the block, in event order; of the two passes, one reports drops. */
function erc721Transfers(events: BlockEvent[], drops: DropReporter = ignoreDrops): Erc721Transfer[] {
  const out: Erc721Transfer[] = [];
  const malformed = (reason: string) => drops.drop('nft_evm', reason);
  for (const { event, txIndex } of events) {
    if (event.type !== 'evm') continue;
    for (const attr of event.attributes ?? []) {
      const log = logWithTopic(attr, TRANSFER_TOPIC, 4, malformed);
      // A four-topic Transfer with data is no ERC721 (which indexes all three arguments).
      if (log?.data !== '0x') continue;
      // Four topics, checked by logWithTopic.
      const [, from, to, id] = log.topics as [string, string, string, string];
      let tokenId: string;
      try {
        tokenId = BigInt(id).toString();
      } catch {
        drops.drop('nft_evm', 'bad_token_id', { collection: log.address, tokenId: id });
        continue;
      }
      out.push({ collection: log.address.toLowerCase(), from, to, tokenId, txIndex });
    }
  }
  return out;
}

const tokenUriInput = (tokenId: string) =>
  `${TOKEN_URI_SELECTOR}${BigInt(tokenId).toString(16).padStart(64, '0')}`;

/** Mints whose token is still there at the end of the block (a later burn in the block cancels the query). */
function mintsToQuery(transfers: Erc721Transfer[]): Array<{ collection: string; tokenId: string }> {
  const live = new Map<string, { collection: string; tokenId: string }>();
  for (const t of transfers) {
    const id = `${t.collection}/${t.tokenId}`;
    if (t.from === ZERO_TOPIC && t.to !== ZERO_TOPIC) live.set(id, t);
    else if (t.from !== ZERO_TOPIC && t.to === ZERO_TOPIC) live.delete(id);
  }
  return [...live.values()];
}

export function evmNftRequests(events: BlockEvent[], height: number, out: RequestList): void {
  const transfers = erc721Transfers(events);
  for (const collection of new Set(transfers.map((t) => t.collection))) {
    out.add({
      kind: 'evm-call',
      key: metaKeys.evmCall(collection, NAME_INPUT),
      contract: collection,
      input: NAME_INPUT,
    });
  }
  for (const { collection, tokenId } of mintsToQuery(transfers)) {
    const input = tokenUriInput(tokenId);
    out.add({
      kind: 'evm-call',
      key: metaKeys.evmCall(collection, input, height),
      contract: collection,
      input,
    });
  }
}

/** A Solidity `string` return value, or undefined when the call failed or returned something else. */
function abiString(answer: { ok: boolean; value?: unknown }): string | undefined {
  if (!answer.ok || typeof answer.value !== 'string') return undefined;
  const hex = (answer.value.startsWith('0x') ? answer.value : `0x${answer.value}`) as Hex;
  try {
    return decodeAbiParameters([{ type: 'string' }], hex)[0];
  } catch {
    return undefined;
  }
}

export function evmNftChanges(
  events: BlockEvent[],
  height: number,
  prefix: string,
  answers: MetaAnswers,
  drops: DropReporter = ignoreDrops,
): NftDecodeResult {
  const transfers = erc721Transfers(events, drops);
  const badAddress = (t: Erc721Transfer) =>
    drops.drop('nft_evm', 'bad_address', { collection: t.collection, to: t.to });
  const out = createNftChanges();
  const names = new Map<string, string | undefined>();
  const nameOf = (collection: string) => {
    if (!names.has(collection))
      names.set(collection, abiString(answers.get(metaKeys.evmCall(collection, NAME_INPUT))));
    return names.get(collection);
  };
  const queried = new Set(mintsToQuery(transfers).map((m) => `${m.collection}/${m.tokenId}`));
  const announced = new Set<string>();
  for (const t of transfers) {
    const isMint = t.from === ZERO_TOPIC;
    const isBurn = t.to === ZERO_TOPIC;
    if (isMint && isBurn) continue;
    const name = nameOf(t.collection);
    if (name === undefined) continue;
    const nft: NftKey = { collection: hexToBytesPadded(t.collection), tokenId: t.tokenId };
    if (isMint) {
      if (!announced.has(t.collection)) {
        announced.add(t.collection);
        out.push({ kind: 'collection', collection: nft.collection, name, txIndex: t.txIndex });
      }
      const owner = accAddressFromString(t.to, prefix);
      if (!owner) {
        badAddress(t);
        continue;
      }
      const uri = queried.has(`${t.collection}/${t.tokenId}`)
        ? (abiString(answers.get(metaKeys.evmCall(t.collection, tokenUriInput(t.tokenId), height))) ?? '')
        : '';
      out.push({ kind: 'mint', nft, owner: owner.bytes, uri, txIndex: t.txIndex });
    } else if (isBurn) {
      out.push({ kind: 'burn', nft, txIndex: t.txIndex });
    } else {
      const to = accAddressFromString(t.to, prefix);
      if (!to) {
        badAddress(t);
        continue;
      }
      out.push({ kind: 'transfer', nft, to: to.bytes, txIndex: t.txIndex });
    }
    out.touch(t.txIndex, nft);
  }
  return out.result();
}
