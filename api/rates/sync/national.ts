// The two national datasets: `pmms` (Freddie Mac's weekly survey: 30-year, 15-year, 5/1 ARM history)
// and `optimal_blue` (Optimal Blue's daily lock indices: conforming, FHA, VA, jumbo, and where the
// source has them the 15-year, USDA and FICO × LTV grid indices), both from FRED.
// Source order: MDS_SOURCE_DIR (every mirror file of a series, merged) > FRED API (FRED_API_KEY) >
// FRED's keyless CSV download. An optional series the source lacks is recorded as missing (its earlier
// observations stay served); a file that is there but broken fails the dataset like any other.
import { createHash } from 'node:crypto';
import type { Queryable } from '../../platform/db/database.ts';
import { archiveSeries } from '../snapshot.ts';
import type { DatasetDefinition, DatasetLoadResult, SyncContext } from '../../sync/types.ts';
import { FRED_API_BASE, OPTIMAL_BLUE_SERIES, PMMS_SERIES, SERIES, sourceEntries, type SeriesId, type SeriesInfo } from '../series.ts';
import { parseFredCsv, type Observation } from './fred-csv.ts';
import { fetchFredSeries } from './fred-api.ts';
import { mergeParts, validateSeries, type SeriesPart } from './validate.ts';
import { countObservations, upsertObservations, upsertSeriesInfo } from './store.ts';

export interface NationalDatasetOptions {
  /** FRED API root; tests point it at a local server with recorded responses. */
  fredApiBaseUrl?: string;
  fetch?: typeof fetch;
}

interface LoadedSeries {
  observations: Observation[];
  checksum: string;
  files: string[];
  via: 'mirror' | 'fred-api' | 'fred-csv';
}

/**
 * Reads one series from wherever this install gets its data, merged and validated. Undefined only
 * for an optional series the source does not have (no mirror file, HTTP 404 from FRED).
 */
export async function readSeries(
  series: SeriesInfo,
  context: SyncContext,
  options: NationalDatasetOptions = {},
): Promise<LoadedSeries | undefined> {
  const apiKey = context.config.FRED_API_KEY;
  if (context.config.sourceDir === undefined && apiKey !== undefined) {
    const result = await fetchFredSeries(series.id, {
      apiKey,
      baseUrl: options.fredApiBaseUrl ?? FRED_API_BASE,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    validateSeries(series, result.observations);
    return { observations: result.observations, checksum: result.checksum, files: [result.origin], via: 'fred-api' };
  }
  // Without a mirror every entry of a series is the same download: fetch it once.
  const entries = sourceEntries(series).filter((entry, index) => context.config.sourceDir !== undefined || index === 0);
  const parts: SeriesPart[] = [];
  const hash = createHash('sha256');
  for (const entry of entries) {
    const file = series.optional ? await context.readOptionalSource(entry) : await context.readSource(entry);
    if (!file) continue;
    hash.update(file.checksum);
    parts.push({ file: file.origin, observations: parseFredCsv(file.bytes.toString('utf8'), file.origin, series.id) });
  }
  if (parts.length === 0) return undefined;
  const observations = mergeParts(series.id, parts);
  validateSeries(series, observations);
  return {
    observations,
    checksum: hash.digest('hex'),
    files: parts.map((part) => part.file),
    via: context.config.sourceDir === undefined ? 'fred-csv' : 'mirror',
  };
}

async function loadGroup(
  tx: Queryable,
  context: SyncContext,
  ids: SeriesId[],
  headline: SeriesId,
  options: NationalDatasetOptions,
): Promise<DatasetLoadResult> {
  const hash = createHash('sha256');
  const details: Record<string, unknown> = {};
  const missing: string[] = [];
  let changed = 0;
  let asOf: string | undefined;
  for (const [index, id] of ids.entries()) {
    const series = SERIES[id];
    const loaded = await readSeries(series, context, options);
    if (!loaded) {
      missing.push(id);
      details[id] = {
        missing: true,
        looked_for: context.config.sourceDir === undefined ? sourceEntries(series)[0]?.publisherUrl : series.mirrorPaths,
      };
      context.progress(index + 1, ids.length);
      continue;
    }
    changed += await upsertObservations(tx, id, loaded.observations);
    await upsertSeriesInfo(tx, series, loaded.observations, loaded.checksum);
    hash.update(`${id}:${loaded.checksum};`);
    const last = loaded.observations.at(-1)?.date;
    if (id === headline) asOf = last;
    details[id] = { first: loaded.observations[0]?.date, last, rows: loaded.observations.length, via: loaded.via, files: loaded.files };
    context.progress(index + 1, ids.length);
  }
  if (missing.length > 0) {
    // An operator can act on this; a reader only ever sees which figure is missing (rates service).
    context.logger.warn(
      { missing },
      `${missing.length} optional series not in the source; the cells they answer keep earlier observations or answer 404. ` +
        'Sync with access to FRED (no MDS_SOURCE_DIR), or save each series from fredgraph.csv?id=<ID> as rates/fred/<ID>.csv in the mirror.',
    );
  }
  return {
    asOf: asOf ?? '',
    sourceUrl: SERIES[headline].pageUrl,
    checksum: hash.digest('hex'),
    rows: await countObservations(tx, ids),
    changed,
    details: { series: details, ...(missing.length > 0 ? { missing } : {}) },
  };
}

export const PMMS_DATASET = 'pmms';
export const OPTIMAL_BLUE_DATASET = 'optimal_blue';

export function createNationalDatasets(options: NationalDatasetOptions = {}): DatasetDefinition[] {
  return [
    {
      name: PMMS_DATASET,
      description: 'Freddie Mac Primary Mortgage Market Survey, weekly: 30-year and 15-year fixed, 5/1 ARM history (FRED)',
      load: (tx, context) => loadGroup(tx, context, PMMS_SERIES, 'MORTGAGE30US', options),
      archive: (tx) => archiveSeries(tx, PMMS_SERIES),
    },
    {
      name: OPTIMAL_BLUE_DATASET,
      description: 'Optimal Blue Mortgage Market Indices, daily: 30-year conforming (the market benchmark), FHA, VA, jumbo (FRED)',
      load: (tx, context) => loadGroup(tx, context, OPTIMAL_BLUE_SERIES, 'OBMMIC30YF', options),
      archive: (tx) => archiveSeries(tx, OPTIMAL_BLUE_SERIES),
    },
  ];
}
