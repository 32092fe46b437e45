-- weft's indexer schema. Addresses and hashes are bytea; repeated strings live once in
-- dictionaries and are referenced by id. Ids and sequences are assigned by the single writer
-- (max + 1 under an advisory lock) so a rolled-back batch leaves no gaps and re-indexing the same
-- chain reproduces the same rows. See README.md for the counter rules.

-- The chain this schema belongs to, written by the first batch and checked by every writer.
CREATE TABLE chain_info (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  chain_id text NOT NULL,
  vm text NOT NULL,
  bech32_prefix text NOT NULL
);

-- Checkpoints: 'block', 'internal_tx', 'rich_list'. Each is written in the transaction that
-- writes the data it covers.
CREATE TABLE progress (
  name text PRIMARY KEY,
  height int8 NOT NULL
);

-- Global counters: 'block', 'tx', 'evm_tx', 'internal_tx', 'collection'. The tx families are
-- never deleted from, so their counter is also the last sequence assigned.
CREATE TABLE counter (
  name text PRIMARY KEY,
  n int8 NOT NULL
);

CREATE TABLE account (
  id int8 PRIMARY KEY,
  address bytea NOT NULL UNIQUE
);

-- Per-account totals for the by-account endpoints (cosmos tx totals are in account_msg_set).
-- Counter tables leave room in their pages so that updates stay HOT (no index writes).
CREATE TABLE account_stat (
  account_id int8 PRIMARY KEY,
  evm_txs int8 NOT NULL DEFAULT 0,
  signed_evm_txs int8 NOT NULL DEFAULT 0,
  internal_txs int8 NOT NULL DEFAULT 0,
  nfts int8 NOT NULL DEFAULT 0,
  collections int8 NOT NULL DEFAULT 0
) WITH (fillfactor = 80);

-- Msg type URLs without the leading '/'.
CREATE TABLE msg_type (
  id int4 PRIMARY KEY,
  name text NOT NULL UNIQUE
);

-- The de-duplicated set of msg types of a tx (sorted ids); `txs` counts the txs with that set.
CREATE TABLE msg_set (
  id int4 PRIMARY KEY,
  type_ids int4[] NOT NULL UNIQUE,
  txs int8 NOT NULL DEFAULT 0
);

-- An account's cosmos txs per msg-type set: all of them, and those it signed. Summed over the
-- account's sets they give its totals; over the sets that intersect a filter, the filtered totals.
CREATE TABLE account_msg_set (
  account_id int8 NOT NULL,
  msg_set_id int4 NOT NULL,
  txs int8 NOT NULL,
  signed_txs int8 NOT NULL,
  PRIMARY KEY (account_id, msg_set_id)
) WITH (fillfactor = 80);

CREATE TABLE block (
  height int8 PRIMARY KEY,
  hash bytea NOT NULL,
  timestamp timestamptz NOT NULL,
  -- ms since the previous block; 0 when the previous height is not indexed.
  block_time int8 NOT NULL,
  proposer text NOT NULL,
  gas_used int8 NOT NULL,
  gas_wanted int8 NOT NULL,
  tx_count int4 NOT NULL,
  total_fee json NOT NULL
);
CREATE INDEX block_with_txs ON block (height) WHERE tx_count > 0;

-- `record` is the API's tx JSON, kept as text (json, not jsonb) so its key order is the one written.
CREATE TABLE tx (
  sequence int8 PRIMARY KEY,
  hash bytea NOT NULL,
  height int8 NOT NULL,
  signer_id int8 NOT NULL,
  msg_set_id int4 NOT NULL,
  record json NOT NULL
);
CREATE INDEX tx_hash ON tx (hash);
CREATE INDEX tx_height ON tx (height, sequence);
CREATE INDEX tx_signer ON tx (signer_id, sequence);
CREATE INDEX tx_msg_set ON tx (msg_set_id, sequence);

CREATE TABLE tx_account (
  account_id int8 NOT NULL,
  sequence int8 NOT NULL,
  msg_set_id int4 NOT NULL,
  PRIMARY KEY (account_id, sequence)
);
CREATE INDEX tx_account_msg_set ON tx_account (account_id, msg_set_id, sequence);

CREATE TABLE evm_tx (
  sequence int8 PRIMARY KEY,
  hash bytea NOT NULL,
  height int8 NOT NULL,
  signer_id int8 NOT NULL,
  record json NOT NULL
);
CREATE INDEX evm_tx_hash ON evm_tx (hash);
CREATE INDEX evm_tx_height ON evm_tx (height, sequence);
CREATE INDEX evm_tx_signer ON evm_tx (signer_id, sequence);

CREATE TABLE evm_tx_account (
  account_id int8 NOT NULL,
  sequence int8 NOT NULL,
  PRIMARY KEY (account_id, sequence)
);

CREATE TABLE evm_internal_tx (
  sequence int8 PRIMARY KEY,
  height int8 NOT NULL,
  evm_tx_sequence int8 NOT NULL,
  index int4 NOT NULL,
  parent_index int4 NOT NULL,
  type text NOT NULL,
  from_id int8 NOT NULL,
  to_id int8,
  input bytea NOT NULL,
  output bytea NOT NULL,
  value bytea NOT NULL,
  gas bytea NOT NULL,
  gas_used bytea NOT NULL
);
CREATE INDEX evm_internal_tx_height ON evm_internal_tx (height, sequence);
CREATE INDEX evm_internal_tx_parent ON evm_internal_tx (evm_tx_sequence, sequence);

CREATE TABLE evm_internal_tx_account (
  account_id int8 NOT NULL,
  sequence int8 NOT NULL,
  PRIMARY KEY (account_id, sequence)
);

-- name_key/origin_key: the names lowercased with everything but letters, marks and digits removed,
-- the form the by-name search matches substrings of.
CREATE TABLE nft_collection (
  id int8 PRIMARY KEY,
  addr bytea NOT NULL UNIQUE,
  name text NOT NULL,
  origin_name text NOT NULL,
  name_key text NOT NULL,
  origin_key text NOT NULL,
  creator_id int8,
  height int8 NOT NULL,
  timestamp timestamptz NOT NULL,
  nft_count int8 NOT NULL
);
CREATE INDEX nft_collection_height ON nft_collection (height, id);
CREATE INDEX nft_collection_name ON nft_collection (name);

-- Every token ever seen; outlives burns so a burned token's tx history stays reachable.
CREATE TABLE nft_token (
  id int8 PRIMARY KEY,
  collection_id int8 NOT NULL,
  token_id text COLLATE "C" NOT NULL,
  object_addr bytea,
  txs int8 NOT NULL,
  UNIQUE (collection_id, token_id)
);
CREATE INDEX nft_token_object ON nft_token (object_addr) WHERE object_addr IS NOT NULL;

-- Live tokens; `id` is the nft_token id. token_id orders bytewise (COLLATE "C") on every server.
CREATE TABLE nft (
  id int8 PRIMARY KEY,
  collection_id int8 NOT NULL,
  token_id text COLLATE "C" NOT NULL,
  object_addr bytea,
  owner_id int8 NOT NULL,
  uri text NOT NULL,
  height int8 NOT NULL,
  timestamp timestamptz NOT NULL
);
CREATE INDEX nft_by_owner_token ON nft (owner_id, token_id, height, id);
CREATE INDEX nft_by_owner_height ON nft (owner_id, height, token_id, id);
CREATE INDEX nft_by_collection_token ON nft (collection_id, token_id, height);
CREATE INDEX nft_by_collection_height ON nft (collection_id, height, token_id);

-- How many live NFTs of a collection an account owns; a row exists only while nfts > 0.
CREATE TABLE nft_holding (
  owner_id int8 NOT NULL,
  collection_id int8 NOT NULL,
  collection_height int8 NOT NULL,
  nfts int8 NOT NULL,
  PRIMARY KEY (owner_id, collection_id)
);
CREATE INDEX nft_holding_owner_height ON nft_holding (owner_id, collection_height, collection_id);

CREATE TABLE tx_nft (
  nft_token_id int8 NOT NULL,
  sequence int8 NOT NULL,
  PRIMARY KEY (nft_token_id, sequence)
);

CREATE TABLE denom (
  id int4 PRIMARY KEY,
  name text NOT NULL UNIQUE,
  holders int8 NOT NULL DEFAULT 0
);

-- Positive balances only: a balance that reaches zero is deleted.
CREATE TABLE rich_list (
  denom_id int4 NOT NULL,
  account_id int8 NOT NULL,
  amount numeric NOT NULL CHECK (amount > 0),
  PRIMARY KEY (denom_id, account_id)
);
CREATE INDEX rich_list_amount ON rich_list (denom_id, amount DESC, account_id);
