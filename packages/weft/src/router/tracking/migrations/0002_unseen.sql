-- Transfers whose source tx is not seen yet: `track` counts them against the cap of unseen ones.
CREATE INDEX tracked_transfer_unseen ON tracked_transfer (id) WHERE state = 'STATE_SUBMITTED';

-- Abandoned transfers whose source tx was never seen, by age: the periodic work deletes them after the retention.
CREATE INDEX tracked_transfer_unseen_abandoned ON tracked_transfer (updated_at)
  WHERE state = 'STATE_ABANDONED' AND NOT (progress ? 'source');
