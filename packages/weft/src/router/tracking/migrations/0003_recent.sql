-- `GET /v2/tx/recent`: the newest tracked transfers (by id, the order they were registered in), optionally of
-- one source chain or in one state. Unfiltered, the primary key serves it (read backwards).
CREATE INDEX tracked_transfer_recent_by_chain ON tracked_transfer (chain_id, id);
CREATE INDEX tracked_transfer_recent_by_state ON tracked_transfer (state, id);
