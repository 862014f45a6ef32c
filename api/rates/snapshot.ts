// Reads what the rate service keeps in memory between syncs: every national series (a few thousand
// rows each), the APOR terms it reads, the state estimates and the recent rate-sheet quotes; older
// rate-sheet history is read on demand.
import type { Queryable } from '../platform/db/database.ts';
import type { DatasetVersion } from '../platform/contract/versions.ts';
import type { LenderObservation, SeriesData } from './choose.ts';
import type { RatesRequest } from './params.ts';
import { SERIES, type SeriesId } from './series.ts';
import { APOR_TERMS, type AporSeriesId, type BenchmarkId } from './benchmarks.ts';
import { estimateKey, type EstimateRow } from './estimate/method.ts';
import { readEstimates, type EstimateTable } from './estimate/store.ts';
import { addDays } from '../platform/dates.ts';

/** Lender observations this many days before the newest one stay in memory (latest + weekly change). */
export const LENDER_WINDOW_DAYS = 60;

/** The state estimates held, with their rows by estimateKey(state, product, purpose, LTV band). */
export interface HeldEstimates {
  hmdaYear: number;
  synthetic: boolean;
  byKey: Map<string, EstimateRow>;
}

export interface Snapshot {
  series: Partial<Record<BenchmarkId, SeriesData>>;
  /** Undefined when no estimate is loaded (no HMDA loans in the warehouse). */
  estimates: HeldEstimates | undefined;
  /** Recent lender observations by cell key, ascending by date. */
  lender: Map<string, LenderObservation[]>;
  /** Lender observations on or after this day are all in `lender`. */
  lenderWindowStart: string;
  latestDate: string;
  /** Signature of the datasets rows this snapshot was read under. */
  version: string;
  /** The dataset versions it holds, as answers name them. */
  versions: DatasetVersion[];
  /** Read from archived loads for an `as_of` answer (not the current data). */
  pinned?: boolean;
}

export const cellKey = (request: Pick<RatesRequest, 'state' | 'fico' | 'ltv' | 'productType' | 'loanTerm'>) =>
  `${request.state}|${request.fico}|${request.ltv}|${request.productType}|${request.loanTerm}`;

export interface LenderRow {
  source: string;
  source_kind: 'rate_sheet';
  source_url: string;
  state: string;
  fico_tier: number;
  ltv_tier: number;
  product_type: string;
  loan_term: number;
  observed_on: string;
  rate: number;
  distribution_size: number | null;
}

const LENDER_COLUMNS = `source, source_kind, source_url, state, fico_tier, ltv_tier, product_type, loan_term,
  to_char(observed_on, 'YYYY-MM-DD') AS observed_on, rate::float8 AS rate, distribution_size`;

const toObservation = (row: LenderRow): LenderObservation => ({
  source: row.source,
  sourceKind: row.source_kind,
  sourceUrl: row.source_url,
  date: row.observed_on,
  rate: Number(row.rate),
  distributionSize: row.distribution_size === null ? null : Number(row.distribution_size),
});

/** What a rates dataset's load is archived as (the snapshot a pinned `as_of` answer is read from). */
export interface RatesArchive {
  /** The dataset's national series (pmms, optimal_blue). */
  series?: Partial<Record<BenchmarkId, SeriesData>>;
  /** The dataset's rate-sheet quotes in the window before its newest one (rate_sheet). */
  lender?: LenderRow[];
  /** The APOR terms the service reads, as [week_of, term, rate] (apor). */
  apor?: [string, number, number][];
  /** The state estimates (state_rate_estimates). */
  estimates?: EstimateTable | null;
}

/**
 * Every observation of the given national series, ascending by date; series without any are absent.
 * The one read of `rate_series_observations`: the archives here and the other capabilities' reads
 * (./observations.ts).
 */
export async function readSeriesObservations(db: Queryable, ids: readonly string[]): Promise<Map<SeriesId, SeriesData>> {
  const series = new Map<SeriesId, SeriesData>();
  if (ids.length === 0) return series;
  const { rows } = await db.query<{ series_id: SeriesId; observed_on: string; value: number }>(
    `SELECT series_id, to_char(observed_on, 'YYYY-MM-DD') AS observed_on, value::float8 AS value
     FROM rate_series_observations WHERE series_id IN (${ids.map((_, index) => `$${index + 1}`).join(', ')})
     ORDER BY series_id, observed_on`,
    ids,
  );
  for (const row of rows) {
    let data = series.get(row.series_id);
    if (!data) {
      data = { dates: [], values: [] };
      series.set(row.series_id, data);
    }
    data.dates.push(row.observed_on);
    data.values.push(Number(row.value));
  }
  return series;
}

async function readSeries(db: Queryable, ids: readonly string[]): Promise<Partial<Record<BenchmarkId, SeriesData>>> {
  return Object.fromEntries(await readSeriesObservations(db, ids));
}

const windowStartOf = (newest: string): string => addDays(newest, -LENDER_WINDOW_DAYS);

/** Lender observations in the window before the newest one (of one source kind, or all). */
async function readLenderWindow(db: Queryable, kind?: LenderRow['source_kind']): Promise<LenderRow[]> {
  const filter = kind === undefined ? '' : 'WHERE source_kind = $1';
  const { rows: newest } = await db.query<{ newest: string | null }>(
    `SELECT to_char(max(observed_on), 'YYYY-MM-DD') AS newest FROM lender_rate_observations ${filter}`,
    kind === undefined ? [] : [kind],
  );
  const newestLender = newest[0]?.newest ?? null;
  if (!newestLender) return [];
  const { rows } = await db.query<LenderRow>(
    `SELECT ${LENDER_COLUMNS} FROM lender_rate_observations WHERE observed_on >= $1::date ${kind === undefined ? '' : 'AND source_kind = $2'}
     ORDER BY observed_on, source`,
    kind === undefined ? [windowStartOf(newestLender)] : [windowStartOf(newestLender), kind],
  );
  return rows.map((row) => ({
    ...row,
    fico_tier: Number(row.fico_tier),
    ltv_tier: Number(row.ltv_tier),
    loan_term: Number(row.loan_term),
    rate: Number(row.rate),
  }));
}

/** APOR rows as the archive keeps them: the terms the service reads. */
async function readAporRows(db: Queryable): Promise<[string, number, number][]> {
  const terms = Object.values(APOR_TERMS);
  const { rows } = await db.query<{ week_of: string; term_years: number; rate: number }>(
    `SELECT to_char(week_of, 'YYYY-MM-DD') AS week_of, term_years, rate::float8 AS rate FROM apor_fixed_rates
     WHERE term_years IN (${terms.join(', ')}) ORDER BY week_of`,
  );
  return rows.map((row) => [row.week_of, Number(row.term_years), Number(row.rate)]);
}

/** The APOR terms as series, keyed by the benchmark ids coverage.ts reads. */
function aporSeries(rows: readonly [string, number, number][]): Partial<Record<BenchmarkId, SeriesData>> {
  const series: Partial<Record<BenchmarkId, SeriesData>> = {};
  const idOf = new Map<number, AporSeriesId>(Object.entries(APOR_TERMS).map(([id, term]) => [term, id as AporSeriesId]));
  for (const [weekOf, term, rate] of rows) {
    const id = idOf.get(term);
    if (!id) continue;
    const data = (series[id] ??= { dates: [], values: [] });
    data.dates.push(weekOf);
    data.values.push(rate);
  }
  return series;
}

function heldEstimates(table: EstimateTable | null | undefined): HeldEstimates | undefined {
  if (!table) return undefined;
  return {
    hmdaYear: table.hmdaYear,
    synthetic: table.synthetic,
    byKey: new Map(table.rows.map((row) => [estimateKey(row.state, row.productType, row.loanPurpose, row.ltvBand), row])),
  };
}

/** What the APOR dataset's load is archived as: the terms the service reads. */
export const archiveApor = async (db: Queryable): Promise<RatesArchive> => ({ apor: await readAporRows(db) });

/** What a national dataset's load is archived as: its series. */
export const archiveSeries = async (db: Queryable, ids: readonly string[]): Promise<RatesArchive> => ({
  series: await readSeries(db, ids),
});

/** What a lender dataset's load is archived as: its recent observations. */
export const archiveLender = async (db: Queryable, kind: LenderRow['source_kind']): Promise<RatesArchive> => ({
  lender: await readLenderWindow(db, kind),
});

/** The snapshot of series and lender rows, whichever loads they come from. */
function assemble(
  series: Partial<Record<BenchmarkId, SeriesData>>,
  lenderRows: readonly LenderRow[],
  estimates: HeldEstimates | undefined,
  version: string,
  versions: DatasetVersion[],
): Snapshot {
  let latestDate = '';
  // "Latest" is the newest national figure: APOR weeks are dated ahead (the Monday they take effect).
  for (const [id, data] of Object.entries(series)) {
    if (id in APOR_TERMS) continue;
    const last = data?.dates.at(-1);
    if (last !== undefined && last > latestDate) latestDate = last;
  }
  let newestLender = '';
  for (const row of lenderRows) if (row.observed_on > newestLender) newestLender = row.observed_on;
  const lender = new Map<string, LenderObservation[]>();
  let lenderWindowStart = '0000-01-01';
  if (newestLender) {
    lenderWindowStart = windowStartOf(newestLender);
    for (const row of lenderRows) {
      if (row.observed_on < lenderWindowStart) continue;
      const key = cellKey({
        state: row.state as RatesRequest['state'],
        fico: Number(row.fico_tier) as RatesRequest['fico'],
        ltv: Number(row.ltv_tier) as RatesRequest['ltv'],
        productType: row.product_type as RatesRequest['productType'],
        loanTerm: Number(row.loan_term) as RatesRequest['loanTerm'],
      });
      const list = lender.get(key) ?? [];
      list.push(toObservation(row));
      lender.set(key, list);
    }
    if (newestLender > latestDate) latestDate = newestLender;
  }
  return { series, estimates, lender, lenderWindowStart, latestDate, version, versions };
}

export async function readSnapshot(db: Queryable, version: string, versions: DatasetVersion[]): Promise<Snapshot> {
  const series = { ...(await readSeries(db, Object.keys(SERIES))), ...aporSeries(await readAporRows(db)) };
  return assemble(series, await readLenderWindow(db), heldEstimates(await readEstimates(db)), version, versions);
}

/** The snapshot of archived loads (one per dataset), for a pinned answer. */
export function snapshotFromArchives(archives: readonly RatesArchive[], version: string, versions: DatasetVersion[]): Snapshot {
  const series: Partial<Record<BenchmarkId, SeriesData>> = {};
  let estimates: HeldEstimates | undefined;
  for (const archive of archives) {
    Object.assign(series, archive.series ?? {}, aporSeries(archive.apor ?? []));
    estimates ??= heldEstimates(archive.estimates);
  }
  // Each archive's rows are in date order; merged, a stable sort keeps each day's order.
  const lender = archives
    .flatMap((archive) => archive.lender ?? [])
    .sort((a, b) => (a.observed_on < b.observed_on ? -1 : a.observed_on > b.observed_on ? 1 : 0));
  return assemble(series, lender, estimates, version, versions);
}

/** Lender observations of one cell in the 60 days up to `date` (history older than the window). */
export async function readLenderHistory(db: Queryable, request: RatesRequest, date: string): Promise<LenderObservation[]> {
  const { rows } = await db.query<LenderRow>(
    `SELECT ${LENDER_COLUMNS} FROM lender_rate_observations
     WHERE state = $1 AND fico_tier = $2 AND ltv_tier = $3 AND product_type = $4 AND loan_term = $5
       AND observed_on <= $6::date AND observed_on >= $6::date - $7::int
     ORDER BY observed_on, source`,
    [request.state, request.fico, request.ltv, request.productType, request.loanTerm, date, LENDER_WINDOW_DAYS],
  );
  return rows.map(toObservation);
}
