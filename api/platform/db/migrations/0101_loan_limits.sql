-- County geography (Census county list plus Connecticut's planning regions) and loan limits per
-- program, year and county, as FHFA (conforming) and HUD (FHA) publish them.
CREATE TABLE IF NOT EXISTS counties (
  fips        text PRIMARY KEY CHECK (fips ~ '^[0-9]{5}$'),
  state       text NOT NULL,
  state_fips  text NOT NULL,
  name        text NOT NULL,
  match_key   text NOT NULL,
  kind        text NOT NULL CHECK (kind IN ('county', 'planning_region')),
  note        text
);
CREATE INDEX IF NOT EXISTS counties_state ON counties (state);

CREATE TABLE IF NOT EXISTS loan_limits (
  program       text NOT NULL CHECK (program IN ('conforming', 'fha')),
  year          integer NOT NULL,
  fips          text NOT NULL CHECK (fips ~ '^[0-9]{5}$'),
  state         text NOT NULL,
  source_name   text NOT NULL,
  cbsa          text,
  limit_1       integer NOT NULL,
  limit_2       integer NOT NULL,
  limit_3       integer NOT NULL,
  limit_4       integer NOT NULL,
  limit_type    text,
  median_price  integer,
  PRIMARY KEY (program, year, fips)
);
CREATE INDEX IF NOT EXISTS loan_limits_state_year ON loan_limits (state, year);

-- National figures per program and year as the files give them (baseline/floor and ceiling).
CREATE TABLE IF NOT EXISTS loan_limit_national (
  program  text NOT NULL CHECK (program IN ('conforming', 'fha')),
  year     integer NOT NULL,
  kind     text NOT NULL CHECK (kind IN ('floor', 'ceiling')),
  limit_1  integer NOT NULL,
  limit_2  integer NOT NULL,
  limit_3  integer NOT NULL,
  limit_4  integer NOT NULL,
  note     text,
  PRIMARY KEY (program, year, kind)
);
