-- One row per synced dataset: what /healthz reports and what response metadata cites.
CREATE TABLE IF NOT EXISTS datasets (
  name        text PRIMARY KEY,
  as_of       date,
  source_url  text NOT NULL,
  checksum    text,
  row_count   integer NOT NULL DEFAULT 0,
  loaded_at   timestamptz NOT NULL DEFAULT now(),
  details     jsonb NOT NULL DEFAULT '{}'::jsonb
);
