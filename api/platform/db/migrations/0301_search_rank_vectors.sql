-- Two compact vectors beside the full one. Matching uses `document` (through the GIN index);
-- ranking reads `rank_vector` (title and aliases A, headings and summary B, the first 1,500
-- characters of the body C), which is a fraction of the size, so ranking thousands of matches
-- stays fast; `title_vector` gives the "matched in the title" bonus without computing it per row.
ALTER TABLE search_documents
  ADD COLUMN IF NOT EXISTS title_vector tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, title || ' ' || aliases)) STORED;
ALTER TABLE search_documents
  ADD COLUMN IF NOT EXISTS rank_vector tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english'::regconfig, title || ' ' || aliases), 'A') ||
    setweight(to_tsvector('english'::regconfig, headings || ' ' || summary), 'B') ||
    setweight(to_tsvector('english'::regconfig, left(body, 1500)), 'C')
  ) STORED;
-- Keep the full vector uncompressed: a scan that must read it (a very common word) then skips the
-- decompression, which is most of its cost.
ALTER TABLE search_documents ALTER COLUMN document SET STORAGE EXTERNAL;
