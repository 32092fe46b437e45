import type { NftChange, NftKey } from '../../store/records.js';

/** The NFT effects of a block and, per tx, the NFTs it touched (de-duplicated, first-seen order). */
export interface NftDecodeResult {
  changes: NftChange[];
  touched: Map<number, NftKey[]>;
}

export function createNftChanges() {
  const changes: NftChange[] = [];
  const touched = new Map<number, NftKey[]>();
  const seen = new Set<string>();
  return {
    push(change: NftChange) {
      changes.push(change);
    },
    /** Records that tx `txIndex` touched `nft` (block-level events touch no tx). */
    touch(txIndex: number | null, nft: NftKey) {
      if (txIndex === null) return;
      const id = `${txIndex}/${Buffer.from(nft.collection).toString('hex')}/${nft.tokenId}`;
      if (seen.has(id)) return;
      seen.add(id);
      const list = touched.get(txIndex);
      if (list) list.push(nft);
      else touched.set(txIndex, [nft]);
    },
    result: (): NftDecodeResult => ({ changes, touched }),
  };
}
