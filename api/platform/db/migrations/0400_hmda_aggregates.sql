-- Official HMDA aggregates (FFIEC HMDA Maps / Data Browser files): counts of all LAR records per
-- year, geography, dimension and code; the 2020 transmittal-sheet filers; and the inputs of the
-- precomputed statistics (a 50,000-record HMDA sample, HUD area median family incomes).

-- State and national counts in long form. geo_code 'NA' (geo_level 'state') holds the records whose
-- property state was not reported; geo_level 'nation' is the sum of every state-level row.
CREATE TABLE IF NOT EXISTS hmda_aggregates (
  year       integer NOT NULL,
  geo_level  text NOT NULL CHECK (geo_level IN ('nation', 'state')),
  geo_code   text NOT NULL,
  dimension  text NOT NULL,
  code       text NOT NULL,
  count      bigint NOT NULL CHECK (count >= 0),
  PRIMARY KEY (year, geo_level, geo_code, dimension, code)
);

-- County counts, one row per county and year (the same dimensions and codes as a JSON object
-- {dimension: {code: count}}): 26,000 rows instead of 1.8 million in long form.
CREATE TABLE IF NOT EXISTS hmda_county_aggregates (
  year     integer NOT NULL,
  fips     text NOT NULL CHECK (fips ~ '^[0-9]{5}$'),
  records  bigint NOT NULL CHECK (records >= 0),
  counts   jsonb NOT NULL,
  PRIMARY KEY (year, fips)
);

-- Official record counts per geography as the Data Browser uses them (including keys such as the
-- blank state of 2018 that carry no breakdown), kept for validation and totals.
CREATE TABLE IF NOT EXISTS hmda_record_counts (
  year       integer NOT NULL,
  geo_level  text NOT NULL CHECK (geo_level IN ('state', 'county')),
  geo_code   text NOT NULL,
  records    bigint NOT NULL CHECK (records >= 0),
  PRIMARY KEY (year, geo_level, geo_code)
);

-- HMDA filers from a transmittal sheet (only 2020 is available): one row per LEI and year.
CREATE TABLE IF NOT EXISTS hmda_lenders (
  year             integer NOT NULL,
  lei              text NOT NULL,
  respondent_name  text NOT NULL,
  agency_code      integer NOT NULL,
  agency_name      text NOT NULL,
  respondent_state text,
  respondent_city  text,
  lar_count        integer NOT NULL CHECK (lar_count >= 0),
  PRIMARY KEY (year, lei)
);
CREATE INDEX IF NOT EXISTS hmda_lenders_rank ON hmda_lenders (year, lar_count DESC);

-- A 50,000-record sample of post-2018 public HMDA records (year and state not stated by its
-- publisher), used only for loan-to-value and down-payment statistics labelled as such.
CREATE TABLE IF NOT EXISTS hmda_loan_sample (
  row_number          integer PRIMARY KEY,
  approved            smallint NOT NULL,
  loan_amount         numeric,
  income_thousands    numeric,
  loan_to_value_ratio numeric,
  loan_purpose        integer,
  property_value      numeric,
  occupancy_type      integer
);

-- HUD Section 8 area median family income per fiscal year and county or New England town.
CREATE TABLE IF NOT EXISTS hud_median_family_income (
  fiscal_year  integer NOT NULL,
  area_fips    text NOT NULL,
  state        text NOT NULL,
  county_fips  text NOT NULL,
  area_name    text NOT NULL,
  median       integer NOT NULL CHECK (median > 0),
  PRIMARY KEY (fiscal_year, area_fips)
);
