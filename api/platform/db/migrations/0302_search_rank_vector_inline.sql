-- Keep `rank_vector` in the row. Ranking reads it for every matching document, and when it lived in
-- the TOAST table each read cost an index look-up and two chunk fetches: most of a common word's
-- query time (bench `search-corpus`: p50 about 53 ms → 37 ms on 10,000 documents). MAIN lets it move
-- out only as a last resort. With MAIN alone the toaster, still aiming for rows under 2 kB, would
-- push every other column out instead (even the title, which ranking also reads), so rows may grow
-- to 4 kB before that happens: the full vector and the body still go out, the small columns stay.
ALTER TABLE search_documents ALTER COLUMN rank_vector SET STORAGE MAIN;
ALTER TABLE search_documents SET (toast_tuple_target = 4096);
-- Storage applies to values as they are written: recompute the existing rows' vectors now rather
-- than at their next refresh (a stored generated column is only recomputed when a column it is
-- made from is assigned).
UPDATE search_documents SET body = body;
