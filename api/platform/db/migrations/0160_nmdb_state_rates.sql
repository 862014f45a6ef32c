-- FHFA National Mortgage Database, outstanding mortgages by state and quarter: the rate series
-- (average contract rate, share of loans in each rate bucket) for every market segment.
-- value_loan is FHFA's VALUE1 (weighted by loan count), value_dollar its VALUE2 (by balance).
CREATE TABLE IF NOT EXISTS nmdb_state_rates (
  state        char(2) NOT NULL,
  market       text NOT NULL CHECK (market IN ('all', 'enterprise', 'government', 'other_conventional')),
  period       text NOT NULL CHECK (period ~ '^[0-9]{4}Q[1-4]$'),
  quarter_end  date NOT NULL,
  series       text NOT NULL,
  value_loan   numeric(7, 3),
  value_dollar numeric(7, 3),
  suppressed   boolean NOT NULL DEFAULT false,
  PRIMARY KEY (state, market, series, period)
);
