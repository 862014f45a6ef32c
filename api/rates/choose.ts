// Which observation answers one cell (state, FICO tier, LTV tier, product, term) as of a day: a recent
// rate-sheet quote for the exact cell, otherwise the closest national benchmark that covers the cell
// (coverage.ts; a broader one, labelled so, when no closer one is loaded); otherwise a 404 that says
// what is missing and since when. Pure code.
import { NotFoundError } from '../platform/errors.ts';
import { coveringBenchmarks, LENDER_LOAN_PURPOSES, TIER_SPECIFIC, uncoveredAttribute, type Coverage } from './coverage.ts';
import { LOAN_TERMS, LTV_TIERS, PRODUCT_TYPES } from './contract.ts';
import { ficoLabel, type RatesRequest } from './params.ts';
import { benchmarkInfo, type BenchmarkId } from './benchmarks.ts';
import { addDays } from '../platform/dates.ts';

export interface SeriesData {
  /** Ascending YYYY-MM-DD. */
  dates: string[];
  values: number[];
}

export interface LenderObservation {
  source: string;
  sourceKind: 'rate_sheet';
  sourceUrl: string;
  date: string;
  rate: number;
  distributionSize: number | null;
}

export type SeriesTable = Partial<Record<BenchmarkId, SeriesData>>;

/** The observation chosen for a cell, with the words that say where it comes from. */
export interface Chosen {
  rate: number;
  date: string;
  change: number | null;
  source: string;
  sourceUrl: string;
  disclaimer: string;
  /** The benchmark read (undefined for a rate-sheet quote). */
  series?: BenchmarkId;
  /** False when a benchmark broader than the request's FICO/LTV tiers answers. */
  tierSpecific: boolean;
}

/** A lender observation older than this (before the as-of day) no longer counts as current. */
export const LENDER_MAX_AGE_DAYS = 30;

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
  const previousIndex = indexOnOrBefore(dates, addDays(current, -lagDays));
  const previousDate = dates[previousIndex];
  const previousValue = values[previousIndex];
  if (previousDate === undefined || previousValue === undefined || previousDate < addDays(current, -11)) return null;
  return round3(value - previousValue);
}

/**
 * The change in words. `staleDate`: the figure is not current (a newer release should exist), so
 * its week is named instead of "last week", which would say the move is recent.
 */
export function changeLine(change: number | null, staleDate?: string): string | null {
  if (change === null) return null;
  const week = staleDate === undefined ? 'from last week' : `in the week to ${staleDate}, its latest figure`;
  if (Math.abs(change) < 0.005) return staleDate === undefined ? 'Unchanged from last week' : `Unchanged ${week}`;
  return `${change > 0 ? 'Up' : 'Down'} ${Math.abs(change).toFixed(2)} points ${week}`;
}

export interface Point {
  date: string;
  value: number;
  change: number | null;
}

export function seriesPoint(series: SeriesTable, id: BenchmarkId, asOf: string): Point | undefined {
  const data = series[id];
  if (!data) return undefined;
  const index = indexOnOrBefore(data.dates, asOf);
  const date = data.dates[index];
  const value = data.values[index];
  if (date === undefined || value === undefined) return undefined;
  const lag = benchmarkInfo(id).frequency === 'weekly' ? 5 : 7;
  return { date, value, change: weeklyChange(data.dates, data.values, index, lag) };
}

export const cellText = (request: Pick<RatesRequest, 'state' | 'fico' | 'ltv' | 'productType' | 'loanTerm'>) =>
  `${request.state}, FICO ${ficoLabel(request.fico)}, LTV ${LTV_TIERS[request.ltv]}, ${PRODUCT_TYPES[request.productType]} ${LOAN_TERMS[request.loanTerm]}`;

export function chooseLender(request: RatesRequest, lender: readonly LenderObservation[], asOf: string): Chosen | undefined {
  if (!LENDER_LOAN_PURPOSES.includes(request.loanPurpose)) return undefined;
  const eligible = lender.filter((observation) => observation.date <= asOf);
  const newestDate = eligible.at(-1)?.date;
  if (newestDate === undefined || newestDate < addDays(asOf, -LENDER_MAX_AGE_DAYS)) return undefined;
  // Several sheets quoting the same day: the first imported (each is the operator's own choice).
  const chosen = eligible.find((observation) => observation.date === newestDate);
  if (!chosen) return undefined;
  const history = eligible.filter((observation) => observation.source === chosen.source);
  const change = weeklyChange(
    history.map((observation) => observation.date),
    history.map((observation) => observation.rate),
    history.length - 1,
    7,
  );
  return {
    rate: chosen.rate,
    date: chosen.date,
    change,
    source: chosen.source,
    sourceUrl: chosen.sourceUrl,
    disclaimer: `From the rate sheet of ${chosen.source} dated ${chosen.date} for ${cellText(request)}, imported by this service's operator. This is not an offer.`,
    tierSpecific: true,
  };
}

export function chooseBenchmark(request: RatesRequest, series: SeriesTable, asOf: string): Chosen | undefined {
  let best: { coverage: Coverage; point: Point } | undefined;
  for (const coverage of coveringBenchmarks(request)) {
    // A closer match that has an observation is never passed over for a broader one.
    if (best && best.coverage.specificity !== coverage.specificity) break;
    const point = seriesPoint(series, coverage.series, asOf);
    if (point && (!best || point.date > best.point.date)) best = { coverage, point };
  }
  if (!best) return undefined;
  const info = benchmarkInfo(best.coverage.series);
  const tierSpecific = TIER_SPECIFIC.includes(best.coverage.specificity);
  const tierNote = {
    cell: 'It does not vary within that FICO/LTV band',
    tiers: 'It does not vary within that FICO/LTV range',
    product: 'It is not specific to the FICO or LTV tier asked for: it does not vary by FICO tier or LTV tier',
    broad:
      'It is not specific to the FICO or LTV tier asked for: no benchmark of that tier is loaded, so this is the broadest benchmark of ' +
      'the product and term, and it does not vary by FICO tier or LTV tier',
  }[best.coverage.specificity];
  return {
    rate: best.point.value,
    date: best.point.date,
    change: best.point.change,
    source: [`${info.sourceName}, national`, info.via].filter(Boolean).join(', '),
    sourceUrl: info.pageUrl,
    disclaimer:
      `This is the national ${info.sourceName} (${best.coverage.population}) as of ${best.point.date}, which covers ${cellText(request)}. ` +
      `${tierNote}, nor by occupancy, property type or loan purpose within its population. It is an average of rates, not an offer.`,
    series: best.coverage.series,
    tierSpecific,
  };
}

/** The observation for a cell, or undefined when no source answers it. */
export function chooseObservation(
  request: RatesRequest,
  series: SeriesTable,
  lender: readonly LenderObservation[],
  asOf: string,
): Chosen | undefined {
  if (uncoveredAttribute(request)) return undefined;
  return chooseLender(request, lender, asOf) ?? chooseBenchmark(request, series, asOf);
}

/** Series that would answer this cell but hold no observation at all: what an operator could load. */
export function unloadedBenchmarks(request: RatesRequest, series: SeriesTable): BenchmarkId[] {
  return coveringBenchmarks(request)
    .map((coverage) => coverage.series)
    .filter((id) => (series[id]?.dates.length ?? 0) === 0);
}

function benchmarkNote(request: RatesRequest, series: SeriesTable, when: string): string {
  const covering = coveringBenchmarks(request);
  if (covering.length === 0) {
    return (
      'no national benchmark covers this cell (they cover conventional 30-, 20-, 15- and 10-year loans at every FICO and LTV tier, ' +
      'and FHA, VA, jumbo and USDA 30-year loans; purchase loans or rate/term refinances, not cash-out refinances)'
    );
  }
  const described = covering.map((coverage) => {
    const name = `the ${benchmarkInfo(coverage.series).sourceName}`;
    const first = series[coverage.series]?.dates[0];
    return first ? `${name} starts on ${first}` : `${name} is not loaded`;
  });
  return `no national benchmark covering this cell has an observation${when}: ${[...new Set(described)].join('; ')}`;
}

/** The 404 for a cell no source answers: what is missing and since when, in a reader's words. */
export function notFound(request: RatesRequest, series: SeriesTable, lender: readonly LenderObservation[], asOf: string): NotFoundError {
  const uncovered = uncoveredAttribute(request);
  if (uncovered) return new NotFoundError(`No rate data for ${uncovered}. Ask for occupancy=primary and property_type=single_family.`);
  const when = request.date ? ` on or before ${request.date}` : '';
  const newest = lender.filter((observation) => observation.date <= asOf).at(-1)?.date;
  const lenderNote =
    newest === undefined
      ? `no lender rate sheet is loaded for ${cellText(request)}`
      : `the newest lender rate sheet quote for ${cellText(request)} is from ${newest}, more than ${LENDER_MAX_AGE_DAYS} days before ${asOf}`;
  return new NotFoundError(
    `No rate for ${cellText(request)}, loan_purpose=${request.loanPurpose}${when}: ${lenderNote}, and ${benchmarkNote(request, series, when)}.`,
  );
}
