// Read-only access to the national rate series for other capabilities (the series service): what
// each series is, which dataset loads it, and every observation held. Reads only; the rates
// capability's own service keeps its separate in-memory copy.
import type { Queryable } from '../platform/db/database.ts';
import { PMMS_SERIES, SERIES, type SeriesId, type SeriesInfo } from './series.ts';
import { OPTIMAL_BLUE_DATASET, PMMS_DATASET } from './sync/national.ts';
import { readSeriesObservations } from './snapshot.ts';
import type { SeriesData } from './choose.ts';

export type { SeriesId as NationalSeriesId, SeriesInfo as NationalSeriesInfo };

/** Every national series this service can load, by FRED id. */
export const NATIONAL_SERIES: Readonly<Record<SeriesId, SeriesInfo>> = SERIES;

/** The dataset whose sync loads the series (`pmms` or `optimal_blue`). */
export function datasetOfSeries(id: SeriesId): string {
  return PMMS_SERIES.includes(id) ? PMMS_DATASET : OPTIMAL_BLUE_DATASET;
}

export { PMMS_DATASET, OPTIMAL_BLUE_DATASET };

/** Every observation of the given series (default: all), ascending by date; series without any are absent. */
export function readNationalObservations(
  db: Queryable,
  ids: readonly SeriesId[] = Object.keys(SERIES) as SeriesId[],
): Promise<Map<SeriesId, SeriesData>> {
  return readSeriesObservations(db, ids);
}
