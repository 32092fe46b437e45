-- The router's tracked transfers, in a schema of their own (`router` by default) beside the indexer's.
-- One row per source tx; `progress` holds the evidence seen so far (hops and their txs). A row is advanced
-- only by the process holding its lease (`owner`, `lease_until`); a lapsed lease is taken over.
CREATE TABLE tracked_transfer (
  id bigserial PRIMARY KEY,
  chain_id text NOT NULL,
  -- lowercase hex without 0x
  tx_hash text NOT NULL,
  state text NOT NULL,
  terminal boolean NOT NULL DEFAULT false,
  progress jsonb NOT NULL,
  version int4 NOT NULL DEFAULT 0,
  owner text,
  lease_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  last_progress_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (chain_id, tx_hash)
);

-- Claims scan the transfers in flight by lease expiry.
CREATE INDEX tracked_transfer_in_flight ON tracked_transfer (lease_until NULLS FIRST, id) WHERE NOT terminal;

-- Every advance, by whom: an audit of who moved a transfer and when (and the tracking lag).
CREATE TABLE tracked_transfer_step (
  transfer_id int8 NOT NULL REFERENCES tracked_transfer (id) ON DELETE CASCADE,
  version int4 NOT NULL,
  state text NOT NULL,
  step text NOT NULL,
  owner text NOT NULL,
  at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (transfer_id, version)
);
