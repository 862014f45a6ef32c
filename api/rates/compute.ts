// Computes a rate record (spec 2.1 / 2.2) from loaded observations: pure code, no I/O. The rate
// comes from a state/lender observation for the exact cell when one is recent enough, otherwise from
// a national benchmark that covers the cell (coverage.ts); anything else is a 404 naming what is missing.
import { NotFoundError } from '../platform/http/errors.ts';
import { coveringBenchmarks, LENDER_LOAN_PURPOSES, uncoveredAttribute, type Coverage } from './coverage.ts';
import { FICO_TIERS, LOAN_TERMS, LTV_TIERS, parameterLabels, PRODUCT_TYPES, type RatesRequest } from './params.ts';
import { SERIES, type SeriesId } from './series.ts';

export interface SeriesData {
  /** Ascending YYYY-MM-DD. */
  dates: string[];
  values: number[];
}

export interface LenderObservation {
  source: string;
  sourceKind: 'rate_checker' | 'rate_sheet';
  sourceUrl: string;
  date: string;
  rate: number;
  distributionSize: number | null;
}

export interface RatesData {
  series: Partial<Record<SeriesId, SeriesData>>;
  /** Observations of the request's cell (state, FICO, LTV, product, term), ascending by date. */
  lender: LenderObservation[];
  /** Newest date of any loaded observation: what "latest" means when no date is asked for. */
  latestDate: string;
}

export interface SourceRef {
  name: string;
  url: string;
  as_of: string;
}

export interface DetailedRecord {
  rate_30yr: number;
  parameters: Record<string, string>;
  rate_change_weekly: number | null;
  rate_change_line: string | null;
  last_updated: string;
  national_average_rate: number | null;
  national_average_last_updated: string | null;
  index_a_rate: number | null;
  index_a_last_updated: string | null;
  survey_rate: number | null;
  survey_last_updated: string | null;
  disclaimer: string | null;
  metadata: { api_version: string; documentation: string };
  source: string;
  sources: SourceRef[];
}

export interface SimpleRecord {
  rate: number;
  date: string;
  state: string;
  fico_tier: string;
  ltv_tier: string;
  source: string;
}

export interface RatesResult {
  record: DetailedRecord | SimpleRecord;
  sources: SourceRef[];
}

/** A lender observation older than this (before the as-of day) no longer counts as current. */
export const LENDER_MAX_AGE_DAYS = 30;

const DAY_MS = 86_400_000;
const shiftDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const round3 = (value: number) => Math.round(value * 1000) / 1000;

/** Index of the latest date ≤ `date` in an ascending list, or -1. */
export function indexOnOrBefore(dates: readonly string[], date: string): number {
  let low = 0;
  let high = dates.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if ((dates[middle] ?? '') <= date) {
      found = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}

/** Week-over-week change: against the observation about a week earlier (not more than 11 days). */
export function weeklyChange(dates: readonly string[], values: readonly number[], index: number, lagDays: number): number | null {
  const current = dates[index];
  const value = values[index];
  if (current === undefined || value === undefined) return null;
  const previousIndex = indexOnOrBefore(dates, shiftDays(current, -lagDays));
  const previousDate = dates[previousIndex];
  const previousValue = values[previousIndex];
  if (previousDate === undefined || previousValue === undefined || previousDate < shiftDays(current, -11)) return null;
  return round3(value - previousValue);
}

export function changeLine(change: number | null): string | null {
  if (change === null) return null;
  if (Math.abs(change) < 0.005) return 'Unchanged from last week';
  return `${change > 0 ? 'Up' : 'Down'} ${Math.abs(change).toFixed(2)} points from last week`;
}

interface Point {
  date: string;
  value: number;
}

function seriesPoint(data: RatesData, id: SeriesId, asOf: string): (Point & { change: number | null }) | undefined {
  const series = data.series[id];
  if (!series) return undefined;
  const index = indexOnOrBefore(series.dates, asOf);
  const date = series.dates[index];
  const value = series.values[index];
  if (date === undefined || value === undefined) return undefined;
  const lag = SERIES[id].frequency === 'weekly' ? 5 : 7;
  return { date, value, change: weeklyChange(series.dates, series.values, index, lag) };
}

interface Chosen {
  rate: number;
  date: string;
  change: number | null;
  source: string;
  sourceUrl: string;
  disclaimer: string;
}

const cellText = (request: RatesRequest) =>
  `${request.state}, FICO ${FICO_TIERS[request.fico]}, LTV ${LTV_TIERS[request.ltv]}, ${PRODUCT_TYPES[request.productType]} ${LOAN_TERMS[request.loanTerm]}`;

function chooseLender(request: RatesRequest, data: RatesData, asOf: string): Chosen | undefined {
  if (!LENDER_LOAN_PURPOSES.includes(request.loanPurpose)) return undefined;
  const eligible = data.lender.filter((observation) => observation.date <= asOf);
  const newestDate = eligible.at(-1)?.date;
  if (newestDate === undefined || newestDate < shiftDays(asOf, -LENDER_MAX_AGE_DAYS)) return undefined;
  // Same day from two sources: the operator's own rate sheet wins over the Rate Checker survey.
  const sameDay = eligible.filter((observation) => observation.date === newestDate);
  const chosen = sameDay.find((observation) => observation.sourceKind === 'rate_sheet') ?? sameDay[0];
  if (!chosen) return undefined;
  const history = eligible.filter((observation) => observation.source === chosen.source);
  const change = weeklyChange(
    history.map((observation) => observation.date),
    history.map((observation) => observation.rate),
    history.length - 1,
    7,
  );
  const isChecker = chosen.sourceKind === 'rate_checker';
  return {
    rate: chosen.rate,
    date: chosen.date,
    change,
    source: isChecker ? `CFPB Rate Checker (most common of ${chosen.distributionSize ?? 0} lender offers)` : chosen.source,
    sourceUrl: chosen.sourceUrl,
    disclaimer: isChecker
      ? `The most common rate among ${chosen.distributionSize ?? 0} lender offers in the CFPB Rate Checker on ${chosen.date} for ` +
        `${cellText(request)} (single-family purchase). Rates vary by lender, points and fees; this is not an offer.`
      : `From the rate sheet of ${chosen.source} dated ${chosen.date} for ${cellText(request)}. This is not an offer.`,
  };
}

function chooseBenchmark(request: RatesRequest, data: RatesData, asOf: string): Chosen | undefined {
  let best: { coverage: Coverage; point: Point & { change: number | null } } | undefined;
  for (const coverage of coveringBenchmarks(request)) {
    const point = seriesPoint(data, coverage.series, asOf);
    if (point && (!best || point.date > best.point.date)) best = { coverage, point };
  }
  if (!best) return undefined;
  const info = SERIES[best.coverage.series];
  const tierNote = best.coverage.productWide
    ? 'It does not vary by state, FICO tier or LTV tier'
    : 'It does not vary by state or within that FICO/LTV range';
  return {
    rate: best.point.value,
    date: best.point.date,
    change: best.point.change,
    source: `${info.sourceName}, national, via FRED`,
    sourceUrl: info.pageUrl,
    disclaimer:
      `No state or lender rate is loaded for ${cellText(request)}. This is the national ${info.sourceName} ` +
      `(${best.coverage.population}) as of ${best.point.date}, which covers this cell. ${tierNote}, nor by occupancy, ` +
      'property type or loan purpose within its population. It is an average of rates, not an offer.',
  };
}

function notFound(request: RatesRequest, data: RatesData, asOf: string): NotFoundError {
  const uncovered = uncoveredAttribute(request);
  if (uncovered) return new NotFoundError(`No rate data for ${uncovered}. Ask for occupancy=primary and property_type=single_family.`);
  const when = request.date ? ` on or before ${request.date}` : '';
  const hasBenchmark = coveringBenchmarks(request).length > 0;
  const missing = hasBenchmark
    ? `no observation of the national benchmark for this cell exists${when}`
    : 'no national benchmark covers this cell (they cover conventional 30- and 15-year loans with FICO 740+ and LTV at ' +
      'most 80%, and FHA, VA and jumbo 30-year loans; purchase loans, or rate/term refinances for the Optimal Blue indices)';
  const lenderNote =
    data.lender.length === 0
      ? `no state or lender observation is loaded for ${cellText(request)}`
      : `the newest state or lender observation for ${cellText(request)} is older than ${LENDER_MAX_AGE_DAYS} days before ${asOf}`;
  return new NotFoundError(
    `No rate for ${cellText(request)}, loan_purpose=${request.loanPurpose}${when}: ${lenderNote}, and ${missing}. ` +
      'Lender rates are loaded with `npm run sync -- rate_checker` or `npm run sync -- rate_sheet --file <csv>`.',
  );
}

/** The record for a request, or throws NotFoundError saying what data is missing. */
export function computeRates(request: RatesRequest, data: RatesData, documentationUrl: string): RatesResult {
  const asOf = request.date ?? data.latestDate;
  const chosen = uncoveredAttribute(request)
    ? undefined
    : (chooseLender(request, data, asOf) ?? chooseBenchmark(request, data, asOf));
  if (!chosen) throw notFound(request, data, asOf);

  const survey = seriesPoint(data, 'MORTGAGE30US', asOf);
  const benchmark = seriesPoint(data, 'OBMMIC30YF', asOf);
  const sources: SourceRef[] = [{ name: chosen.source, url: chosen.sourceUrl, as_of: chosen.date }];
  for (const [id, point] of [['MORTGAGE30US', survey], ['OBMMIC30YF', benchmark]] as const) {
    if (point && !sources.some((source) => source.url === SERIES[id].pageUrl)) {
      sources.push({ name: SERIES[id].sourceName, url: SERIES[id].pageUrl, as_of: point.date });
    }
  }

  if (request.format === 'simple') {
    const record: SimpleRecord = {
      rate: chosen.rate,
      date: chosen.date,
      state: request.state,
      fico_tier: FICO_TIERS[request.fico],
      ltv_tier: LTV_TIERS[request.ltv],
      source: chosen.source,
    };
    return { record, sources };
  }
  const record: DetailedRecord = {
    rate_30yr: chosen.rate,
    parameters: parameterLabels(request),
    rate_change_weekly: chosen.change,
    rate_change_line: changeLine(chosen.change),
    last_updated: chosen.date,
    national_average_rate: survey?.value ?? null,
    national_average_last_updated: survey?.date ?? null,
    index_a_rate: benchmark?.value ?? null,
    index_a_last_updated: benchmark?.date ?? null,
    survey_rate: survey?.value ?? null,
    survey_last_updated: survey?.date ?? null,
    disclaimer: chosen.disclaimer,
    metadata: { api_version: 'v1', documentation: documentationUrl },
    source: chosen.source,
    sources,
  };
  return { record, sources };
}
