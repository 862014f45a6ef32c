// The HMDA aggregates capability's one import surface for other code (the statistics catalogue):
// every read of its tables (hmda_aggregates, hmda_county_aggregates, hmda_county_counts, hmda_lenders) lives in this file, which its own service uses too, together with the names,
// URLs and definitions that describe them. Nothing outside api/hmda-aggregates/ queries those
// tables or reaches into its other modules, so a change of table shape stays here.
import type { Queryable } from '../platform/db/database.ts';
import { decisionRates, placeName } from './labels.ts';
import { HMDA_AGGREGATES_DATASET } from './dataset.ts';
import { HMDA_LENDERS_DATASET } from './lenders.ts';
import { DATA_BROWSER_URL, HMDA_MAPS_URL, HUD_INCOME_LIMITS_URL, INCOME_YEARS, hudIncomeEntry, transmittalSheetEntry } from './sources.ts';

export {
  decisionRates,
  placeName,
  HMDA_AGGREGATES_DATASET,
  HMDA_LENDERS_DATASET,
  DATA_BROWSER_URL,
  HMDA_MAPS_URL,
  HUD_INCOME_LIMITS_URL,
  INCOME_YEARS,
  hudIncomeEntry,
  transmittalSheetEntry,
};

/** Counts by dimension, then code: `{ actionTaken: { '1': 7_000_000, … }, loanType: … }`. */
export type Dimensions = Record<string, Record<string, number>>;

/** Sum of a dimension's counts (0 for a dimension that is absent). */
export const total = (counts: Record<string, number> | undefined): number =>
  Object.values(counts ?? {}).reduce((sum, value) => sum + value, 0);

/** The years with national aggregates, oldest first (empty until the dataset is loaded). */
export async function aggregateYears(db: Queryable): Promise<number[]> {
  const { rows } = await db.query<{ year: number }>(`SELECT DISTINCT year FROM hmda_aggregates WHERE geo_level = 'nation' ORDER BY year`);
  return rows.map((row) => Number(row.year));
}

/** Every state-level (or the national) geography's dimensions for one year, by geography code. */
export async function aggregatesByGeo(db: Queryable, year: number, level: 'nation' | 'state'): Promise<Map<string, Dimensions>> {
  const { rows } = await db.query<{ geo_code: string; dimension: string; code: string; count: string }>(
    'SELECT geo_code, dimension, code, count FROM hmda_aggregates WHERE year = $1 AND geo_level = $2',
    [year, level],
  );
  const result = new Map<string, Dimensions>();
  for (const row of rows) {
    let geo = result.get(row.geo_code);
    if (!geo) result.set(row.geo_code, (geo = {}));
    (geo[row.dimension] ??= {})[row.code] = Number(row.count);
  }
  return result;
}

/** One geography's dimensions for one year (the nation is `US`); undefined when it has no rows. */
export async function aggregatesOf(db: Queryable, year: number, level: 'nation' | 'state', code: string): Promise<Dimensions | undefined> {
  const { rows } = await db.query<{ dimension: string; code: string; count: string }>(
    'SELECT dimension, code, count FROM hmda_aggregates WHERE year = $1 AND geo_level = $2 AND geo_code = $3',
    [year, level, code],
  );
  if (rows.length === 0) return undefined;
  const dimensions: Dimensions = {};
  for (const row of rows) (dimensions[row.dimension] ??= {})[row.code] = Number(row.count);
  return dimensions;
}

/** One county's dimensions for one year; undefined when the county had no records that year. */
export async function countyAggregates(db: Queryable, year: number, fips: string): Promise<Dimensions | undefined> {
  const { rows } = await db.query<{ counts: unknown }>('SELECT counts FROM hmda_county_aggregates WHERE year = $1 AND fips = $2', [
    year,
    fips,
  ]);
  const counts = rows[0]?.counts;
  if (counts === undefined) return undefined;
  return (typeof counts === 'string' ? JSON.parse(counts) : counts) as Dimensions;
}

/** Every county's dimensions for one year, by FIPS (the research pages rank counties within a state). */
export async function countyAggregatesByYear(db: Queryable, year: number): Promise<Map<string, Dimensions>> {
  const { rows } = await db.query<{ fips: string; counts: unknown }>('SELECT fips, counts FROM hmda_county_aggregates WHERE year = $1', [
    year,
  ]);
  return new Map(rows.map((row) => [row.fips, (typeof row.counts === 'string' ? JSON.parse(row.counts) : row.counts) as Dimensions]));
}

/**
 * Every county's dimensions of one year from its document (hmda_county_counts: one row per year),
 * by FIPS; undefined for a year loaded before the documents existed.
 */
export async function countyAggregateDocument(db: Queryable, year: number): Promise<Map<string, Dimensions> | undefined> {
  const { rows } = await db.query<{ body: string }>('SELECT body FROM hmda_county_counts WHERE year = $1', [year]);
  const body = rows[0]?.body;
  if (body === undefined) return undefined;
  const counties = new Map<string, Dimensions>();
  for (const line of body.split('\n')) {
    const space = line.indexOf(' ');
    if (space > 0) counties.set(line.slice(0, space), JSON.parse(line.slice(space + 1)) as Dimensions);
  }
  return counties;
}

/** The years with a transmittal sheet, oldest first. */
export async function lenderYears(db: Queryable): Promise<number[]> {
  const { rows } = await db.query<{ year: number }>('SELECT DISTINCT year FROM hmda_lenders ORDER BY year');
  return rows.map((row) => Number(row.year));
}

/** A filer of one year's transmittal sheet. */
export interface Filer {
  lei: string;
  name: string;
  agencyCode: number;
  agencyName: string;
  state: string | null;
  city: string | null;
  /** The records (applications and purchased loans) it reported: the sheet's `lar_count`. */
  records: number;
}

/** The filers of `year`, most records first (ties by LEI); the first `limit` when given. */
export async function filers(db: Queryable, year: number, limit?: number): Promise<Filer[]> {
  const { rows } = await db.query<{
    lei: string;
    respondent_name: string;
    agency_code: number;
    agency_name: string;
    respondent_state: string | null;
    respondent_city: string | null;
    lar_count: number;
  }>(
    `SELECT lei, respondent_name, agency_code, agency_name, respondent_state, respondent_city, lar_count FROM hmda_lenders
      WHERE year = $1 ORDER BY lar_count DESC, lei${limit === undefined ? '' : ' LIMIT $2'}`,
    limit === undefined ? [year] : [year, limit],
  );
  return rows.map((row) => ({
    lei: row.lei,
    name: row.respondent_name,
    agencyCode: Number(row.agency_code),
    agencyName: row.agency_name,
    state: row.respondent_state,
    city: row.respondent_city,
    records: Number(row.lar_count),
  }));
}

/** How many filers a year's sheet lists and the records they reported in all. */
export async function filerTotals(db: Queryable, year: number): Promise<{ filers: number; records: number }> {
  const { rows } = await db.query<{ total: string | null; n: string }>(
    'SELECT sum(lar_count)::text AS total, count(*)::text AS n FROM hmda_lenders WHERE year = $1',
    [year],
  );
  return { filers: Number(rows[0]?.n ?? 0), records: Number(rows[0]?.total ?? 0) };
}
