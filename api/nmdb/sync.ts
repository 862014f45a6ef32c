// The `nmdb` dataset: FHFA's quarterly rate statistics of outstanding mortgages by state (average
// contract rate and the share of loans in each rate bucket, for four market segments), streamed out
// of the publisher's zip, validated and upserted. Its as-of date is the end of the latest quarter
// the file covers: the publisher's vintage, not the day it was synced.
import type { DatasetDefinition } from '../sync/types.ts';
import { combineChecksums } from '../sync/source.ts';
import { deleteMissingRows, upsertRows } from '../sync/upsert.ts';
import { parseNmdbStates } from './parse.ts';
import { NMDB_DATASET, NMDB_PAGE, nmdbStatesSource, quarterEnd } from './series.ts';
import { validateNmdb } from './validate.ts';
import { isoDay } from '../platform/dates.ts';

const TABLE = 'nmdb_state_rates';
const KEY = ['state', 'market', 'series', 'period'] as const;

export const nmdbDataset: DatasetDefinition = {
  name: NMDB_DATASET,
  description: 'FHFA National Mortgage Database: rates on outstanding mortgages by state and market segment, quarterly',
  async load(tx, context) {
    const file = await context.readSource(nmdbStatesSource);
    const parsed = await parseNmdbStates(file.bytes, file.origin);
    const summary = validateNmdb(parsed.rows, file.origin, isoDay(context.clock()));
    if (Object.keys(parsed.unknownMarkets).length > 0) {
      context.logger.warn(
        { markets: parsed.unknownMarkets },
        'nmdb: the file has market segments this service does not know; they were not loaded',
      );
    }
    const rows = parsed.rows.map((row) => [
      row.state,
      row.market,
      row.series,
      row.period,
      quarterEnd(row.period),
      row.valueLoan,
      row.valueDollar,
      row.suppressed,
    ]);
    const changed = await upsertRows(tx, {
      table: TABLE,
      key: KEY,
      columns: [...KEY, 'quarter_end', 'value_loan', 'value_dollar', 'suppressed'],
      rows,
      onBatch: (done, total) => context.progress(done, total),
    });
    const deleted = await deleteMissingRows(tx, {
      table: TABLE,
      key: KEY,
      scope: 'true',
      keep: rows.map((row) => row.slice(0, KEY.length)),
    });
    return {
      asOf: quarterEnd(summary.lastPeriod),
      sourceUrl: NMDB_PAGE,
      checksum: combineChecksums([file]),
      rows: rows.length,
      changed: changed + deleted,
      details: {
        file: nmdbStatesSource.publisherUrl,
        csv: parsed.csvName,
        lines: parsed.linesRead,
        first_quarter: summary.firstPeriod,
        last_quarter: summary.lastPeriod,
        quarters: summary.quarters,
        states: summary.states,
        suppressed: summary.suppressed,
        other_series_rows_skipped: parsed.skippedSeries,
        ...(Object.keys(parsed.unknownMarkets).length > 0 ? { unknown_markets: parsed.unknownMarkets } : {}),
      },
    };
  },
};
