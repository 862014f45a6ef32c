-- One row per dataset per sync run: what was loaded, how many rows changed, or why it failed.
CREATE TABLE IF NOT EXISTS sync_runs (
  id           bigserial PRIMARY KEY,
  run_id       text NOT NULL,
  dataset      text NOT NULL,
  status       text NOT NULL CHECK (status IN ('ok', 'failed', 'skipped')),
  started_at   timestamptz NOT NULL,
  finished_at  timestamptz NOT NULL,
  as_of        date,
  row_count    integer,
  changed      integer,
  checksum     text,
  message      text
);
CREATE INDEX IF NOT EXISTS sync_runs_dataset_started ON sync_runs (dataset, started_at DESC);
