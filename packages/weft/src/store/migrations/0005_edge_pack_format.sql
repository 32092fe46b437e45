-- Every stored value says its format. Records (record-codec.ts) and an EVM tx's call frames
-- (call-codec.ts) already do, in their first byte; an account's edge packs (edge-pack.ts) get a
-- `format` column, format 1 being the layout of 0004. The column is added with a default, so the
-- packs already stored take it from the catalog without being rewritten (and cost no byte); the
-- default is then dropped, so the writer names the format of each pack it writes (2 bytes, 8 with
-- alignment: under 1.5 % of a full pack). The packs are read by SQL that reads format 1 only and never
-- selects the column: the CHECK keeps any other format out, and a later one comes with the migration
-- that admits it and the reads that take it.
ALTER TABLE tx_account_pack ADD COLUMN format int2 NOT NULL DEFAULT 1 CONSTRAINT tx_account_pack_format CHECK (format = 1);
ALTER TABLE tx_signer_pack ADD COLUMN format int2 NOT NULL DEFAULT 1 CONSTRAINT tx_signer_pack_format CHECK (format = 1);
ALTER TABLE evm_tx_account_pack ADD COLUMN format int2 NOT NULL DEFAULT 1 CONSTRAINT evm_tx_account_pack_format CHECK (format = 1);
ALTER TABLE evm_tx_signer_pack ADD COLUMN format int2 NOT NULL DEFAULT 1 CONSTRAINT evm_tx_signer_pack_format CHECK (format = 1);
ALTER TABLE evm_internal_tx_account_pack ADD COLUMN format int2 NOT NULL DEFAULT 1 CONSTRAINT evm_internal_tx_account_pack_format CHECK (format = 1);
ALTER TABLE tx_account_pack ALTER COLUMN format DROP DEFAULT;
ALTER TABLE tx_signer_pack ALTER COLUMN format DROP DEFAULT;
ALTER TABLE evm_tx_account_pack ALTER COLUMN format DROP DEFAULT;
ALTER TABLE evm_tx_signer_pack ALTER COLUMN format DROP DEFAULT;
ALTER TABLE evm_internal_tx_account_pack ALTER COLUMN format DROP DEFAULT;
