import type { Db } from '../db.js';
import type { Page, PageRequest } from './page.js';
import { readSequencePage, type SequenceCursor } from './sequence-page.js';
import { type TxRow, txRow } from './txs.js';

/**
 * The Cosmos txs that minted, moved, changed or burned one NFT. Tokens are never forgotten, so a
 * burned token's history stays readable.
 */
export function nftTxs(
  db: Db,
  nft: { collection: Uint8Array; tokenId: string },
  request: PageRequest<SequenceCursor>,
): Promise<Page<TxRow, SequenceCursor>> {
  return readSequencePage(
    db,
    request,
    (q) => {
      const token = `FROM nft_token k JOIN nft_collection c ON c.id = k.collection_id
        WHERE c.addr = ${q.params.add(nft.collection)} AND k.token_id = ${q.params.add(nft.tokenId)}`;
      return {
        page: `SELECT t.sequence, t.record::text AS record FROM (
            SELECT e.sequence FROM tx_nft e WHERE e.nft_token_id = (SELECT k.id ${token})
              AND ${q.afterCursor('e.sequence')} ORDER BY e.sequence ${q.dir} ${q.limit}
          ) q JOIN tx t ON t.sequence = q.sequence`,
        total: `SELECT k.txs ${token}`,
      };
    },
    txRow,
  );
}
