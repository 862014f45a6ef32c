// Writes national series to the database: observations upserted on (series_id, observed_on) so an
// identical second sync changes nothing, and one `rate_series` row per series saying where it came from.
import type { Queryable } from '../../platform/db/database.ts';
import type { SeriesInfo } from '../series.ts';
import type { Observation } from './fred-csv.ts';

const BATCH = 1_000;

/** Inserts new and changed observations; returns how many rows were written. */
export async function upsertObservations(tx: Queryable, seriesId: string, observations: Observation[]): Promise<number> {
  let changed = 0;
  for (let start = 0; start < observations.length; start += BATCH) {
    const batch = observations.slice(start, start + BATCH);
    const params: unknown[] = [seriesId];
    const tuples = batch.map((observation) => {
      params.push(observation.date, observation.value.toFixed(3));
      return `($1, $${params.length - 1}::date, $${params.length}::numeric)`;
    });
    const { rows } = await tx.query(
      `INSERT INTO rate_series_observations (series_id, observed_on, value) VALUES ${tuples.join(', ')}
       ON CONFLICT (series_id, observed_on) DO UPDATE SET value = EXCLUDED.value
       WHERE rate_series_observations.value IS DISTINCT FROM EXCLUDED.value
       RETURNING 1 AS written`,
      params,
    );
    changed += rows.length;
  }
  return changed;
}

/** Records what the series is and what was loaded (first/last date, rows, checksum). */
export async function upsertSeriesInfo(tx: Queryable, series: SeriesInfo, observations: Observation[], checksum: string): Promise<void> {
  await tx.query(
    `INSERT INTO rate_series (series_id, title, publisher, source_url, frequency, first_on, last_on, row_count, checksum)
     VALUES ($1, $2, $3, $4, $5, $6::date, $7::date, $8, $9)
     ON CONFLICT (series_id) DO UPDATE SET title = EXCLUDED.title, publisher = EXCLUDED.publisher,
       source_url = EXCLUDED.source_url, frequency = EXCLUDED.frequency, first_on = EXCLUDED.first_on,
       last_on = EXCLUDED.last_on, row_count = EXCLUDED.row_count, checksum = EXCLUDED.checksum, updated_at = now()
     WHERE (rate_series.first_on, rate_series.last_on, rate_series.row_count, rate_series.checksum, rate_series.title)
       IS DISTINCT FROM (EXCLUDED.first_on, EXCLUDED.last_on, EXCLUDED.row_count, EXCLUDED.checksum, EXCLUDED.title)`,
    [
      series.id,
      series.title,
      series.publisher,
      series.pageUrl,
      series.frequency,
      observations[0]?.date ?? null,
      observations.at(-1)?.date ?? null,
      observations.length,
      checksum,
    ],
  );
}

/** Observations now held for the given series. */
export async function countObservations(tx: Queryable, seriesIds: string[]): Promise<number> {
  const placeholders = seriesIds.map((_, index) => `$${index + 1}`).join(', ');
  const { rows } = await tx.query<{ count: string | number }>(
    `SELECT count(*) AS count FROM rate_series_observations WHERE series_id IN (${placeholders})`,
    seriesIds,
  );
  return Number(rows[0]?.count ?? 0);
}
