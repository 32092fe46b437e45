-- The account edges (an account's txs, EVM txs and internal txs, and the txs and EVM txs it signed)
-- packed up to 64 to a row, as arrays of sequences in order, instead of a row (or an index entry) per
-- edge: a row's header, its item pointer and its index entries cost about 40 bytes more than the 8 of
-- a sequence, and tx_account had a second index. The signed lists were the indexes tx_signer and
-- evm_tx_signer; signer_id stays in tx and evm_tx. A
-- pack is keyed by its account and first sequence; the writer (edge-pack.ts) appends to an account's
-- last pack until it holds 64 and then starts the next one, so the packs are the same whatever the
-- batching, and so are the ones made here (64 must match PACK_SIZE there).
-- Views under the old names unpack them (for tests, the counter check and operators); the API reads
-- the packs themselves, newest pack first, so a page touches the packs it needs and no more.
CREATE TABLE tx_account_pack (
  account_id int8 NOT NULL,
  first_sequence int8 NOT NULL,
  sequences int8[] NOT NULL,
  -- The msg set of each tx, in the same order (the `msgs` filter of by-account lists).
  msg_set_ids int4[] NOT NULL,
  PRIMARY KEY (account_id, first_sequence)
);
CREATE TABLE tx_signer_pack (
  account_id int8 NOT NULL,
  first_sequence int8 NOT NULL,
  sequences int8[] NOT NULL,
  msg_set_ids int4[] NOT NULL,
  PRIMARY KEY (account_id, first_sequence)
);
CREATE TABLE evm_tx_signer_pack (
  account_id int8 NOT NULL,
  first_sequence int8 NOT NULL,
  sequences int8[] NOT NULL,
  PRIMARY KEY (account_id, first_sequence)
);
CREATE TABLE evm_tx_account_pack (
  account_id int8 NOT NULL,
  first_sequence int8 NOT NULL,
  sequences int8[] NOT NULL,
  PRIMARY KEY (account_id, first_sequence)
);
CREATE TABLE evm_internal_tx_account_pack (
  account_id int8 NOT NULL,
  first_sequence int8 NOT NULL,
  sequences int8[] NOT NULL,
  PRIMARY KEY (account_id, first_sequence)
);

INSERT INTO tx_account_pack
SELECT account_id, min(sequence), array_agg(sequence ORDER BY sequence), array_agg(msg_set_id ORDER BY sequence)
FROM (SELECT e.*, (row_number() OVER (PARTITION BY account_id ORDER BY sequence) - 1) / 64 AS pack FROM tx_account e) e
GROUP BY account_id, pack;
INSERT INTO tx_signer_pack
SELECT signer_id, min(sequence), array_agg(sequence ORDER BY sequence), array_agg(msg_set_id ORDER BY sequence)
FROM (SELECT t.*, (row_number() OVER (PARTITION BY signer_id ORDER BY sequence) - 1) / 64 AS pack FROM tx t) t
GROUP BY signer_id, pack;
INSERT INTO evm_tx_signer_pack
SELECT signer_id, min(sequence), array_agg(sequence ORDER BY sequence)
FROM (SELECT t.*, (row_number() OVER (PARTITION BY signer_id ORDER BY sequence) - 1) / 64 AS pack FROM evm_tx t) t
GROUP BY signer_id, pack;
INSERT INTO evm_tx_account_pack
SELECT account_id, min(sequence), array_agg(sequence ORDER BY sequence)
FROM (SELECT e.*, (row_number() OVER (PARTITION BY account_id ORDER BY sequence) - 1) / 64 AS pack FROM evm_tx_account e) e
GROUP BY account_id, pack;
INSERT INTO evm_internal_tx_account_pack
SELECT account_id, min(sequence), array_agg(sequence ORDER BY sequence)
FROM (SELECT e.*, (row_number() OVER (PARTITION BY account_id ORDER BY sequence) - 1) / 64 AS pack FROM evm_internal_tx_account e) e
GROUP BY account_id, pack;

DROP INDEX tx_signer;
DROP INDEX evm_tx_signer;
DROP TABLE tx_account;
DROP TABLE evm_tx_account;
DROP TABLE evm_internal_tx_account;

CREATE VIEW tx_account AS
  SELECT p.account_id, e.sequence, e.msg_set_id
  FROM tx_account_pack p CROSS JOIN LATERAL unnest(p.sequences, p.msg_set_ids) AS e(sequence, msg_set_id);
CREATE VIEW evm_tx_account AS
  SELECT p.account_id, e.sequence FROM evm_tx_account_pack p CROSS JOIN LATERAL unnest(p.sequences) AS e(sequence);
CREATE VIEW evm_internal_tx_account AS
  SELECT p.account_id, e.sequence FROM evm_internal_tx_account_pack p CROSS JOIN LATERAL unnest(p.sequences) AS e(sequence);

-- An EVM tx's call frames as one row (call-codec.ts: the frames' fields end to end, compressed like a
-- record) instead of a row per frame with three indexes: a tx's frames have consecutive sequences,
-- first_sequence .. first_sequence + frame_count - 1, so a frame is found by the last row starting at or
-- before its sequence. The frames are already compressed (storage EXTERNAL, as the records).
CREATE TABLE evm_internal_tx_pack (
  first_sequence int8 PRIMARY KEY,
  frame_count int4 NOT NULL,
  evm_tx_sequence int8 NOT NULL,
  height int8 NOT NULL,
  frames bytea NOT NULL
);
ALTER TABLE evm_internal_tx_pack ALTER COLUMN frames SET STORAGE EXTERNAL;

-- weft:step pack_calls

DROP TABLE evm_internal_tx;
CREATE INDEX evm_internal_tx_pack_tx ON evm_internal_tx_pack (evm_tx_sequence);
CREATE INDEX evm_internal_tx_pack_height ON evm_internal_tx_pack (height);
CREATE VIEW evm_internal_tx AS
  SELECT s.sequence, c.height, c.evm_tx_sequence
  FROM evm_internal_tx_pack c
  CROSS JOIN LATERAL generate_series(c.first_sequence, c.first_sequence + c.frame_count - 1) AS s(sequence);

ANALYZE evm_internal_tx_pack;
ANALYZE tx_account_pack;
ANALYZE tx_signer_pack;
ANALYZE evm_tx_signer_pack;
ANALYZE evm_tx_account_pack;
ANALYZE evm_internal_tx_account_pack;
