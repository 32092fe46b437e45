import { toBech32 } from '../../chain/address.js';
import type { IndexedBlock, IndexedTx } from '../../store/records.js';
import type { BlockBundle, MetaRequest } from '../bundle.js';
import { type AccountRef, accAddressFromString, hexToBytesPadded } from './account-address.js';
import { type BlockEvent, type CometEvent, orderedBlockEvents, txResultsOf } from './block-events.js';
import { type DropReporter, dropsAtHeight } from './drops.js';
import { DecodeError } from './errors.js';
import { decodeEvmReceipt } from './evm-receipts.js';
import { createRequestList, metaAnswers } from './meta.js';
import type { NftDecodeResult } from './nft-changes.js';
import { evmNftChanges, evmNftRequests } from './nft-evm.js';
import { moveNftChanges, moveNftRequests } from './nft-move.js';
import { nftOrigins } from './nft-origins.js';
import { wasmNftChanges, wasmNftRequests } from './nft-wasm.js';
import { decodeRawTx, type RawTx, signerAccount, sumCoins } from './raw-tx.js';
import { grepTxAccounts } from './tx-accounts.js';
import { canonicalTime, txRecord } from './tx-record.js';

export type VmType = 'evm' | 'move' | 'wasm';

export interface DecodeOptions {
  vm: VmType;
  /** Account prefix of the chain (`init`); validators use `<prefix>valoper`. */
  bech32Prefix: string;
  chainId: string;
  /** Hears of what the decoders leave out because it does not read. */
  drops?: DropReporter;
}

/** The event types NFT decoding reads on each VM (ICS-721 receives included). */
const NFT_EVENT_TYPES: Record<VmType, ReadonlySet<string>> = {
  evm: new Set(['evm', 'recv_packet']),
  move: new Set(['move', 'recv_packet']),
  wasm: new Set(['wasm', 'recv_packet']),
};

const blockHeight = (block: BlockBundle['block']) => Number(block.block.header.height);

/** The node queries NFT decoding needs at this height (answered into `BlockBundle.meta`). */
export function metaRequests(
  block: BlockBundle['block'],
  blockResults: Record<string, any>,
  options: { vm: VmType; bech32Prefix: string },
): MetaRequest[] {
  const height = blockHeight(block);
  const events = orderedBlockEvents(blockResults, NFT_EVENT_TYPES[options.vm]);
  const requests = createRequestList();
  if (options.vm === 'evm') evmNftRequests(events, height, requests);
  else if (options.vm === 'move') moveNftRequests(events, height, requests);
  else wasmNftRequests(events, options.bech32Prefix, requests);
  return requests.list();
}

/** Message type URLs of a REST tx without the leading `/`, de-duplicated in first-seen order. */
function msgTypesOf(restTx: Record<string, any>, drops: DropReporter): string[] {
  const types = new Set<string>();
  for (const msg of (restTx.body?.messages as Array<Record<string, unknown>> | undefined) ?? []) {
    const type = msg?.['@type'];
    if (typeof type === 'string') types.add(type.startsWith('/') ? type.slice(1) : type);
    else drops.drop('tx_msgs', 'missing_type');
  }
  return [...types];
}

/** The first signer from the ante handler's `tx` `acc_seq` event (`<address>/<sequence>`). */
function signerFromEvents(events: CometEvent[], prefix: string): AccountRef | null {
  for (const event of events) {
    if (event.type !== 'tx') continue;
    const accSeq = event.attributes?.find((a) => a.key === 'acc_seq')?.value;
    if (accSeq) {
      const slash = accSeq.lastIndexOf('/');
      return accAddressFromString(slash < 0 ? accSeq : accSeq.slice(0, slash), prefix);
    }
  }
  return null;
}

function signerOf(raw: RawTx, events: CometEvent[], prefix: string): AccountRef | null {
  const account = raw.signerKey ? signerAccount(raw.signerKey) : null;
  if (account) return account;
  // Keys the decoder cannot hash (multisig) or a signer info without a key: the ante handler names the signer.
  return signerFromEvents(events, prefix);
}

function decodeNfts(
  events: BlockEvent[],
  bundle: BlockBundle,
  options: DecodeOptions,
  drops: DropReporter,
): NftDecodeResult {
  const answers = metaAnswers(bundle.height, bundle.meta);
  const { vm, bech32Prefix } = options;
  if (vm === 'evm') return evmNftChanges(events, bundle.height, bech32Prefix, answers, drops);
  if (vm === 'move') return moveNftChanges(events, bundle.height, bech32Prefix, answers, drops);
  return wasmNftChanges(events, bech32Prefix, answers, drops);
}

function decodeEvmReceipts(bundle: BlockBundle, prefix: string) {
  return (bundle.evmReceipts ?? []).map((receipt, i) => {
    try {
      return decodeEvmReceipt(receipt, i, prefix);
    } catch (err) {
      throw new DecodeError(bundle.height, (err as Error).message, { cause: err });
    }
  });
}

/** One height of node JSON as the records the store writes. Pure: every node answer comes in the bundle. */
export function decodeBlock(bundle: BlockBundle, options: DecodeOptions): IndexedBlock {
  const { height } = bundle;
  const prefix = options.bech32Prefix;
  const drops = dropsAtHeight(options.drops, height);
  const header = bundle.block.block.header;
  if (header.chain_id !== options.chainId) {
    throw new DecodeError(height, `block of chain ${header.chain_id}, expected ${options.chainId}`);
  }
  if (Number(header.height) !== height)
    throw new DecodeError(height, `block header is for height ${header.height}`);
  const rawTxs = bundle.block.block.data.txs ?? [];
  const results = txResultsOf(bundle.blockResults);
  if (results.length !== rawTxs.length) {
    throw new DecodeError(height, `${rawTxs.length} txs but ${results.length} tx results`);
  }
  const restBySignatures = new Map<string, Record<string, any>>();
  for (const restTx of bundle.restTxs) {
    const key = ((restTx.signatures as string[] | undefined) ?? []).join(',');
    if (key !== '') restBySignatures.set(key, restTx);
  }

  const timestamp = canonicalTime(String(header.time));
  const fees: RawTx['fee'][] = [];
  let gasUsed = 0n;
  let gasWanted = 0n;
  const txs: IndexedTx[] = rawTxs.map((base64, index) => {
    const result = results[index]!;
    let raw: RawTx;
    try {
      raw = decodeRawTx(base64);
    } catch (err) {
      throw new DecodeError(height, `tx ${index} is not a valid TxRaw: ${(err as Error).message}`, {
        cause: err,
      });
    }
    const restTx = restBySignatures.get(raw.signatureKey);
    if (!restTx) throw new DecodeError(height, `no REST tx has the signatures of tx ${raw.hashHex}`);
    const events = (result.events as CometEvent[] | null) ?? [];
    const signer = signerOf(raw, events, prefix);
    if (!signer) throw new DecodeError(height, `cannot tell the signer of tx ${raw.hashHex}`);
    fees.push(raw.fee);
    gasUsed += BigInt(result.gas_used ?? 0);
    gasWanted += BigInt(result.gas_wanted ?? 0);
    return {
      hash: raw.hash,
      index,
      code: Number(result.code ?? 0),
      signer: signer.bytes,
      msgTypes: msgTypesOf(restTx, drops),
      accounts: grepTxAccounts(events, prefix, drops).withSigner(signer),
      record: txRecord({ hashHex: raw.hashHex, height, result, restTx, timestamp }),
      nfts: [],
    };
  });

  // This pass over the block's events is the one that reports dropped block events.
  const nftEvents = orderedBlockEvents(bundle.blockResults, NFT_EVENT_TYPES[options.vm], drops);
  const nfts = decodeNfts(nftEvents, bundle, options, drops);
  for (const [index, keys] of nfts.touched) {
    const tx = txs[index];
    if (tx) tx.nfts = keys;
  }
  const proposer = String(header.proposer_address ?? '');

  return {
    height,
    hash: hexToBytesPadded(String(bundle.block.block_id.hash)),
    time: String(header.time),
    proposer: proposer === '' ? '' : toBech32(`${prefix}valoper`, hexToBytesPadded(proposer)),
    gasUsed,
    gasWanted,
    txCount: rawTxs.length,
    totalFee: sumCoins(fees),
    txs,
    evmTxs: options.vm === 'evm' ? decodeEvmReceipts(bundle, prefix) : [],
    nftChanges: nfts.changes,
    nftOrigins: nftOrigins(nftEvents, options.vm, drops),
  };
}
