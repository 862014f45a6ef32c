// Computes a rate record (detailed or simple; docs/rates.md) from loaded observations: pure code, no I/O. `rate` is the
// requested term's figure and `rate_30yr` the same cell's 30-year figure; choose.ts picks each
// figure, estimate/apply.ts adds the state's HMDA adjustment to a national one, and every figure's
// freshness is judged against the reference day (today, or `date`) by its publisher's schedule.
import { chooseObservation, changeLine, notFound, seriesPoint, type Chosen, type LenderObservation, type SeriesTable } from './choose.ts';
import {
  LOAN_TERMS,
  LTV_TIERS,
  PRODUCT_TYPES,
  type DetailedRateRecord,
  type RateKind,
  type RateRecord,
  type SimpleRateRecord,
  type SourceRef,
} from './contract.ts';
import type { DatasetVersion } from '../platform/contract/versions.ts';
import { ficoLabel, parameterLabels, type RatesRequest } from './params.ts';
import { benchmarkInfo, type BenchmarkId } from './benchmarks.ts';
import type { HeldEstimates } from './snapshot.ts';
import { applyStateEstimate, type Applied } from './estimate/apply.ts';
import { ESTIMATE_PUBLISHER } from './estimate/method.ts';
import { assessFreshness, staleSentences } from '../freshness/assess.ts';
import type { Freshness } from '../freshness/contract.ts';
import type { ReleaseSchedule } from '../freshness/schedules.ts';

export { changeLine, indexOnOrBefore, type LenderObservation } from './choose.ts';

export interface RatesData {
  series: SeriesTable;
  /** Rate-sheet quotes of the request's cell (state, FICO, LTV, product, term), ascending by date. */
  lender: LenderObservation[];
  /** The same cell's 30-year quotes, for `rate_30yr` when the request is for another term. */
  lender30yr?: LenderObservation[];
  /** The state estimates, when the HMDA warehouse gave any. */
  estimates?: HeldEstimates | undefined;
  /** Newest date of any loaded national observation: what "latest" means when no date is asked for. */
  latestDate: string;
  /** Today (UTC), YYYY-MM-DD: what freshness is judged against when no `date` is asked for. */
  today: string;
  /** The dataset versions the data was read from (named in the record). */
  versions: DatasetVersion[];
}

export interface RecordUrls {
  documentation: string;
  /** The state estimate's method page. */
  method: string;
}

export interface RatesResult {
  record: RateRecord;
  sources: SourceRef[];
}

/** A rate sheet has no publisher schedule: the operator imports it when they choose. */
const IMPORTED: ReleaseSchedule = { description: "imported by this service's operator (no publisher schedule)", releasesBetween: () => [] };

/** The figure for the same cell at 30 years: the chosen one itself, another choice, or none. */
function thirtyYear(request: RatesRequest, data: RatesData, asOf: string, chosen: Chosen): Chosen | undefined {
  if (request.loanTerm === 30) return chosen;
  return chooseObservation({ ...request, loanTerm: 30 }, data.series, data.lender30yr ?? [], asOf);
}

function scheduleOf(chosen: Chosen): { series: string; schedule: ReleaseSchedule } {
  if (chosen.series === undefined) return { series: `the rate sheet of ${chosen.source}`, schedule: IMPORTED };
  const info = benchmarkInfo(chosen.series);
  return { series: info.sourceName, schedule: info.schedule };
}

function benchmarkFreshness(field: string, id: BenchmarkId, asOf: string, referenceDay: string): Freshness {
  const info = benchmarkInfo(id);
  return assessFreshness({ field, series: info.sourceName, as_of: asOf, schedule: info.schedule }, referenceDay);
}

/** The state estimate for a chosen figure (none for a rate sheet, which is the state's own figure). */
function withEstimate(request: RatesRequest, chosen: Chosen, data: RatesData, methodUrl: string): Applied {
  if (chosen.series === undefined) return { rate: chosen.rate, estimate: null };
  return applyStateEstimate(request, chosen.rate, data.estimates, methodUrl);
}

/** The record for a request, or throws NotFoundError saying what data is missing. */
export function computeRates(request: RatesRequest, data: RatesData, urls: RecordUrls): RatesResult {
  const asOf = request.date ?? data.latestDate;
  const referenceDay = request.date ?? data.today;
  const chosen = chooseObservation(request, data.series, data.lender, asOf);
  if (!chosen) throw notFound(request, data.series, data.lender, asOf);
  const thirty = thirtyYear(request, data, asOf, chosen);
  const applied = withEstimate(request, chosen, data, urls.method);
  const thirtyApplied = thirty
    ? request.loanTerm === 30
      ? applied
      : withEstimate({ ...request, loanTerm: 30 }, thirty, data, urls.method)
    : undefined;
  const kind: RateKind =
    chosen.series === undefined
      ? 'lender_sheet'
      : applied.estimate?.adjustment_points != null && applied.sentence
        ? 'state_estimate'
        : 'national';

  const survey = seriesPoint(data.series, 'MORTGAGE30US', asOf);
  const benchmark = seriesPoint(data.series, 'OBMMIC30YF', asOf);
  const sources: SourceRef[] = [];
  const cite = (name: string, url: string, as_of: string) => {
    if (!sources.some((source) => source.url === url && source.as_of === as_of)) sources.push({ name, url, as_of });
  };
  cite(chosen.source, chosen.sourceUrl, chosen.date);
  if (thirty) cite(thirty.source, thirty.sourceUrl, thirty.date);
  for (const [id, point] of [
    ['MORTGAGE30US', survey],
    ['OBMMIC30YF', benchmark],
  ] as const) {
    const info = benchmarkInfo(id);
    if (point && !sources.some((source) => source.url === info.pageUrl)) cite(info.sourceName, info.pageUrl, point.date);
  }
  const estimate = applied.estimate ?? thirtyApplied?.estimate ?? null;
  const estimateName = estimate
    ? `${ESTIMATE_PUBLISHER}, ${estimate.hmda_year} state rate-spread estimate${estimate.synthetic ? ' (SYNTHETIC rows)' : ''}`
    : undefined;
  if (estimate && estimateName) cite(estimateName, urls.method, `${estimate.hmda_year}-12-31`);
  const source = kind === 'state_estimate' && estimateName ? `${chosen.source} + ${estimateName}` : chosen.source;

  const rateSchedule = scheduleOf(chosen);
  const rateFreshness = assessFreshness(
    { field: 'rate', series: rateSchedule.series, as_of: chosen.date, schedule: rateSchedule.schedule },
    referenceDay,
  );

  const freshness: Freshness[] = [rateFreshness];
  if (thirty && request.loanTerm !== 30) {
    const thirtySchedule = scheduleOf(thirty);
    freshness.push(
      assessFreshness(
        { field: 'rate_30yr', series: thirtySchedule.series, as_of: thirty.date, schedule: thirtySchedule.schedule },
        referenceDay,
      ),
    );
  } else if (thirty) {
    freshness.push({ ...rateFreshness, field: 'rate_30yr' });
  }
  if (survey) {
    freshness.push(benchmarkFreshness('survey_rate', 'MORTGAGE30US', survey.date, referenceDay));
    freshness.push(benchmarkFreshness('national_average_rate', 'MORTGAGE30US', survey.date, referenceDay));
  }
  if (benchmark) freshness.push(benchmarkFreshness('index_a_rate', 'OBMMIC30YF', benchmark.date, referenceDay));
  const stale = freshness.filter((entry) => entry.stale);

  const term = LOAN_TERMS[request.loanTerm];
  const missing: string[] = [];
  if (!chosen.tierSpecific) {
    missing.push(
      `No benchmark specific to FICO ${ficoLabel(request.fico)} and LTV ${LTV_TIERS[request.ltv]} is loaded for ${PRODUCT_TYPES[request.productType]} ${term} loans; the rate is a broader national benchmark.`,
    );
  }
  if (applied.missing) missing.push(applied.missing);

  if (request.format === 'simple') {
    // The simple form says what the detailed one says about `rate`: whether it is of the tier asked,
    // and where it comes from, what it does not vary by and whether it is current.
    const record: SimpleRateRecord = {
      rate: applied.rate,
      date: chosen.date,
      state: request.state,
      fico_tier: ficoLabel(request.fico),
      ltv_tier: LTV_TIERS[request.ltv],
      loan_term: request.loanTerm,
      source,
      rate_kind: kind,
      tier_specific: chosen.tierSpecific,
      freshness: rateFreshness,
      disclaimer: [applied.sentence, chosen.disclaimer, ...missing, staleSentences([rateFreshness])].filter(Boolean).join(' ') || null,
      dataset_versions: data.versions,
    };
    return { record, sources };
  }

  if (!thirty) missing.push('No source covers the 30-year rate of this cell, so rate_30yr is empty.');
  const thirtyNote =
    request.loanTerm === 30 || !thirty
      ? undefined
      : `rate_30yr is the 30-year rate of the same cell (${thirtyApplied?.sentence ? `${thirty.source} with the same state adjustment` : thirty.source}, ${thirty.date}).`;
  const record: DetailedRateRecord = {
    rate_30yr: thirtyApplied?.rate ?? null,
    rate_30yr_last_updated: thirty?.date ?? null,
    rate: applied.rate,
    loan_term: request.loanTerm,
    parameters: parameterLabels(request),
    parameter_notes: request.notes,
    rate_change_weekly: chosen.change,
    rate_change_line: changeLine(chosen.change, rateFreshness.stale ? chosen.date : undefined),
    last_updated: chosen.date,
    national_average_rate: survey?.value ?? null,
    national_average_last_updated: survey?.date ?? null,
    index_a_rate: benchmark?.value ?? null,
    index_a_last_updated: benchmark?.date ?? null,
    survey_rate: survey?.value ?? null,
    survey_last_updated: survey?.date ?? null,
    rate_kind: kind,
    tier_specific: chosen.tierSpecific,
    estimate,
    missing,
    freshness,
    stale,
    disclaimer: [applied.sentence, chosen.disclaimer, ...missing, thirtyNote, staleSentences(freshness)].filter(Boolean).join(' '),
    metadata: { api_version: 'v1', documentation: urls.documentation },
    source,
    sources,
    dataset_versions: data.versions,
  };
  return { record, sources };
}
