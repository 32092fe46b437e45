import type { Db } from '../db.js';
import type { Page, PageRequest } from './page.js';
import type { RecordCache } from './record-cache.js';
import type { SequenceCursor } from './sequence-page.js';
import { readTxPage, type TxRow } from './txs.js';

/**
 * The Cosmos txs that minted, moved, changed or burned one NFT. Tokens are never forgotten, so a
 * burned token's history stays readable.
 */
export function nftTxs(
  db: Db,
  nft: { collection: Uint8Array; tokenId: string },
  request: PageRequest<SequenceCursor>,
  cache?: RecordCache,
): Promise<Page<TxRow, SequenceCursor>> {
  return readTxPage(
    db,
    request,
    (q) => {
      const token = `FROM nft_token k JOIN nft_collection c ON c.id = k.collection_id
        WHERE c.addr = ${q.params.add(nft.collection)} AND k.token_id = ${q.params.add(nft.tokenId)}`;
      return {
        keys: `SELECT e.sequence FROM tx_nft e WHERE e.nft_token_id = (SELECT k.id ${token})
          AND ${q.afterCursor('e.sequence')} ORDER BY e.sequence ${q.dir} ${q.limit}`,
        total: `SELECT k.txs ${token}`,
      };
    },
    cache,
  );
}
