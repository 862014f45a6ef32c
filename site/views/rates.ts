// The view of /rates (see site/views/format.ts for why views exist): the history chart's range and
// readings with their freshness, and the rate lookup read through the same contract and service as
// GET /api/v1/rates, with the form's options and the wording of its answer.
import { ageText, seriesFreshness } from './freshness.ts';
import { live, queryObject, type Live } from './live.ts';
import { readRateHistory, type RateHistory } from './rate-history.ts';
import type { PageDeps } from '../../api/publications/render-capture.ts';
import type { Freshness } from '../../api/freshness/contract.ts';
import { isoDay } from '../../api/platform/dates.ts';
import { parseOrThrow } from '../../api/platform/validation.ts';
import { STATES } from '../../api/geo/states.ts';
import { METHOD_PATH } from '../../api/rates/estimate/method.ts';
import {
  FICO_TIERS,
  LOAN_TERMS,
  LTV_TIERS,
  PRODUCT_TYPES,
  RATE_KIND_TEXT,
  RatesQuerySchema,
  type RatesQuery,
} from '../../api/rates/contract.ts';

export { ageText, METHOD_PATH, RATE_KIND_TEXT };
// /methods/state-rate-estimate shows the constants the estimate itself uses.
export { LOAN_FILTERS, METHOD_SENTENCE, MINIMUM_SAMPLE, MINIMUM_STATES } from '../../api/rates/estimate/method.ts';

/** The chart's ranges, by the `years` parameter. */
export const RANGES: Readonly<Record<string, { label: string; years: number }>> = {
  '1': { label: '1 year', years: 1 },
  '5': { label: '5 years', years: 5 },
  '10': { label: '10 years', years: 10 },
  all: { label: 'Since 1971', years: 60 },
};

/** The lookup form's choices: value and label of each option. */
export const LOOKUP_OPTIONS = {
  states: STATES.map((state) => [state.code, state.name] as const),
  fico: Object.entries(FICO_TIERS),
  ltv: Object.entries(LTV_TIERS),
  productType: Object.entries(PRODUCT_TYPES),
};

type LookupQuery = Omit<RatesQuery, 'format'>;
type Lookup = Awaited<ReturnType<PageDeps['services']['rates']['detailed']>>;

const LookupSchema = RatesQuerySchema.omit({ format: true });

// The API's precision: 7.4 is "7.40%", 6.875 stays "6.875%" (the API says 7.4 and 6.875).
export const percent = (value: number): string =>
  `${value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 3 })}%`;

/** The distinct days of the figures shown together: more than one, and the page says they are of different weeks. */
function daysOf(lookup: Lookup): string[] {
  const days = [
    lookup.last_updated,
    lookup.loan_term !== 30 ? lookup.rate_30yr_last_updated : null,
    lookup.survey_last_updated,
    lookup.index_a_last_updated,
  ];
  return [...new Set(days.filter((date): date is string => date !== null))].sort();
}

/** The headline figure of the history: each line's latest reading, judged against its publisher's schedule. */
function historyFreshness(history: Live<RateHistory>, today: string): Freshness[] {
  if (!history.ok) return [];
  return history.value.series.flatMap((entry) => {
    const last = entry.points.at(-1);
    return last ? [seriesFreshness(entry.id, entry.label, last.date, today)] : [];
  });
}

/** The form shows the request as the contract read it (a score as its tier, "texas" as TX). */
function selectedOf(asked: LookupQuery | undefined) {
  return {
    state: asked?.state ?? 'CO',
    fico: String(asked?.fico.tier ?? 1),
    ltv: String((asked?.down_payment ?? asked?.ltv)?.tier ?? 1),
    product_type: asked?.product_type ?? 'conventional',
    loan_term: String(asked?.loan_term ?? 30),
  };
}

/** "National figure 6.8% + 0.125 points, from 1,234 2024 HMDA loans in TX. " for a state estimate. */
function estimateSentence(lookup: Lookup): string | undefined {
  const { estimate } = lookup;
  if (!estimate || estimate.adjustment_points === null || lookup.rate_kind !== 'state_estimate') return undefined;
  const sign = estimate.adjustment_points >= 0 ? '+' : '−';
  const points = Math.abs(estimate.adjustment_points).toFixed(3);
  const loans = `${estimate.sample_size.toLocaleString('en-US')} ${estimate.hmda_year} HMDA loans`;
  const place = lookup.parameters.state;
  return ` National figure ${estimate.national_rate}% ${sign} ${points} points, from ${loans} in ${place}. `;
}

/** Everything /rates draws for one request. */
export async function ratesView(deps: PageDeps | undefined, url: URL) {
  const query = queryObject(url);
  const range = RANGES[query.years ?? '5'] ?? RANGES['5']!;
  const today = deps ? deps.clock() : new Date();
  const start = new Date(Date.UTC(today.getUTCFullYear() - range.years, today.getUTCMonth(), today.getUTCDate()));
  const from = isoDay(start);
  const history = await live(deps, (d) => readRateHistory(d.services.series, from));
  // The lookup's parameters are the rates contract's (the chart's `years` is the page's own).
  const { years: _chartRange, ...rateQuery } = query;
  let asked: LookupQuery | undefined;
  const lookup =
    query.state !== undefined
      ? await live(deps, (d) => {
          asked = parseOrThrow(LookupSchema, rateQuery, 'query');
          return d.services.rates.detailed(asked);
        })
      : undefined;
  // The terms some loaded series answers (10 and 20 years need the FFIEC's APOR table); all while the
  // data is not loaded.
  const terms = await live(deps, (d) => d.services.rates.terms(asked?.product_type ?? 'conventional'));
  const offeredTerms: number[] = terms.ok && terms.value.length > 0 ? terms.value : Object.keys(LOAN_TERMS).map(Number);
  const selected = selectedOf(asked);
  const shownTerms = ([key]: [string, string]) => offeredTerms.includes(Number(key)) || key === selected.loan_term;
  const latestFreshness = historyFreshness(history, isoDay(today));
  // Each figure says how old it is against today, and whether newer releases are missing.
  const lag = (field: string): string => {
    const entry = lookup?.ok ? lookup.value.freshness.find((figure) => figure.field === field) : undefined;
    return entry ? `, ${ageText(entry)}` : '';
  };
  return {
    range,
    from,
    history,
    latestFreshness,
    headline: latestFreshness.slice(0, 1),
    lookup,
    weeksApart: lookup?.ok ? daysOf(lookup.value) : [],
    estimateSentence: lookup?.ok ? estimateSentence(lookup.value) : undefined,
    lag,
    selected,
    terms: Object.entries(LOAN_TERMS).filter(shownTerms),
    /** The same record as JSON, from the API. */
    apiHref: `/api/v1/rates?${new URLSearchParams(rateQuery).toString()}`,
  };
}
