-- Each load of a dataset that changed its content is a version: the publisher's vintage plus the
-- content checksum (`2026-01-01.3f9a2c1b`). `snapshot` holds what the service answers from (gzip of
-- JSON) so answers can be pinned to a past day; it is cleared once the version falls out of the
-- kept window, while the row stays to say which version was served when (a clear "no longer kept").
CREATE TABLE IF NOT EXISTS dataset_versions (
  id            bigserial PRIMARY KEY,
  dataset       text NOT NULL,
  version       text NOT NULL,
  as_of         date,
  checksum      text NOT NULL,
  source_url    text NOT NULL,
  row_count     integer NOT NULL DEFAULT 0,
  published_at  timestamptz NOT NULL,
  snapshot      bytea
);

CREATE INDEX IF NOT EXISTS dataset_versions_by_publication ON dataset_versions (dataset, published_at DESC, id DESC);
