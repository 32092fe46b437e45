import type { Db } from './db.js';

/**
 * Recounts what the writer keeps as counters and lists every disagreement (empty when all agree).
 * It scans whole tables, so it is for tests and operators, never for the API.
 */
const CHECKS: Record<string, string> = {
  counter: `
    SELECT k.name, coalesce(c.n, 0) AS kept, k.real FROM (
      SELECT 'block' AS name, count(*) AS real FROM block
      UNION ALL SELECT 'tx', count(*) FROM tx
      UNION ALL SELECT 'evm_tx', count(*) FROM evm_tx
      UNION ALL SELECT 'internal_tx', count(*) FROM evm_internal_tx
      UNION ALL SELECT 'collection', count(*) FROM nft_collection
    ) k LEFT JOIN counter c ON c.name = k.name
    WHERE coalesce(c.n, 0) <> k.real`,
  sequences: `
    SELECT 'tx' AS family FROM tx HAVING coalesce(max(sequence), 0) <> count(*)
    UNION ALL SELECT 'evm_tx' FROM evm_tx HAVING coalesce(max(sequence), 0) <> count(*)
    UNION ALL SELECT 'internal_tx' FROM evm_internal_tx HAVING coalesce(max(sequence), 0) <> count(*)`,
  msg_set: `
    SELECT m.id, m.txs, count(t.sequence) AS real FROM msg_set m LEFT JOIN tx t ON t.msg_set_id = m.id
    GROUP BY m.id HAVING m.txs <> count(t.sequence)`,
  account_stat: `
    WITH real AS (
      SELECT a.id,
        coalesce(txs.n, 0) AS txs, coalesce(signed.n, 0) AS signed_txs,
        coalesce(evm.n, 0) AS evm_txs, coalesce(evm_signed.n, 0) AS signed_evm_txs,
        coalesce(internal.n, 0) AS internal_txs, coalesce(nfts.n, 0) AS nfts, coalesce(nfts.c, 0) AS collections
      FROM account a
      LEFT JOIN (SELECT account_id, count(*) AS n FROM tx_account GROUP BY 1) txs ON txs.account_id = a.id
      LEFT JOIN (SELECT signer_id, count(*) AS n FROM tx GROUP BY 1) signed ON signed.signer_id = a.id
      LEFT JOIN (SELECT account_id, count(*) AS n FROM evm_tx_account GROUP BY 1) evm ON evm.account_id = a.id
      LEFT JOIN (SELECT signer_id, count(*) AS n FROM evm_tx GROUP BY 1) evm_signed ON evm_signed.signer_id = a.id
      LEFT JOIN (SELECT account_id, count(*) AS n FROM evm_internal_tx_account GROUP BY 1) internal
        ON internal.account_id = a.id
      LEFT JOIN (SELECT owner_id, count(*) AS n, count(DISTINCT collection_id) AS c FROM nft GROUP BY 1) nfts
        ON nfts.owner_id = a.id
    )
    SELECT r.*, s.* FROM real r LEFT JOIN account_stat s ON s.account_id = r.id
    WHERE (coalesce(s.txs, 0), coalesce(s.signed_txs, 0), coalesce(s.evm_txs, 0), coalesce(s.signed_evm_txs, 0),
           coalesce(s.internal_txs, 0), coalesce(s.nfts, 0), coalesce(s.collections, 0))
       <> (r.txs, r.signed_txs, r.evm_txs, r.signed_evm_txs, r.internal_txs, r.nfts, r.collections)`,
  // The signed lists (packed, edge-pack.ts) hold each tx under its signer, with its msg set.
  signer_packs: `
    SELECT 'tx' AS family, * FROM (
      SELECT p.account_id, e.sequence, e.msg_set_id
      FROM tx_signer_pack p CROSS JOIN LATERAL unnest(p.sequences, p.msg_set_ids) AS e(sequence, msg_set_id)
    ) packed FULL JOIN (SELECT signer_id AS account_id, sequence, msg_set_id FROM tx) t
      USING (account_id, sequence, msg_set_id)
    WHERE packed IS NULL OR t IS NULL
    UNION ALL
    SELECT 'evm_tx', *, NULL FROM (
      SELECT p.account_id, e.sequence FROM evm_tx_signer_pack p CROSS JOIN LATERAL unnest(p.sequences) AS e(sequence)
    ) packed FULL JOIN (SELECT signer_id AS account_id, sequence FROM evm_tx) t USING (account_id, sequence)
    WHERE packed IS NULL OR t IS NULL`,
  account_msg_set: `
    WITH real AS (
      SELECT e.account_id, e.msg_set_id, count(*) AS txs,
        count(*) FILTER (WHERE t.signer_id = e.account_id) AS signed_txs
      FROM tx_account e JOIN tx t ON t.sequence = e.sequence GROUP BY 1, 2
    )
    SELECT * FROM real r FULL JOIN account_msg_set k USING (account_id, msg_set_id)
    WHERE coalesce(r.txs, 0) <> coalesce(k.txs, 0) OR coalesce(r.signed_txs, 0) <> coalesce(k.signed_txs, 0)`,
  nft_collection: `
    SELECT c.id, c.nft_count, count(n.id) AS real FROM nft_collection c LEFT JOIN nft n ON n.collection_id = c.id
    GROUP BY c.id HAVING c.nft_count <> count(n.id)`,
  nft_holding: `
    WITH real AS (SELECT owner_id, collection_id, count(*) AS nfts FROM nft GROUP BY 1, 2)
    SELECT * FROM real r FULL JOIN nft_holding h USING (owner_id, collection_id)
    WHERE r.nfts IS DISTINCT FROM h.nfts
       OR h.collection_height <> (SELECT c.height FROM nft_collection c WHERE c.id = h.collection_id)`,
  nft_token: `
    SELECT k.id, k.txs, count(e.sequence) AS real FROM nft_token k LEFT JOIN tx_nft e ON e.nft_token_id = k.id
    GROUP BY k.id HAVING k.txs <> count(e.sequence)`,
  nft: `
    SELECT n.id FROM nft n LEFT JOIN nft_token k ON k.id = n.id
    WHERE k.id IS NULL OR k.collection_id <> n.collection_id OR k.token_id <> n.token_id`,
  denom: `
    SELECT d.id, d.holders, count(b.account_id) AS real FROM denom d LEFT JOIN rich_list b ON b.denom_id = d.id
    GROUP BY d.id HAVING d.holders <> count(b.account_id)`,
};

export async function checkCounters(db: Db): Promise<string[]> {
  const problems: string[] = [];
  for (const [name, sql] of Object.entries(CHECKS)) {
    const rows = await db.query(sql);
    for (const row of rows) problems.push(`${name}: ${JSON.stringify(row)}`);
  }
  return problems;
}
