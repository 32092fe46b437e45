-- `progress` names the version of its format (`progress-codec.ts`): the rows written before it did are
-- version 1's shape without the field, so they become version 1 as they are. A row that is not a JSON object
-- is left as it is (reading it names it).
UPDATE tracked_transfer SET progress = jsonb_build_object('version', 1) || progress
  WHERE jsonb_typeof(progress) = 'object' AND NOT (progress ? 'version');
