-- Each year's county counts as one text document, one line per county ("<fips> <counts as JSON>",
-- by FIPS): the series read every county's counts at once, and PGlite answers 8 rows of a few MB in
-- about a second where the 26,000 rows of hmda_county_aggregates took about 13 s. The hmda_aggregates
-- sync writes a year's document with its rows; filled here once from the rows already loaded.
CREATE TABLE IF NOT EXISTS hmda_county_counts (
  year  integer PRIMARY KEY,
  body  text NOT NULL
);
-- Stored as written: decompressing a few MB in PGlite's WebAssembly took longer than reading them.
ALTER TABLE hmda_county_counts ALTER COLUMN body SET STORAGE EXTERNAL;

INSERT INTO hmda_county_counts (year, body)
SELECT year, string_agg(fips || ' ' || counts::text, E'\n' ORDER BY fips)
FROM hmda_county_aggregates
GROUP BY year
ON CONFLICT (year) DO NOTHING;
