// Market updates generated from the data: one post per Freddie Mac PMMS week with the week's survey
// moves (30-year, 15-year) and the Optimal Blue 30-year conforming benchmark for the same week.
// Every number is read from `rate_series_observations` at request time, so posts follow the sync.
import type { Queryable } from '../platform/db/database.ts';
import { describeUpdate } from './market-update-text.ts';
import type { SeriesMove } from './series-move.ts';
import { addDays } from '../platform/dates.ts';

export const SURVEY_30 = 'MORTGAGE30US';
export const SURVEY_15 = 'MORTGAGE15US';
export const BENCHMARK_30 = 'OBMMIC30YF';

export interface MarketUpdate {
  /** The PMMS week (the survey's Thursday), YYYY-MM-DD; also the post's slug. */
  week: string;
  path: string;
  title: string;
  summary: string;
  paragraphs: string[];
  survey30: SeriesMove;
  survey15: SeriesMove | null;
  benchmark30: SeriesMove | null;
  sources: { name: string; url: string }[];
}

interface Observation {
  series_id: string;
  d: string;
  v: number;
}

const round2 = (value: number): number => Math.round(value * 100) / 100;

function move(current: { d: string; v: number } | undefined, previous: { d: string; v: number } | undefined): SeriesMove | null {
  if (!current) return null;
  return {
    value: current.v,
    date: current.d,
    previous: previous?.v ?? null,
    previousDate: previous?.d ?? null,
    change: previous ? round2(current.v - previous.v) : null,
  };
}

/** The latest observation in (from, to], from a date-ascending list (searched by halves: the search index asks for ten years of weeks). */
function latestWithin(observations: readonly Observation[], from: string, to: string): Observation | undefined {
  // The first index whose date is past `to`: the one before it is the latest up to `to`.
  let low = 0;
  let high = observations.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (observations[middle]!.d <= to) low = middle + 1;
    else high = middle;
  }
  const found = observations[low - 1];
  return found !== undefined && found.d > from ? found : undefined;
}

/**
 * Whether the rates capability's table exists yet. Checked instead of catching the error, because
 * a failed statement would abort the caller's transaction on PostgreSQL (the search index build).
 */
async function hasRateTable(db: Queryable): Promise<boolean> {
  const { rows } = await db.query<{ ok: boolean }>("SELECT to_regclass('rate_series_observations') IS NOT NULL AS ok");
  return rows[0]?.ok === true;
}

/** PMMS 30-year weeks, newest first: `limit` posts starting `offset` weeks back. */
export async function listMarketUpdates(
  db: Queryable,
  { limit = 20, offset = 0 }: { limit?: number; offset?: number } = {},
): Promise<MarketUpdate[]> {
  if (!(await hasRateTable(db))) return [];
  const result = await db.query<Observation>(
    `SELECT series_id, observed_on::text AS d, value::float8 AS v FROM rate_series_observations
     WHERE series_id = $1 AND value IS NOT NULL ORDER BY observed_on DESC LIMIT $2 OFFSET $3`,
    [SURVEY_30, limit + 1, offset],
  );
  const weeks = result.rows.reverse();
  if (weeks.length === 0) return [];
  const first = weeks[0]!.d;
  const last = weeks[weeks.length - 1]!.d;
  const { rows: others } = await db.query<Observation>(
    `SELECT series_id, observed_on::text AS d, value::float8 AS v FROM rate_series_observations
     WHERE series_id IN ($1, $2) AND value IS NOT NULL AND observed_on BETWEEN $3::date AND $4::date
     ORDER BY observed_on`,
    [SURVEY_15, BENCHMARK_30, addDays(first, -14), last],
  );
  const survey15 = new Map(others.filter((row) => row.series_id === SURVEY_15).map((row) => [row.d, row]));
  const benchmark = others.filter((row) => row.series_id === BENCHMARK_30);

  const updates: MarketUpdate[] = [];
  // With limit + 1 rows fetched, the oldest row only serves as the previous week of the next one,
  // unless the history is shorter than that.
  const startIndex = weeks.length > limit ? 1 : 0;
  for (let index = startIndex; index < weeks.length; index += 1) {
    const week = weeks[index]!;
    const previousWeek = weeks[index - 1];
    // The benchmark is daily: the week's value is its latest close in the 7 days up to the survey
    // date, compared with the latest close in the 7 days before that.
    const benchmarkNow = latestWithin(benchmark, addDays(week.d, -7), week.d);
    const benchmarkBefore = latestWithin(benchmark, addDays(week.d, -14), addDays(week.d, -7));
    const survey15Now = survey15.get(week.d);
    const survey15Before = previousWeek ? survey15.get(previousWeek.d) : undefined;
    const moves = {
      survey30: move(week, previousWeek)!,
      survey15: move(survey15Now, survey15Before),
      benchmark30: move(benchmarkNow, benchmarkBefore),
    };
    updates.push({ week: week.d, path: `/news/${week.d}`, ...moves, ...describeUpdate(week.d, moves), sources: sourcesFor(moves) });
  }
  return updates.reverse();
}

/** The post for one PMMS week, or null when `week` is not a survey date in the database. */
export async function getMarketUpdate(db: Queryable, week: string): Promise<MarketUpdate | null> {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(week)) return null;
  if (!(await hasRateTable(db))) return null;
  const { rows } = await db.query<{ newer: number; here: number }>(
    `SELECT count(*) FILTER (WHERE observed_on > $2::date)::int AS newer, count(*) FILTER (WHERE observed_on = $2::date)::int AS here
     FROM rate_series_observations WHERE series_id = $1 AND value IS NOT NULL`,
    [SURVEY_30, week],
  );
  if (!rows[0] || rows[0].here === 0) return null;
  const [update] = await listMarketUpdates(db, { limit: 1, offset: rows[0].newer });
  return update ?? null;
}

export async function countMarketUpdates(db: Queryable): Promise<number> {
  if (!(await hasRateTable(db))) return 0;
  const { rows } = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM rate_series_observations WHERE series_id = $1 AND value IS NOT NULL',
    [SURVEY_30],
  );
  return rows[0]?.n ?? 0;
}

function sourcesFor(moves: { survey15: SeriesMove | null; benchmark30: SeriesMove | null }): { name: string; url: string }[] {
  const sources = [
    {
      name: 'Freddie Mac Primary Mortgage Market Survey, 30-year fixed (FRED MORTGAGE30US)',
      url: 'https://fred.stlouisfed.org/series/MORTGAGE30US',
    },
  ];
  if (moves.survey15)
    sources.push({
      name: 'Freddie Mac Primary Mortgage Market Survey, 15-year fixed (FRED MORTGAGE15US)',
      url: 'https://fred.stlouisfed.org/series/MORTGAGE15US',
    });
  if (moves.benchmark30)
    sources.push({
      name: 'Optimal Blue Mortgage Market Indices, 30-year conforming (FRED OBMMIC30YF)',
      url: 'https://fred.stlouisfed.org/series/OBMMIC30YF',
    });
  return sources;
}
