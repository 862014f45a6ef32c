-- The CFPB Rate Checker (owning-a-home-api) was deprecated on 2026-02-18: its observations, its
-- dataset record, versions and sync attempts go. Imported rate sheets stay in lender_rate_observations.
DELETE FROM lender_rate_observations WHERE source_kind = 'rate_checker';
DELETE FROM datasets WHERE name = 'rate_checker';
DELETE FROM dataset_versions WHERE dataset = 'rate_checker';
DELETE FROM sync_runs WHERE dataset = 'rate_checker';

-- The documented state estimate (dataset state_rate_estimates): per state, product, purpose and LTV
-- band of one HMDA year, the median rate spread of the state's loans and of the nation's, and the
-- difference added to the national benchmark (NULL below the minimum sample).
CREATE TABLE IF NOT EXISTS rate_state_estimates (
  hmda_year            smallint NOT NULL,
  state                char(2) NOT NULL,
  product_type         text NOT NULL CHECK (product_type IN ('conventional', 'fha', 'va', 'jumbo', 'usda')),
  loan_purpose         text NOT NULL CHECK (loan_purpose IN ('purchase', 'refinance')),
  ltv_band             smallint NOT NULL CHECK (ltv_band IN (1, 2)),
  sample_size          integer NOT NULL,
  median_spread        numeric(7, 3) NOT NULL,
  national_sample_size integer NOT NULL,
  national_median      numeric(7, 3) NOT NULL,
  adjustment           numeric(7, 3),
  synthetic            boolean NOT NULL DEFAULT false,
  PRIMARY KEY (state, product_type, loan_purpose, ltv_band)
);

-- The FFIEC's Average Prime Offer Rates for fixed-rate loans (dataset apor): one row per week (the
-- Monday its rates take effect) and term of 1 to 50 years.
CREATE TABLE IF NOT EXISTS apor_fixed_rates (
  week_of    date NOT NULL,
  term_years smallint NOT NULL CHECK (term_years BETWEEN 1 AND 50),
  rate       numeric(6, 3) NOT NULL,
  PRIMARY KEY (week_of, term_years)
);
