// get_mortgage_rates: today's rate by state, FICO tier and LTV tier, beside the weekly national
// survey (Freddie Mac PMMS) and the daily market benchmark (Optimal Blue), with as-of dates. The
// schemas are the rates contract's, shared with GET /rates (its detailed record).
import { defineTool, sourcesText } from '../tool-kit.ts';
import { DetailedRateRecordSchema, RATE_KIND_TEXT, RatesQuerySchema, type DetailedRateRecord } from '../../rates/contract.ts';
import { HistorySchema, RateRangeSchema, historyText, rateHistory } from '../../series/tool-history.ts';
import { freshnessText } from '../../freshness/assess.ts';
import { stateCode } from '../../platform/contract/places.ts';

/** The state estimate in a sentence: what it adds to which figure, from how many loans of which year. */
function estimateText(estimate: NonNullable<DetailedRateRecord['estimate']>): string {
  const adjustment =
    estimate.adjustment_points === null
      ? `no adjustment (${estimate.sample_size} loans, fewer than the ${estimate.minimum_sample_size} needed)`
      : `${estimate.adjustment_points >= 0 ? '+' : ''}${estimate.adjustment_points} points from ${estimate.sample_size.toLocaleString('en-US')} ${estimate.hmda_year} HMDA loans`;
  return `Estimate: national ${estimate.national_rate}% ${adjustment}${estimate.synthetic ? ' (SYNTHETIC benchmark data, not real loans)' : ''}; method: ${estimate.method_url}`;
}

/** Which parts of the cell the caller named: the others are defaults, said as such, never as the question. */
export interface AskedCell {
  state: boolean;
  fico: boolean;
  ltv: boolean;
}

const ALL_ASKED: AskedCell = { state: true, fico: true, ltv: true };

/** The cell as asked ("TX, FICO 740-779"), and the defaults it was read with when the figure depends on them. */
function cellText(record: DetailedRateRecord, asked: AskedCell): { label: string; defaults: string } {
  const labels = record.parameters;
  const parts = [
    { asked: asked.state, text: labels.state },
    { asked: asked.fico, text: `FICO ${labels.fico_tier}` },
    { asked: asked.ltv, text: `LTV ${labels.ltv_tier}` },
  ];
  const label = parts.filter((part) => part.asked).map((part) => part.text);
  const unasked = parts.filter((part) => !part.asked).map((part) => part.text);
  // A national figure is the same in every cell: the defaults changed nothing, so they are not named.
  const defaults =
    unasked.length > 0 && record.rate_kind !== 'national' ? `Not asked, so read with the defaults: ${unasked.join(', ')}.` : '';
  return { label: label.length > 0 ? `, ${label.join(', ')}` : '', defaults };
}

/**
 * The record as text: the rate for the cell asked with its source and kind, the comparisons and the
 * freshness. The full caveats are the structured `disclaimer`; what every rate answer shares is in
 * the server's instructions, said once.
 */
export function ratesRecordText(record: DetailedRateRecord, asked: AskedCell = ALL_ASKED): string {
  const labels = record.parameters;
  const cell = cellText(record, asked);
  const thirty =
    record.loan_term === 30
      ? ''
      : record.rate_30yr !== null
        ? `30-year rate of the same cell: ${record.rate_30yr}% as of ${record.rate_30yr_last_updated}.`
        : 'No source covers the 30-year rate of this cell.';
  return [
    ...record.parameter_notes,
    `${labels.loan_term} ${labels.product_type} rate${cell.label}: ${record.rate}% as of ${record.last_updated} (${record.source}).`,
    RATE_KIND_TEXT[record.rate_kind],
    cell.defaults,
    record.estimate ? estimateText(record.estimate) : '',
    record.tier_specific || !asked.fico ? '' : 'It is not specific to this FICO/LTV tier: no benchmark of that tier is loaded.',
    thirty,
    record.rate_change_line ?? '',
    record.survey_rate !== null
      ? `National survey (Freddie Mac PMMS 30-year): ${record.survey_rate}% as of ${record.survey_last_updated}.`
      : '',
    record.index_a_rate !== null
      ? `Market benchmark (Optimal Blue 30-year conforming): ${record.index_a_rate}% as of ${record.index_a_last_updated}.`
      : '',
    freshnessText(record.freshness),
    sourcesText(record.sources),
  ]
    .filter(Boolean)
    .join('\n');
}

/** The contract's default tier, as its parser reads it (a tier reading, not a number). */
const DEFAULT_FICO = RatesQuerySchema.shape.fico.parse(undefined);

/** The tool's input: the rates contract, with the cell's state and FICO tier optional so a default is never taken for the question. */
const RatesToolInputSchema = RatesQuerySchema.omit({ format: true })
  .extend({
    state: stateCode().optional().describe('State or DC. Default: national (read for CO).'),
    fico: RatesQuerySchema.shape.fico
      .unwrap()
      .optional()
      .describe(RatesQuerySchema.shape.fico.description ?? ''),
  })
  .extend(RateRangeSchema.shape);

export const getMortgageRatesTool = defineTool({
  name: 'get_mortgage_rates',
  title: 'Mortgage rates',
  description: "Today's mortgage rate by state, FICO and LTV tier, beside Freddie Mac's survey and Optimal Blue's benchmark.",
  inputSchema: RatesToolInputSchema,
  outputSchema: DetailedRateRecordSchema.extend({ history: HistorySchema.optional() }),
  uses: ['rates', 'series'],
  async run(args, { deps }) {
    const { from, to, state, fico, ...query } = args;
    const asked: AskedCell = {
      state: state !== undefined,
      fico: fico !== undefined,
      ltv: query.ltv !== undefined || query.down_payment !== undefined,
    };
    const record = await deps.services.rates.detailed({ ...query, state: state ?? 'CO', fico: fico ?? DEFAULT_FICO });
    const text = ratesRecordText(record, asked);
    const history = await rateHistory(deps, { from, to, product_type: query.product_type, loan_term: query.loan_term });
    if (!history) return { structured: record, text };
    return { structured: { ...record, history }, text: `${text}\n\n${historyText(history, (value) => `${value}%`)}` };
  },
});
