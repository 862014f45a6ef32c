-- The fingerprint of the documents the search index was last built from: a start-up refresh whose
-- documents hash the same skips the rebuild (which holds the embedded database for seconds).
CREATE TABLE IF NOT EXISTS search_index_state (
  id          boolean PRIMARY KEY DEFAULT true CHECK (id),
  fingerprint text NOT NULL,
  built_at    timestamptz NOT NULL DEFAULT now()
);
