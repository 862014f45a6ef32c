// What loan-limit answers are computed from, held in memory between syncs: the county list by state,
// the years loaded per program, the national figures, and each program-year's county limits (read
// on first use: a year is about 3,300 rows; the six last used are kept). A new load of any
// loan-limit dataset makes a new snapshot (the service keys it on the datasets' load times), so no
// lookup of a kept year waits on the database.
import type { Queryable } from '../platform/db/database.ts';
import { BoundedCache } from '../platform/bounded-cache.ts';
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
/** Program-years of county rows kept in memory (about 0.35 MiB each): a few recent years of both programs. */
const MAX_LOADED_YEARS = 6;

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

export interface CountyDbRow {
  fips: string;
  state: string;
  state_fips: string;
  name: string;
  match_key: string;
  kind: 'county' | 'planning_region';
  note: string | null;
}

export interface LimitDbRow {
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

export interface NationalDbRow {
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
function byStateOf(rows: readonly LimitDbRow[]): Map<string, Map<string, LimitRow>> {
  const byState = new Map<string, Map<string, LimitRow>>();
  for (const row of rows) {
    let state = byState.get(row.state);
    if (!state) byState.set(row.state, (state = new Map()));
    state.set(row.fips, { fips: row.fips, sourceName: row.source_name, cbsa: row.cbsa, limits: fourOf(row), limitType: row.limit_type });
  }
  return byState;
}

async function readYear(db: Queryable, program: Program, year: number): Promise<Map<string, Map<string, LimitRow>>> {
  const { rows } = await db.query<LimitDbRow>(
    `SELECT fips, state, source_name, cbsa, limit_1, limit_2, limit_3, limit_4, limit_type FROM loan_limits
     WHERE program = $1 AND year = $2`,
    [program, year],
  );
  return byStateOf(rows);
}

/** What a snapshot is built from, wherever the rows come from (the tables or an archived version). */
interface SnapshotParts {
  countyRows: readonly CountyDbRow[];
  yearRows: readonly { program: Program; year: number }[];
  nationalRows: readonly NationalDbRow[];
  readYear(program: Program, year: number): Promise<Map<string, Map<string, LimitRow>>>;
}

function buildSnapshot(version: string, parts: SnapshotParts): LoanLimitSnapshot {
  const counties = new Map<string, CountyRecord[]>();
  for (const row of parts.countyRows) {
    let list = counties.get(row.state);
    if (!list) counties.set(row.state, (list = []));
    list.push({
      fips: row.fips,
      state: row.state,
      stateFips: row.state_fips,
      name: row.name,
      matchKey: row.match_key,
      kind: row.kind,
      note: row.note,
    });
  }
  const years = Object.fromEntries(
    PROGRAMS.map((program) => [
      program,
      parts.yearRows
        .filter((row) => row.program === program)
        .map((row) => Number(row.year))
        .sort((a, b) => a - b),
    ]),
  ) as Record<Program, number[]>;
  const national = new Map<string, NationalLimits>();
  for (const row of parts.nationalRows) {
    const key = `${row.program}:${Number(row.year)}`;
    national.set(key, { ...national.get(key), [row.kind]: fourOf(row) });
  }

  // The years last asked for, not every year: the publication composes every state of every year
  // after each sync, and keeping them all held ~12 MiB that readers, mostly after recent years, never
  // use. Another year is one indexed query away.
  const loadedYears = new BoundedCache<Promise<Map<string, Map<string, LimitRow>>>>({
    maxBytes: MAX_LOADED_YEARS,
    sizeOf: () => 1,
  });
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
        loading = parts.readYear(program, year);
        loadedYears.set(key, loading);
        // A failed read is not remembered: the next lookup asks the database again.
        loading.catch(() => loadedYears.delete(key));
      }
      return (await loading).get(state) ?? NO_ROWS;
    },
  };
}

const COUNTY_COLUMNS = 'fips, state, state_fips, name, match_key, kind, note';

export async function readSnapshot(db: Queryable, version: string): Promise<LoanLimitSnapshot> {
  const { rows: countyRows } = await db.query<CountyDbRow>(`SELECT ${COUNTY_COLUMNS} FROM counties ORDER BY state, name`);
  const { rows: yearRows } = await db.query<{ program: Program; year: number }>(
    'SELECT DISTINCT program, year FROM loan_limits ORDER BY year',
  );
  const { rows: nationalRows } = await db.query<NationalDbRow>(
    'SELECT program, year, kind, limit_1, limit_2, limit_3, limit_4 FROM loan_limit_national',
  );
  return buildSnapshot(version, { countyRows, yearRows, nationalRows, readYear: (program, year) => readYear(db, program, year) });
}

/** What the `counties` dataset's load is archived as. */
export interface CountiesArchive {
  counties: CountyDbRow[];
}

/** What a program's load is archived as: its county limits (year first) and national figures. */
export interface ProgramArchive {
  program: Program;
  limits: (LimitDbRow & { year: number })[];
  national: NationalDbRow[];
}

export async function archiveCounties(db: Queryable): Promise<CountiesArchive> {
  return { counties: (await db.query<CountyDbRow>(`SELECT ${COUNTY_COLUMNS} FROM counties ORDER BY state, name`)).rows };
}

export async function archiveProgram(db: Queryable, program: Program): Promise<ProgramArchive> {
  const { rows: limits } = await db.query<LimitDbRow & { year: number }>(
    `SELECT year, fips, state, source_name, cbsa, limit_1, limit_2, limit_3, limit_4, limit_type FROM loan_limits
     WHERE program = $1 ORDER BY year, fips`,
    [program],
  );
  const { rows: national } = await db.query<NationalDbRow>(
    'SELECT program, year, kind, limit_1, limit_2, limit_3, limit_4 FROM loan_limit_national WHERE program = $1 ORDER BY year, kind',
    [program],
  );
  const numeric = (row: LimitDbRow & { year: number }) => ({ ...row, year: Number(row.year), ...fourColumns(row) });
  return {
    program,
    limits: limits.map(numeric),
    national: national.map((row) => ({ ...row, year: Number(row.year), ...fourColumns(row) })),
  };
}

const fourColumns = (row: { limit_1: number; limit_2: number; limit_3: number; limit_4: number }) => ({
  limit_1: Number(row.limit_1),
  limit_2: Number(row.limit_2),
  limit_3: Number(row.limit_3),
  limit_4: Number(row.limit_4),
});

/** The snapshot of archived loads (the county list and the programs pinned), for an `as_of` answer. */
export function snapshotFromArchives(version: string, counties: CountiesArchive, programs: readonly ProgramArchive[]): LoanLimitSnapshot {
  const yearRows = programs.flatMap((archive) =>
    [...new Set(archive.limits.map((row) => row.year))].map((year) => ({ program: archive.program, year })),
  );
  return buildSnapshot(version, {
    countyRows: counties.counties,
    yearRows,
    nationalRows: programs.flatMap((archive) => archive.national),
    readYear: async (program, year) =>
      byStateOf(programs.find((archive) => archive.program === program)?.limits.filter((row) => row.year === year) ?? []),
  });
}
