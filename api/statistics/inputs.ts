// Reads the synced tables the statistics are computed from besides the HMDA aggregates' (those are
// read through api/hmda-aggregates/reads.ts): rate series, loan limits and the `datasets` records
// (as-of dates and source URLs).
import type { Queryable } from '../platform/db/database.ts';
import { dayText } from '../platform/dates.ts';

export interface DatasetInfo {
  asOf: string;
  sourceUrl: string;
}

export async function datasetInfo(db: Queryable, name: string): Promise<DatasetInfo | undefined> {
  const { rows } = await db.query<{ as_of: unknown; source_url: string }>('SELECT as_of, source_url FROM datasets WHERE name = $1', [name]);
  const row = rows[0];
  return row ? { asOf: dayText(row.as_of), sourceUrl: row.source_url } : undefined;
}

export interface Observation {
  date: string;
  value: number;
}

export async function series(db: Queryable, id: string): Promise<Observation[]> {
  const { rows } = await db.query<{ observed_on: unknown; value: string }>(
    'SELECT observed_on, value FROM rate_series_observations WHERE series_id = $1 ORDER BY observed_on',
    [id],
  );
  return rows.map((row) => ({ date: dayText(row.observed_on), value: Number(row.value) }));
}

/** The last observation on or before `date`. */
export function onOrBefore(observations: readonly Observation[], date: string): Observation | undefined {
  let found: Observation | undefined;
  for (const observation of observations) {
    if (observation.date > date) break;
    found = observation;
  }
  return found;
}

export function yearAverage(observations: readonly Observation[], year: number): number | undefined {
  const values = observations.filter((observation) => observation.date.startsWith(`${year}-`)).map((observation) => observation.value);
  return values.length === 0 ? undefined : values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** National loan-limit figure (conforming baseline = floor; FHA floor/ceiling) per year. */
export async function nationalLimits(
  db: Queryable,
  program: 'conforming' | 'fha',
  kind: 'floor' | 'ceiling',
): Promise<Map<number, number>> {
  const { rows } = await db.query<{ year: number; limit_1: number }>(
    'SELECT year, limit_1 FROM loan_limit_national WHERE program = $1 AND kind = $2 ORDER BY year',
    [program, kind],
  );
  return new Map(rows.map((row) => [Number(row.year), Number(row.limit_1)]));
}

/** The value for `year`, or for the latest year before it when that year is not loaded. */
export function forYear(values: Map<number, number>, year: number): { year: number; value: number } | undefined {
  const candidates = [...values.keys()].filter((candidate) => candidate <= year).sort((a, b) => b - a);
  const chosen = candidates[0];
  return chosen === undefined ? undefined : { year: chosen, value: values.get(chosen) as number };
}
