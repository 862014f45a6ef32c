-- The precomputed statistics catalogue (`npm run precompute`, or the `statistics` dataset of a
-- sync): every row is computed from the synced tables; ids are stable across runs.
CREATE TABLE IF NOT EXISTS statistics (
  id           text PRIMARY KEY,
  category     text NOT NULL CHECK (category IN ('market_overview', 'rates', 'loan_types', 'down_payment',
                 'borrower_profile', 'lenders', 'affordability')),
  value        text NOT NULL,
  label        text NOT NULL,
  headline     text NOT NULL,
  data_year    integer NOT NULL,
  source_url   text NOT NULL,
  numeric_value double precision NOT NULL,
  as_of        date NOT NULL
);
CREATE INDEX IF NOT EXISTS statistics_category ON statistics (category, data_year);
