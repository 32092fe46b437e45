-- Tx and EVM tx records as compressed bytes (record-codec.ts: raw deflate with a preset dictionary)
-- instead of json text: PostgreSQL compresses a value only past about 2 KB, with pglz, so records
-- took about twice the room. The tables are rebuilt (the step `compress_records` copies the rows,
-- compressing each record) so no space of the old values stays behind. Compressed values are not
-- compressed again (storage EXTERNAL): a large one goes to TOAST as it is. Hashes are only ever
-- looked up by equality: hash indexes keep a 4-byte hash code per row where a btree kept all 32 bytes.
-- The lists bounded by one block or one tx (by height, an EVM tx's internal txs) are read from an
-- index on the height (or the EVM tx) alone and sorted: those are counted at read time anyway, and
-- a key that repeats is stored once per index page (btree deduplication) instead of once per row.
CREATE TABLE tx_compressed (
  sequence int8 NOT NULL,
  hash bytea NOT NULL,
  height int8 NOT NULL,
  signer_id int8 NOT NULL,
  msg_set_id int4 NOT NULL,
  record bytea NOT NULL
);
CREATE TABLE evm_tx_compressed (
  sequence int8 NOT NULL,
  hash bytea NOT NULL,
  height int8 NOT NULL,
  signer_id int8 NOT NULL,
  record bytea NOT NULL
);

-- weft:step compress_records

DROP TABLE tx;
DROP TABLE evm_tx;
ALTER TABLE tx_compressed RENAME TO tx;
ALTER TABLE evm_tx_compressed RENAME TO evm_tx;
ALTER TABLE tx ADD PRIMARY KEY (sequence), ALTER COLUMN record SET STORAGE EXTERNAL;
ALTER TABLE evm_tx ADD PRIMARY KEY (sequence), ALTER COLUMN record SET STORAGE EXTERNAL;
CREATE INDEX tx_hash ON tx USING hash (hash);
CREATE INDEX tx_height ON tx (height);
CREATE INDEX tx_signer ON tx (signer_id, sequence);
CREATE INDEX tx_msg_set ON tx (msg_set_id, sequence);
CREATE INDEX evm_tx_hash ON evm_tx USING hash (hash);
CREATE INDEX evm_tx_height ON evm_tx (height);
CREATE INDEX evm_tx_signer ON evm_tx (signer_id, sequence);
DROP INDEX evm_internal_tx_height;
DROP INDEX evm_internal_tx_parent;
CREATE INDEX evm_internal_tx_height ON evm_internal_tx (height);
CREATE INDEX evm_internal_tx_parent ON evm_internal_tx (evm_tx_sequence);
ANALYZE tx;
ANALYZE evm_tx;
ANALYZE evm_internal_tx;
