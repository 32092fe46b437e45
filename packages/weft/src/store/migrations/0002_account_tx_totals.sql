-- An account's Cosmos tx totals, unfiltered, in its account_stat row: the total of an account's tx
-- list without a msg type filter is then one primary-key read instead of a sum over its msg sets.
-- account_msg_set keeps the per-set totals that filtered lists add up.
ALTER TABLE account_stat
  ADD COLUMN txs int8 NOT NULL DEFAULT 0,
  ADD COLUMN signed_txs int8 NOT NULL DEFAULT 0;

INSERT INTO account_stat AS s (account_id, txs, signed_txs)
SELECT account_id, sum(txs), sum(signed_txs) FROM account_msg_set GROUP BY account_id
ON CONFLICT (account_id) DO UPDATE SET txs = EXCLUDED.txs, signed_txs = EXCLUDED.signed_txs;
