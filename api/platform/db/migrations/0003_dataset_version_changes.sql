-- What a version changed, for the dataset-updates feed and webhooks (api/dataset-updates): the rows
-- the load inserted or whose values differ from the load before. NULL for versions recorded before
-- this column (their count of changes was not kept).
ALTER TABLE dataset_versions ADD COLUMN IF NOT EXISTS changed_rows integer;
