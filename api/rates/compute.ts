// Computes a rate record (spec 2.1 / 2.2) from loaded observations: pure code, no I/O. `rate` is the
// requested term's figure and `rate_30yr` the same cell's 30-year figure (the spec's field: a 15-year
// request never puts its 15-year rate there); choose.ts picks each figure, staleness.ts says which
// figures lag the newest one.
import { chooseObservation, changeLine, notFound, seriesPoint, type Chosen, type LenderObservation, type SeriesTable } from './choose.ts';
import { FICO_TIERS, LOAN_TERMS, LTV_TIERS, type DetailedRateRecord, type RateRecord, type SimpleRateRecord, type SourceRef } from './contract.ts';
import type { DatasetVersion } from '../platform/contract/versions.ts';
import { parameterLabels, type RatesRequest } from './params.ts';
import { SERIES } from './series.ts';
import { assessStaleness, type DatedFigure } from './staleness.ts';

export {
  changeLine,
  indexOnOrBefore,
  LENDER_MAX_AGE_DAYS,
  weeklyChange,
  type LenderObservation,
  type SeriesData,
} from './choose.ts';

export interface RatesData {
  series: SeriesTable;
  /** Observations of the request's cell (state, FICO, LTV, product, term), ascending by date. */
  lender: LenderObservation[];
  /** The same cell's 30-year observations, for `rate_30yr` when the request is for another term. */
  lender30yr?: LenderObservation[];
  /** Newest date of any loaded observation: what "latest" means when no date is asked for. */
  latestDate: string;
  /** The dataset versions the data was read from (named in the record). */
  versions: DatasetVersion[];
}

export interface RatesResult {
  record: RateRecord;
  sources: SourceRef[];
}

const SURVEY_LABEL = 'the national survey (Freddie Mac PMMS 30-year)';
const BENCHMARK_LABEL = 'the market benchmark (Optimal Blue 30-year conforming)';

/** The figure for the same cell at 30 years: the chosen one itself, another choice, or none. */
function thirtyYear(request: RatesRequest, data: RatesData, asOf: string, chosen: Chosen): Chosen | undefined {
  if (request.loanTerm === 30) return chosen;
  return chooseObservation({ ...request, loanTerm: 30 }, data.series, data.lender30yr ?? [], asOf);
}

/** The record for a request, or throws NotFoundError saying what data is missing. */
export function computeRates(request: RatesRequest, data: RatesData, documentationUrl: string): RatesResult {
  const asOf = request.date ?? data.latestDate;
  const chosen = chooseObservation(request, data.series, data.lender, asOf);
  if (!chosen) throw notFound(request, data.series, data.lender, asOf);
  const thirty = thirtyYear(request, data, asOf, chosen);

  const survey = seriesPoint(data.series, 'MORTGAGE30US', asOf);
  const benchmark = seriesPoint(data.series, 'OBMMIC30YF', asOf);
  const sources: SourceRef[] = [];
  const cite = (name: string, url: string, as_of: string) => {
    if (!sources.some((source) => source.url === url && source.as_of === as_of)) sources.push({ name, url, as_of });
  };
  cite(chosen.source, chosen.sourceUrl, chosen.date);
  if (thirty) cite(thirty.source, thirty.sourceUrl, thirty.date);
  for (const [id, point] of [['MORTGAGE30US', survey], ['OBMMIC30YF', benchmark]] as const) {
    if (point && !sources.some((source) => source.url === SERIES[id].pageUrl)) cite(SERIES[id].sourceName, SERIES[id].pageUrl, point.date);
  }

  if (request.format === 'simple') {
    const record: SimpleRateRecord = {
      rate: chosen.rate,
      date: chosen.date,
      state: request.state,
      fico_tier: FICO_TIERS[request.fico],
      ltv_tier: LTV_TIERS[request.ltv],
      loan_term: request.loanTerm,
      source: chosen.source,
      dataset_versions: data.versions,
    };
    return { record, sources };
  }

  const term = LOAN_TERMS[request.loanTerm];
  const figures: DatedFigure[] = [{ field: 'rate', label: `the ${term} rate`, as_of: chosen.date }];
  if (thirty) figures.push({ field: 'rate_30yr', label: request.loanTerm === 30 ? `the ${term} rate` : 'the 30-year rate', as_of: thirty.date });
  if (survey) {
    figures.push({ field: 'survey_rate', label: SURVEY_LABEL, as_of: survey.date });
    figures.push({ field: 'national_average_rate', label: SURVEY_LABEL, as_of: survey.date });
  }
  if (benchmark) figures.push({ field: 'index_a_rate', label: BENCHMARK_LABEL, as_of: benchmark.date });
  const staleness = assessStaleness(figures);

  const thirtyNote =
    request.loanTerm === 30
      ? undefined
      : thirty
        ? `rate_30yr is the 30-year rate of the same cell (${thirty.source}, ${thirty.date}).`
        : 'No source covers the 30-year rate of this cell, so rate_30yr is empty.';
  const record: DetailedRateRecord = {
    rate_30yr: thirty?.rate ?? null,
    rate_30yr_last_updated: thirty?.date ?? null,
    rate: chosen.rate,
    loan_term: request.loanTerm,
    parameters: parameterLabels(request),
    parameter_notes: request.notes,
    rate_change_weekly: chosen.change,
    rate_change_line: changeLine(chosen.change),
    last_updated: chosen.date,
    national_average_rate: survey?.value ?? null,
    national_average_last_updated: survey?.date ?? null,
    index_a_rate: benchmark?.value ?? null,
    index_a_last_updated: benchmark?.date ?? null,
    survey_rate: survey?.value ?? null,
    survey_last_updated: survey?.date ?? null,
    stale: staleness.stale,
    oldest_figure_days_behind: staleness.oldest_figure_days_behind,
    disclaimer: [chosen.disclaimer, thirtyNote, staleness.sentence].filter(Boolean).join(' '),
    metadata: { api_version: 'v1', documentation: documentationUrl },
    source: chosen.source,
    sources,
    dataset_versions: data.versions,
  };
  return { record, sources };
}
