// get_mortgage_rates: today's rate by state, FICO tier and LTV tier, beside the weekly national
// survey (Freddie Mac PMMS) and the daily market benchmark (Optimal Blue), with as-of dates. The
// schemas are the rates contract's, shared with GET /rates (its detailed record).
import { defineTool, sourcesText } from '../tool-kit.ts';
import { DetailedRateRecordSchema, RATE_KIND_TEXT, RatesQuerySchema, type DetailedRateRecord } from '../../rates/contract.ts';
import { HistorySchema, RateRangeSchema, historyText, rateHistory } from '../../series/tool-history.ts';
import { freshnessText } from '../../freshness/assess.ts';

/** The state estimate in a sentence: what it adds to which figure, from how many loans of which year. */
function estimateText(estimate: NonNullable<DetailedRateRecord['estimate']>): string {
  const adjustment =
    estimate.adjustment_points === null
      ? `no adjustment (${estimate.sample_size} loans, fewer than the ${estimate.minimum_sample_size} needed)`
      : `${estimate.adjustment_points >= 0 ? '+' : ''}${estimate.adjustment_points} points from ${estimate.sample_size.toLocaleString('en-US')} ${estimate.hmda_year} HMDA loans`;
  return `Estimate: national ${estimate.national_rate}% ${adjustment}${estimate.synthetic ? ' (SYNTHETIC benchmark data, not real loans)' : ''}; method: ${estimate.method_url}`;
}

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
    RATE_KIND_TEXT[record.rate_kind],
    record.estimate ? estimateText(record.estimate) : '',
    record.tier_specific ? '' : 'It is not specific to this FICO/LTV tier: no benchmark of that tier is loaded.',
    thirty,
    record.rate_change_line ?? '',
    record.survey_rate !== null
      ? `National survey (Freddie Mac PMMS 30-year): ${record.survey_rate}% as of ${record.survey_last_updated}.`
      : '',
    record.index_a_rate !== null
      ? `Market benchmark (Optimal Blue 30-year conforming): ${record.index_a_rate}% as of ${record.index_a_last_updated}.`
      : '',
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
    "Today's mortgage rate for a state, FICO tier and LTV tier, beside Freddie Mac's weekly survey and Optimal Blue's daily " +
    'benchmark, with the weekly change and freshness. `rate_kind`: lender sheet, state estimate or national; `tier_specific` ' +
    'false: a broader benchmark answered. `from`/`to` add history.',
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
