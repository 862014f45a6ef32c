// Read-only access to the national rate series for other capabilities (the series service): what
// each series is, which dataset loads it, and every observation held. Reads only; the rates
// capability's own service keeps its separate in-memory copy.
import type { Queryable } from '../platform/db/database.ts';
import { PMMS_SERIES, SERIES, type SeriesId, type SeriesInfo } from './series.ts';
import { OPTIMAL_BLUE_DATASET, PMMS_DATASET } from './sync/national.ts';

export type { SeriesId as NationalSeriesId, SeriesInfo as NationalSeriesInfo };

/** Every national series this service can load, by FRED id. */
export const NATIONAL_SERIES: Readonly<Record<SeriesId, SeriesInfo>> = SERIES;

/** The dataset whose sync loads the series (`pmms` or `optimal_blue`). */
export function datasetOfSeries(id: SeriesId): string {
  return PMMS_SERIES.includes(id) ? PMMS_DATASET : OPTIMAL_BLUE_DATASET;
}

export { PMMS_DATASET, OPTIMAL_BLUE_DATASET };

export interface NationalObservations {
  /** YYYY-MM-DD, ascending. */
  dates: string[];
  values: number[];
}

/** Every observation of the given series (default: all), ascending by date; series without any are absent. */
export async function readNationalObservations(
  db: Queryable,
  ids: readonly SeriesId[] = Object.keys(SERIES) as SeriesId[],
): Promise<Map<SeriesId, NationalObservations>> {
  const result = new Map<SeriesId, NationalObservations>();
  if (ids.length === 0) return result;
  const { rows } = await db.query<{ series_id: SeriesId; observed_on: string; value: number }>(
    `SELECT series_id, to_char(observed_on, 'YYYY-MM-DD') AS observed_on, value::float8 AS value
     FROM rate_series_observations WHERE series_id IN (${ids.map((_, index) => `$${index + 1}`).join(', ')})
     ORDER BY series_id, observed_on`,
    ids,
  );
  for (const row of rows) {
    let series = result.get(row.series_id);
    if (!series) {
      series = { dates: [], values: [] };
      result.set(row.series_id, series);
    }
    series.dates.push(row.observed_on);
    series.values.push(Number(row.value));
  }
  return result;
}
