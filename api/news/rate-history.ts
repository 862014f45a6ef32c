// Rate history for the site's chart: the weekly survey and the daily benchmark from
// `rate_series_observations`, the benchmark thinned to one reading per week so both lines share a
// scale of points.
import type { Queryable } from '../platform/db/database.ts';
import { BENCHMARK_30, SURVEY_15, SURVEY_30 } from './market-updates.ts';

export interface HistoryPoint {
  date: string;
  value: number;
}

export interface RateHistory {
  from: string;
  to: string | null;
  series: { id: string; label: string; points: HistoryPoint[] }[];
}

const LABELS: Record<string, string> = {
  [SURVEY_30]: 'Freddie Mac PMMS 30-year fixed (weekly survey)',
  [SURVEY_15]: 'Freddie Mac PMMS 15-year fixed (weekly survey)',
  [BENCHMARK_30]: 'Optimal Blue 30-year conforming (daily benchmark, last reading of each week)',
};

/** Observations since `from` (YYYY-MM-DD); daily series keep the last reading of each ISO week. */
export async function rateHistory(db: Queryable, from: string): Promise<RateHistory> {
  const { rows: exists } = await db.query<{ ok: boolean }>("SELECT to_regclass('rate_series_observations') IS NOT NULL AS ok");
  if (exists[0]?.ok !== true) return { from, to: null, series: [] };
  const { rows } = await db.query<{ series_id: string; d: string; v: number }>(
    `SELECT series_id, observed_on::text AS d, value::float8 AS v FROM (
       SELECT series_id, observed_on, value,
              row_number() OVER (PARTITION BY series_id, date_trunc('week', observed_on) ORDER BY observed_on DESC) AS rn
       FROM rate_series_observations
       WHERE series_id IN ($1, $2, $3) AND observed_on >= $4::date
     ) weekly
     WHERE rn = 1
     ORDER BY series_id, observed_on`,
    [SURVEY_30, SURVEY_15, BENCHMARK_30, from],
  );
  const series = [SURVEY_30, SURVEY_15, BENCHMARK_30]
    .map((id) => ({
      id,
      label: LABELS[id] ?? id,
      points: rows.filter((row) => row.series_id === id).map((row) => ({ date: row.d, value: row.v })),
    }))
    .filter((entry) => entry.points.length > 0);
  const to = rows.reduce<string | null>((latest, row) => (latest === null || row.d > latest ? row.d : latest), null);
  return { from, to, series };
}
