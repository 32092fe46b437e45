import { createHash } from 'node:crypto';
import type { IndexedBlock, IndexedEvmTx, IndexedTx, NftChange, NftKey } from '../records.js';

/** The writer options of the synthetic EVM chain the store tests write. */
export const EVM_CHAIN = { chainId: 'minievm-1', vm: 'evm', bech32Prefix: 'init' } as const;

/** Deterministic 20-byte (or 32-byte) address number `n`. */
export function address(n: number, size = 20): Uint8Array {
  const bytes = new Uint8Array(size);
  bytes[0] = size === 32 ? 0xaa : 0x11;
  new DataView(bytes.buffer).setUint32(size - 4, n);
  return bytes;
}

export function sha256(label: string): Uint8Array {
  return new Uint8Array(createHash('sha256').update(label).digest());
}

const GENESIS_NS = BigInt(Date.UTC(2025, 7, 6, 8, 0, 0)) * 1_000_000n;

/** RFC3339 header time with nanoseconds; blocks are ~1.000123456 s apart. */
export function blockTime(height: number): string {
  const ns = GENESIS_NS + BigInt(height) * 1_000_123_456n;
  const iso = new Date(Number(ns / 1_000_000n)).toISOString().slice(0, 19);
  return `${iso}.${(ns % 1_000_000_000n).toString().padStart(9, '0')}Z`;
}

export interface TxSpec {
  signer: Uint8Array;
  accounts?: Uint8Array[];
  msgTypes?: string[];
  nfts?: NftKey[];
}

export interface EvmTxSpec {
  from: Uint8Array;
  accounts?: Uint8Array[];
}

export interface BlockSpec {
  txs?: TxSpec[];
  evmTxs?: EvmTxSpec[];
  nftChanges?: NftChange[];
  nftOrigins?: Array<{ className: string; originName: string }>;
}

export function makeTx(height: number, index: number, spec: TxSpec, recordPadding = ''): IndexedTx {
  const hash = sha256(`tx:${height}:${index}`);
  const msgTypes = spec.msgTypes ?? ['cosmos.bank.v1beta1.MsgSend'];
  const others = (spec.accounts ?? []).map((a) => ({ address: a, signer: false }));
  return {
    hash,
    index,
    code: 0,
    signer: spec.signer,
    msgTypes,
    accounts: [{ address: spec.signer, signer: true }, ...others],
    record: {
      txhash: Buffer.from(hash).toString('hex').toUpperCase(),
      height: String(height),
      codespace: '',
      code: 0,
      tx: { body: { messages: msgTypes.map((m) => ({ '@type': `/${m}` })), memo: recordPadding } },
      timestamp: blockTime(height),
    },
    nfts: spec.nfts ?? [],
  };
}

export function makeEvmTx(height: number, index: number, spec: EvmTxSpec): IndexedEvmTx {
  const hash = sha256(`evm:${height}:${index}`);
  return {
    hash,
    index,
    signer: spec.from,
    accounts: [
      { address: spec.from, signer: true },
      ...(spec.accounts ?? []).map((a) => ({ address: a, signer: false })),
    ],
    record: {
      transactionHash: `0x${Buffer.from(hash).toString('hex')}`,
      blockNumber: `0x${height.toString(16)}`,
    },
  };
}

export function makeBlock(height: number, spec: BlockSpec = {}, recordPadding = ''): IndexedBlock {
  const txs = (spec.txs ?? []).map((t, i) => makeTx(height, i, t, recordPadding));
  return {
    height,
    hash: sha256(`block:${height}`),
    time: blockTime(height),
    proposer: 'initvaloper1proposer',
    gasUsed: BigInt(txs.length * 50_000),
    gasWanted: BigInt(txs.length * 80_000),
    txCount: txs.length,
    totalFee: txs.length > 0 ? [{ denom: 'uinit', amount: String(txs.length * 1500) }] : [],
    txs,
    evmTxs: (spec.evmTxs ?? []).map((t, i) => makeEvmTx(height, i, t)),
    nftChanges: spec.nftChanges ?? [],
    nftOrigins: spec.nftOrigins ?? [],
  };
}

export interface SyntheticOptions {
  blocks: number;
  txsPerBlock: number;
  /** Accounts per tx besides the signer. */
  accountsPerTx: number;
  /** Size of the account population. */
  accounts: number;
  seed: number;
  startHeight?: number;
  evm?: boolean;
  nfts?: boolean;
  /** Extra memo text to bring records to a realistic size. */
  recordPadding?: string;
}

const MSG_TYPES = [
  'cosmos.bank.v1beta1.MsgSend',
  'initia.move.v1.MsgExecute',
  'minievm.evm.v1.MsgCall',
  'ibc.applications.transfer.v1.MsgTransfer',
  'cosmwasm.wasm.v1.MsgExecuteContract',
];

/**
 * A pseudo-random but reproducible chain: txs over a fixed account population, and with `nfts` a
 * valid NFT life (collections with and without creators, mints, transfers, URI changes, burns,
 * block-level events, ICS-721 origins) that exercises every bookkeeping path.
 */
export function syntheticChain(options: SyntheticOptions): IndexedBlock[] {
  let state = options.seed >>> 0 || 1;
  const rand = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 2 ** 32;
  };
  const pick = <T>(items: readonly T[]) => items[Math.floor(rand() * items.length)]!;
  const account = () => address(1 + Math.floor(rand() * options.accounts));
  const collections: Array<{ addr: Uint8Array; name: string }> = [];
  const live: Array<{ nft: NftKey; owner: Uint8Array }> = [];
  let minted = 0;
  const blocks: IndexedBlock[] = [];
  const start = options.startHeight ?? 1;
  for (let height = start; height < start + options.blocks; height++) {
    const txs: TxSpec[] = [];
    for (let i = 0; i < options.txsPerBlock; i++) {
      const accounts = Array.from({ length: options.accountsPerTx }, account);
      const msgTypes = rand() < 0.2 ? [pick(MSG_TYPES), pick(MSG_TYPES)] : [pick(MSG_TYPES)];
      txs.push({ signer: account(), accounts, msgTypes });
    }
    const evmTxs: EvmTxSpec[] = options.evm
      ? txs.map((t) => ({ from: t.signer, accounts: t.accounts?.slice(0, 2) ?? [] }))
      : [];
    const nftChanges: NftChange[] = [];
    const nftOrigins: BlockSpec['nftOrigins'] = [];
    if (options.nfts && txs.length > 0) {
      const txIndex = () => (rand() < 0.15 ? null : Math.floor(rand() * txs.length));
      if (collections.length === 0 || rand() < 0.1) {
        const addr = address(100_000 + collections.length, rand() < 0.5 ? 20 : 32);
        const name = rand() < 0.3 ? `ibc/${collections.length}` : `Collection #${collections.length}`;
        const index = Math.floor(rand() * txs.length);
        // The creating tx touches the collection, as an EVM deploy would.
        txs[index]!.accounts = [...(txs[index]!.accounts ?? []), addr];
        nftChanges.push({
          kind: 'collection',
          collection: addr,
          name,
          creator: rand() < 0.5 ? account() : undefined,
          txIndex: index,
        });
        collections.push({ addr, name });
      }
      for (let k = 0; k < 3; k++) {
        const roll = rand();
        if (roll < 0.4 || live.length === 0) {
          const nft = {
            collection: pick(collections).addr,
            tokenId: String(minted++ % 7 === 3 ? minted * 11 : minted),
          };
          const owner = account();
          nftChanges.push({ kind: 'mint', nft, owner, uri: `ipfs://${nft.tokenId}`, txIndex: txIndex() });
          live.push({ nft, owner });
        } else if (roll < 0.7) {
          const item = pick(live);
          item.owner = account();
          nftChanges.push({ kind: 'transfer', nft: item.nft, to: item.owner, txIndex: txIndex() });
        } else if (roll < 0.8) {
          nftChanges.push({
            kind: 'uri',
            nft: pick(live).nft,
            uri: `ipfs://new/${height}`,
            txIndex: txIndex(),
          });
        } else {
          const i = Math.floor(rand() * live.length);
          nftChanges.push({ kind: 'burn', nft: live[i]!.nft, txIndex: txIndex() });
          live.splice(i, 1);
        }
      }
      const named = pick(live);
      if (named && rand() < 0.3) txs[0]!.nfts = [named.nft];
      if (rand() < 0.2)
        nftOrigins.push({ className: pick(collections).name, originName: `Origin ${height}` });
    }
    blocks.push(makeBlock(height, { txs, evmTxs, nftChanges, nftOrigins }, options.recordPadding));
  }
  return blocks;
}
