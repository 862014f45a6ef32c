// get_mortgage_rates: today's rate by state, FICO tier and LTV tier, beside the weekly national
// survey (Freddie Mac PMMS) and the daily market benchmark (Optimal Blue), with as-of dates.
import { z } from 'zod';
import { sourceSchema, sourcesText, type ToolContext } from '../tool-kit.ts';
import { LOAN_PURPOSES, LOAN_TERMS, OCCUPANCIES, PRODUCT_TYPES, PROPERTY_TYPES, STATE_CODES } from '../../rates/params.ts';
import type { DetailedRecord } from '../../rates/compute.ts';
import { DetailedRateRecordSchema } from '../../rates/schema.ts';

const record = DetailedRateRecordSchema.shape;

const keysOf = <T extends object>(object: T) => Object.keys(object) as [string, ...string[]];

export const getMortgageRatesTool = {
  name: 'get_mortgage_rates',
  title: 'Mortgage rates by state and credit tier',
  description:
    "Today's mortgage rate for a state, FICO tier and LTV tier (`rate`, for the requested 30/20/15/10-year term; " +
    '`rate_30yr` is always the 30-year rate of the same cell), with the Freddie Mac weekly national survey (PMMS) and ' +
    'the Optimal Blue daily market benchmark for comparison, the weekly change and as-of dates. When no state-level ' +
    'observation is loaded, the answer is the national index for that credit/LTV cell and says so in `source` and ' +
    '`disclaimer`; `stale` lists any figure more than two weeks older than the newest one; cells no source covers are ' +
    'reported as missing, never estimated.',
  input: {
    state: z.enum(STATE_CODES as unknown as [string, ...string[]]).optional().describe('2-letter state code (50 states + DC). Default CO.'),
    fico: z.number().int().min(1).max(5).optional().describe('FICO tier: 1 = 780+, 2 = 740-779, 3 = 720-739, 4 = 700-719, 5 = 680-699. Default 1.'),
    ltv: z.number().int().min(1).max(2).optional().describe('LTV tier: 1 = 75% (20%+ down), 2 = 95% (5% down). Default 1.'),
    product_type: z.enum(keysOf(PRODUCT_TYPES)).optional().describe('conventional, fha, va, jumbo or usda. Default conventional.'),
    occupancy: z.enum(keysOf(OCCUPANCIES)).optional().describe('primary, secondary or investment. Default primary.'),
    property_type: z.enum(keysOf(PROPERTY_TYPES)).optional().describe('Type of property. Default single_family.'),
    loan_term: z.number().int().refine((value) => String(value) in LOAN_TERMS, 'must be 30, 20, 15 or 10').optional().describe('Term in years of `rate`: 30, 20, 15 or 10. Default 30.'),
    loan_purpose: z.enum(keysOf(LOAN_PURPOSES)).optional().describe('purchase, refinance or cash_out_refinance. Default purchase.'),
    date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'use YYYY-MM-DD').optional().describe('YYYY-MM-DD: the record as of that day. Default latest.'),
  },
  output: {
    rate: record.rate,
    loan_term: record.loan_term,
    rate_30yr: record.rate_30yr,
    rate_30yr_last_updated: record.rate_30yr_last_updated,
    last_updated: record.last_updated,
    parameters: z.record(z.string(), z.string()),
    rate_change_weekly: record.rate_change_weekly,
    rate_change_line: record.rate_change_line,
    survey_rate: record.survey_rate,
    survey_last_updated: record.survey_last_updated,
    index_a_rate: record.index_a_rate,
    index_a_last_updated: record.index_a_last_updated,
    stale: record.stale,
    oldest_figure_days_behind: record.oldest_figure_days_behind,
    source: record.source,
    disclaimer: record.disclaimer,
    sources: z.array(sourceSchema),
  },
  async run(args: Record<string, string | number | undefined>, { deps }: ToolContext) {
    const params = Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined).map(([key, value]) => [key, String(value)]));
    const { record, sources } = await deps.services.rates.getRates({ ...params, format: 'detailed' });
    const detailed = record as DetailedRecord;
    const toolSources = sources.map((source) => ({ url: source.url, as_of: source.as_of, name: source.name }));
    const structured = {
      rate: detailed.rate,
      loan_term: detailed.loan_term,
      rate_30yr: detailed.rate_30yr,
      rate_30yr_last_updated: detailed.rate_30yr_last_updated,
      last_updated: detailed.last_updated,
      parameters: detailed.parameters,
      rate_change_weekly: detailed.rate_change_weekly,
      rate_change_line: detailed.rate_change_line,
      survey_rate: detailed.survey_rate,
      survey_last_updated: detailed.survey_last_updated,
      index_a_rate: detailed.index_a_rate,
      index_a_last_updated: detailed.index_a_last_updated,
      stale: detailed.stale,
      oldest_figure_days_behind: detailed.oldest_figure_days_behind,
      source: detailed.source,
      disclaimer: detailed.disclaimer,
      sources: toolSources,
    };
    const labels = detailed.parameters;
    const thirty =
      detailed.loan_term === 30
        ? ''
        : detailed.rate_30yr !== null
          ? `30-year rate of the same cell: ${detailed.rate_30yr}% as of ${detailed.rate_30yr_last_updated}.`
          : 'No source covers the 30-year rate of this cell.';
    const text = [
      `${labels.loan_term ?? ''} ${labels.product_type ?? ''} rate, ${labels.state ?? ''}, FICO ${labels.fico_tier ?? ''}, LTV ${labels.ltv_tier ?? ''}: ${detailed.rate}% as of ${detailed.last_updated} (${detailed.source}).`,
      thirty,
      detailed.rate_change_line ?? '',
      detailed.survey_rate !== null ? `National survey (Freddie Mac PMMS 30-year): ${detailed.survey_rate}% as of ${detailed.survey_last_updated}.` : '',
      detailed.index_a_rate !== null ? `Market benchmark (Optimal Blue 30-year conforming): ${detailed.index_a_rate}% as of ${detailed.index_a_last_updated}.` : '',
      detailed.disclaimer ?? '',
      sourcesText(toolSources),
    ].filter(Boolean).join('\n');
    return { structured, text };
  },
};
