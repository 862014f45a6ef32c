-- Resident populations by state and county as the FFIEC HMDA Data Browser uses them (Census Bureau
-- figures, one vintage per year of HMDA data): the denominators of per-resident figures.
CREATE TABLE IF NOT EXISTS population (
  year       integer NOT NULL,
  geo_level  text NOT NULL CHECK (geo_level IN ('state', 'county')),
  -- Two-letter code for a state, DC or territory; 5-digit FIPS for a county.
  geo_code   text NOT NULL,
  residents  bigint NOT NULL CHECK (residents >= 0),
  PRIMARY KEY (year, geo_level, geo_code)
);
