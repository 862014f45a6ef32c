-- Full-text search over our content, tracked bills and market updates. One row per page; the
-- weighted tsvector is derived from the text columns (A: title and aliases, B: headings and summary,
-- C: body) so every writer indexes the same way. `source` says which builder owns the row, so a
-- rebuild of one source never removes another's documents.
CREATE TABLE IF NOT EXISTS search_documents (
  id           text PRIMARY KEY,
  type         text NOT NULL CHECK (type IN ('article', 'glossary', 'learn', 'research', 'bill', 'news')),
  source       text NOT NULL,
  title        text NOT NULL,
  path         text NOT NULL,
  aliases      text NOT NULL DEFAULT '',
  summary      text NOT NULL DEFAULT '',
  headings     text NOT NULL DEFAULT '',
  body         text NOT NULL DEFAULT '',
  published_on date,
  indexed_at   timestamptz NOT NULL DEFAULT now(),
  document     tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english'::regconfig, title || ' ' || aliases), 'A') ||
    setweight(to_tsvector('english'::regconfig, headings || ' ' || summary), 'B') ||
    setweight(to_tsvector('english'::regconfig, body), 'C')
  ) STORED
);

CREATE INDEX IF NOT EXISTS search_documents_document_idx ON search_documents USING GIN (document);
CREATE INDEX IF NOT EXISTS search_documents_type_idx ON search_documents (type);
CREATE INDEX IF NOT EXISTS search_documents_source_idx ON search_documents (source);
