// get_mortgage_rates: today's rate by state, FICO tier and LTV tier, beside the weekly national
// survey (Freddie Mac PMMS) and the daily market benchmark (Optimal Blue), with as-of dates. The
// schemas are the rates contract's, shared with GET /rates (its detailed record).
import { defineTool, sourcesText } from '../tool-kit.ts';
import { DetailedRateRecordSchema, RatesQuerySchema, type DetailedRateRecord } from '../../rates/contract.ts';
import { HistorySchema, RateRangeSchema, historyText, rateHistory } from '../../series/tool-history.ts';
import { PINNED_TOOL_NOTE } from '../../platform/contract/versions.ts';
import { freshnessText } from '../../freshness/assess.ts';

const KIND_TEXT: Record<DetailedRateRecord['rate_kind'], string> = {
  state_estimate: 'This is a state estimate: the national benchmark plus the state\'s HMDA rate-spread adjustment (see estimate).',
  national: 'This is a national figure, the same in every state.',
  lender_sheet: "This is from a lender's rate sheet imported for this state.",
};

/** The record as text: how the request was read, the rate with its source and kind, the comparisons, freshness, the disclaimer. */
export function ratesRecordText(record: DetailedRateRecord): string {
  const labels = record.parameters;
  const thirty =
    record.loan_term === 30
      ? ''
      : record.rate_30yr !== null
        ? `30-year rate of the same cell: ${record.rate_30yr}% as of ${record.rate_30yr_last_updated}.`
        : 'No source covers the 30-year rate of this cell.';
  return [
    ...record.parameter_notes,
    `${labels.loan_term} ${labels.product_type} rate, ${labels.state}, FICO ${labels.fico_tier}, LTV ${labels.ltv_tier}: ${record.rate}% as of ${record.last_updated} (${record.source}).`,
    KIND_TEXT[record.rate_kind],
    record.tier_specific ? '' : 'It is not specific to this FICO/LTV tier: no benchmark of that tier is loaded.',
    thirty,
    record.rate_change_line ?? '',
    record.survey_rate !== null ? `National survey (Freddie Mac PMMS 30-year): ${record.survey_rate}% as of ${record.survey_last_updated}.` : '',
    record.index_a_rate !== null ? `Market benchmark (Optimal Blue 30-year conforming): ${record.index_a_rate}% as of ${record.index_a_last_updated}.` : '',
    freshnessText(record.freshness),
    record.disclaimer ?? '',
    sourcesText(record.sources),
  ]
    .filter(Boolean)
    .join('\n');
}

export const getMortgageRatesTool = defineTool({
  name: 'get_mortgage_rates',
  title: 'Mortgage rates by state and credit tier',
  description:
    "Today's mortgage rate for a state, FICO tier and LTV tier (`rate`, for the requested 30/20/15/10-year term; " +
    '`rate_30yr` is always the 30-year rate of the same cell), with the Freddie Mac weekly national survey (PMMS) and ' +
    'the Optimal Blue daily market benchmark for comparison, the weekly change and as-of dates. Arguments, all optional: ' +
    '`state` as a code or a name ("TX", "tx", "Texas"; default CO); `fico` as a tier 1-5 or a score (760 is tier 2; ' +
    'below 680 for fha/va/usda only); `ltv` as a tier 1-2 or an LTV percent 50-100, or `down_payment` as a percent (10: tier 2); ' +
    '`product_type` conventional, fha, va, jumbo or usda in any case ("FHA"); `loan_term` 30, 20, 15 or 10 ("15" ' +
    'works); `date` YYYY-MM-DD for a past day, e.g. "2024-01-05". A score or a percent read as a tier is said in ' +
    '`parameter_notes`. `rate_kind` says whether `rate` is a lender sheet, a documented state estimate (national ' +
    'benchmark + HMDA adjustment, `estimate`) or national; `tier_specific` false means a broader benchmark answered; ' +
    '`freshness`/`stale` say how old each figure is against today and which scheduled releases are missing. `from` and/or `to` (a year, month ' +
    'or day, e.g. "2020" or "2024-01-05") add `history`: the national weekly survey and the product\'s daily benchmark ' +
    'over that range (as published up to 260 observations each, longer ranges as monthly then annual means, said so), ' +
    'with sources and a CSV link to every observation.' +
    PINNED_TOOL_NOTE,
  inputSchema: RatesQuerySchema.omit({ format: true }).extend(RateRangeSchema.shape),
  outputSchema: DetailedRateRecordSchema.extend({ history: HistorySchema.optional() }),
  async run(args, { deps }) {
    const { from, to, ...query } = args;
    const record = await deps.services.rates.detailed(query);
    const history = await rateHistory(deps, { from, to, product_type: query.product_type, loan_term: query.loan_term });
    if (!history) return { structured: record, text: ratesRecordText(record) };
    return { structured: { ...record, history }, text: `${ratesRecordText(record)}\n\n${historyText(history, (value) => `${value}%`)}` };
  },
});
