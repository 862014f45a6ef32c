// What loan-limit answers are computed from, held in memory between syncs: the county list by state,
// the years loaded per program, the national figures, and each program-year's county limits (read
// on first use: a year is about 3,300 rows). A new load of any loan-limit dataset makes a new
// snapshot (the service keys it on the datasets' load times), so no lookup waits on the database
// once a year has been read.
import type { Queryable } from '../platform/db/database.ts';
import { PROGRAMS, type Program } from './contract.ts';
import type { CountyRecord } from './resolve.ts';

export type FourLimits = readonly [number, number, number, number];

export interface LimitRow {
  fips: string;
  /** The county as the publisher's file names it (for places the county list lacks). */
  sourceName: string;
  cbsa: string | null;
  limits: FourLimits;
  /** HUD's `H` (high cost) or `S` (standard); null in FHFA's files. */
  limitType: string | null;
}

export interface NationalLimits {
  floor?: FourLimits;
  ceiling?: FourLimits;
}

const NO_ROWS: ReadonlyMap<string, LimitRow> = new Map();

export interface LoanLimitSnapshot {
  /** Signature of the dataset loads this snapshot was read under. */
  version: string;
  /** States and territories with counties loaded, sorted. */
  states: string[];
  /** The counties of a state, sorted by name (empty for a state without any). */
  countiesOf(state: string): readonly CountyRecord[];
  /** Years with county data, ascending, per program. */
  years: Record<Program, number[]>;
  /** The national floor (conforming: baseline) and ceiling of a program and year, as the files give them. */
  national(program: Program, year: number): NationalLimits;
  /** A state's county limits of one program and year by FIPS; read from the database on first use. */
  limits(program: Program, year: number, state: string): Promise<ReadonlyMap<string, LimitRow>>;
}

interface CountyDbRow {
  fips: string;
  state: string;
  state_fips: string;
  name: string;
  match_key: string;
  kind: 'county' | 'planning_region';
  note: string | null;
}

interface LimitDbRow {
  fips: string;
  state: string;
  source_name: string;
  cbsa: string | null;
  limit_1: number;
  limit_2: number;
  limit_3: number;
  limit_4: number;
  limit_type: string | null;
}

interface NationalDbRow {
  program: Program;
  year: number;
  kind: 'floor' | 'ceiling';
  limit_1: number;
  limit_2: number;
  limit_3: number;
  limit_4: number;
}

const fourOf = (row: { limit_1: number; limit_2: number; limit_3: number; limit_4: number }): FourLimits => [
  Number(row.limit_1),
  Number(row.limit_2),
  Number(row.limit_3),
  Number(row.limit_4),
];

/** One program-year's rows, by state and then FIPS. */
async function readYear(db: Queryable, program: Program, year: number): Promise<Map<string, Map<string, LimitRow>>> {
  const { rows } = await db.query<LimitDbRow>(
    `SELECT fips, state, source_name, cbsa, limit_1, limit_2, limit_3, limit_4, limit_type FROM loan_limits
     WHERE program = $1 AND year = $2`,
    [program, year],
  );
  const byState = new Map<string, Map<string, LimitRow>>();
  for (const row of rows) {
    let state = byState.get(row.state);
    if (!state) byState.set(row.state, (state = new Map()));
    state.set(row.fips, { fips: row.fips, sourceName: row.source_name, cbsa: row.cbsa, limits: fourOf(row), limitType: row.limit_type });
  }
  return byState;
}

export async function readSnapshot(db: Queryable, version: string): Promise<LoanLimitSnapshot> {
  const { rows: countyRows } = await db.query<CountyDbRow>('SELECT fips, state, state_fips, name, match_key, kind, note FROM counties ORDER BY state, name');
  const counties = new Map<string, CountyRecord[]>();
  for (const row of countyRows) {
    let list = counties.get(row.state);
    if (!list) counties.set(row.state, (list = []));
    list.push({ fips: row.fips, state: row.state, stateFips: row.state_fips, name: row.name, matchKey: row.match_key, kind: row.kind, note: row.note });
  }
  const { rows: yearRows } = await db.query<{ program: Program; year: number }>('SELECT DISTINCT program, year FROM loan_limits ORDER BY year');
  const years = Object.fromEntries(
    PROGRAMS.map((program) => [program, yearRows.filter((row) => row.program === program).map((row) => Number(row.year))]),
  ) as Record<Program, number[]>;
  const { rows: nationalRows } = await db.query<NationalDbRow>('SELECT program, year, kind, limit_1, limit_2, limit_3, limit_4 FROM loan_limit_national');
  const national = new Map<string, NationalLimits>();
  for (const row of nationalRows) {
    const key = `${row.program}:${Number(row.year)}`;
    national.set(key, { ...national.get(key), [row.kind]: fourOf(row) });
  }

  const loadedYears = new Map<string, Promise<Map<string, Map<string, LimitRow>>>>();
  return {
    version,
    states: [...counties.keys()].sort(),
    countiesOf: (state) => counties.get(state) ?? [],
    years,
    national: (program, year) => national.get(`${program}:${year}`) ?? {},
    async limits(program, year, state) {
      if (!years[program].includes(year)) return NO_ROWS;
      const key = `${program}:${year}`;
      let loading = loadedYears.get(key);
      if (!loading) {
        loading = readYear(db, program, year);
        loadedYears.set(key, loading);
        // A failed read is not remembered: the next lookup asks the database again.
        loading.catch(() => loadedYears.delete(key));
      }
      return (await loading).get(state) ?? NO_ROWS;
    },
  };
}
