// Read-only access to the loan limits as series over time, for other capabilities (the series
// service): each county's one- to four-unit limits per program and year, the county names, and the
// national history file. Reads only; the loan-limits service keeps its own answers.
import type { Queryable } from '../platform/db/database.ts';
import { heldOnce } from '../platform/held-once.ts';
import { readNationalHistory, type NationalHistory } from './history.ts';
import { FHFA_PAGE, HUD_PAGE } from './sources.ts';

/** Areas whose conforming baseline is 150% of the national one (AK, HI, GU, VI). */
export { SPECIAL_AREAS } from './validate.ts';

export type LimitProgram = 'conforming' | 'fha';

/** The dataset that loads each program's county limits, and the county list they are named by. */
export const LIMIT_DATASETS: Readonly<Record<LimitProgram, string>> = { conforming: 'loan_limits_conforming', fha: 'loan_limits_fha' };
export const COUNTIES_DATASET = 'counties';
export const LIMIT_PUBLISHERS: Readonly<Record<LimitProgram, { publisher: string; page: string }>> = {
  conforming: { publisher: 'Federal Housing Finance Agency (FHFA)', page: FHFA_PAGE },
  fha: { publisher: 'U.S. Department of Housing and Urban Development (HUD)', page: HUD_PAGE },
};

export interface CountyLimitSeries {
  program: LimitProgram;
  fips: string;
  state: string;
  /** The county's name as the publisher's latest file wrote it (for counties the county list lacks). */
  sourceName: string;
  /** Calendar years, ascending. */
  years: readonly number[];
  /** Limits by number of units (index 0 = one unit), one array per year. */
  limits: readonly LimitsByUnits[];
  /** HUD's limit type per year (`H` high cost, `S` standard); null in FHFA's files. */
  limitTypes: readonly (string | null)[];
}

/** One county's one- to four-unit limits in one year. */
export type LimitsByUnits = readonly [number, number, number, number];

interface LimitRow {
  program: LimitProgram;
  year: number;
  fips: string;
  state: string;
  source_name: string;
  limit_1: number;
  limit_2: number;
  limit_3: number;
  limit_4: number;
  limit_type: string | null;
}

/**
 * Every county's limits by program (or of one program), keyed `program|fips` in that order, years
 * ascending. Read a program's year at a time (its primary key's order): every row at once takes
 * tens of milliseconds just to arrive on this thread, holding every request meanwhile.
 */
export async function readCountyLimitSeries(db: Queryable, program?: LimitProgram): Promise<Map<string, CountyLimitSeries>> {
  const { rows: loads } = await db.query<{ program: LimitProgram; year: number }>(
    `SELECT DISTINCT program, year FROM loan_limits ${program === undefined ? '' : 'WHERE program = $1'} ORDER BY program, year`,
    program === undefined ? undefined : [program],
  );
  const series = new Map<string, GrowingSeries>();
  for (const load of loads) {
    const { rows } = await db.query<LimitRow>(
      `SELECT program, year, fips, state, source_name, limit_1, limit_2, limit_3, limit_4, limit_type FROM loan_limits
       WHERE program = $1 AND year = $2 ORDER BY fips`,
      [load.program, load.year],
    );
    for (const row of rows) addLimitRow(series, row);
  }
  // A county first listed in a later year still takes its place in (program, FIPS) order.
  const sorted = [...series].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  // Most counties share their figures: each year's baseline or FHA floor, the same years, the same
  // limit types. Held by the research pages for as long as a load is current, the series took
  // 6.6 MiB of the main heap on the mirror's data with a tuple of their own per county and year;
  // ~0.3 MiB with equal ones held once.
  const once = heldOnce();
  return new Map(
    sorted.map(([key, entry]) => [
      key,
      {
        ...entry,
        years: once.array(entry.years),
        limits: once.array(entry.limits, (units) => once.array(units) as LimitsByUnits),
        limitTypes: once.array(entry.limitTypes),
      },
    ]),
  );
}

interface GrowingSeries extends CountyLimitSeries {
  years: number[];
  limits: LimitsByUnits[];
  limitTypes: (string | null)[];
}

/** Adds a year's row to its county's series: the state of its first year, the name of its latest. */
function addLimitRow(series: Map<string, GrowingSeries>, row: LimitRow): void {
  const key = `${row.program}|${row.fips}`;
  let entry = series.get(key);
  if (!entry) {
    entry = { program: row.program, fips: row.fips, state: row.state, sourceName: row.source_name, years: [], limits: [], limitTypes: [] };
    series.set(key, entry);
  }
  entry.years.push(Number(row.year));
  entry.limits.push([Number(row.limit_1), Number(row.limit_2), Number(row.limit_3), Number(row.limit_4)]);
  entry.limitTypes.push(row.limit_type);
  entry.sourceName = row.source_name;
}

export interface CountyName {
  fips: string;
  state: string;
  name: string;
  kind: 'county' | 'planning_region';
}

/** The county list (Census names, Connecticut's planning regions), by FIPS. */
export async function readCountyNames(db: Queryable): Promise<Map<string, CountyName>> {
  const { rows } = await db.query<CountyName>('SELECT fips, state, name, kind FROM counties ORDER BY fips');
  return new Map(rows.map((row) => [row.fips, { fips: row.fips, state: row.state, name: row.name, kind: row.kind }]));
}

/** The national one-unit history since 1972 (the fact file shipped with the code, with its sources). */
export function nationalLimitHistory(): NationalHistory {
  return readNationalHistory();
}
