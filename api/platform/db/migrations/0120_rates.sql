-- Rates: national series from FRED (Freddie Mac PMMS, Optimal Blue indices) and lender/state
-- observations (CFPB Rate Checker, imported rate sheets). Other capabilities read
-- rate_series_observations (e.g. weekly market updates): keep its name and columns stable.

-- One value of one national series on one day; series_id is the FRED id (MORTGAGE30US, OBMMIC30YF...).
CREATE TABLE IF NOT EXISTS rate_series_observations (
  series_id   text NOT NULL,
  observed_on date NOT NULL,
  value       numeric(6, 3) NOT NULL,
  PRIMARY KEY (series_id, observed_on)
);

-- What each national series is and where it was last loaded from (cited in responses).
CREATE TABLE IF NOT EXISTS rate_series (
  series_id   text PRIMARY KEY,
  title       text NOT NULL,
  publisher   text NOT NULL,
  source_url  text NOT NULL,
  frequency   text NOT NULL,
  first_on    date,
  last_on     date,
  row_count   integer NOT NULL DEFAULT 0,
  checksum    text,
  updated_at  timestamptz NOT NULL DEFAULT now()
);

-- One offered rate for a state × FICO tier × LTV tier × product × term cell on one day, from one
-- source: the mode of a CFPB Rate Checker histogram (distribution_size = offers counted) or a
-- lender's own rate sheet (distribution_size NULL).
CREATE TABLE IF NOT EXISTS lender_rate_observations (
  source            text NOT NULL,
  state             char(2) NOT NULL,
  fico_tier         smallint NOT NULL CHECK (fico_tier BETWEEN 1 AND 5),
  ltv_tier          smallint NOT NULL CHECK (ltv_tier BETWEEN 1 AND 2),
  product_type      text NOT NULL CHECK (product_type IN ('conventional', 'fha', 'va', 'jumbo')),
  loan_term         smallint NOT NULL CHECK (loan_term IN (10, 15, 20, 30)),
  observed_on       date NOT NULL,
  rate              numeric(6, 3) NOT NULL,
  distribution_size integer,
  source_kind       text NOT NULL CHECK (source_kind IN ('rate_checker', 'rate_sheet')),
  source_url        text NOT NULL,
  PRIMARY KEY (source, state, fico_tier, ltv_tier, product_type, loan_term, observed_on)
);

CREATE INDEX IF NOT EXISTS lender_rate_observations_cell
  ON lender_rate_observations (state, fico_tier, ltv_tier, product_type, loan_term, observed_on DESC);
