-- Every statistic says what it is: data_year is null when the source states no year (and
-- data_year_note then says why), and population names what the figure is computed over.
-- The rows computed before these columns existed cannot be completed here, so they are dropped
-- together with the `statistics` dataset record: the service answers 503 ("not computed yet")
-- until the next precompute, which every default sync (start-up included) runs.
DELETE FROM statistics;
DELETE FROM datasets WHERE name = 'statistics';
ALTER TABLE statistics ALTER COLUMN data_year DROP NOT NULL;
ALTER TABLE statistics ADD COLUMN IF NOT EXISTS data_year_note text;
ALTER TABLE statistics ADD COLUMN IF NOT EXISTS population text NOT NULL;
ALTER TABLE statistics ADD CONSTRAINT statistics_year_or_note CHECK ((data_year IS NULL) = (data_year_note IS NOT NULL));
