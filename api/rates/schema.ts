// The rate records (spec 2.1 detailed, 2.2 simple) as zod schemas: the one declaration the REST
// route's OpenAPI document, the MCP tool's output schema and the tests all derive from.
import { z } from 'zod';
import { STALE_AFTER_DAYS } from './staleness.ts';

export const SourceRefSchema = z.object({
  name: z.string(),
  url: z.string(),
  as_of: z.string().describe('YYYY-MM-DD'),
});

export const StaleFigureSchema = z.object({
  field: z.string().describe('The record field whose figure lags, e.g. `index_a_rate`.'),
  as_of: z.string().describe('YYYY-MM-DD of that figure.'),
  days_behind: z.int().describe('Days between this figure and the newest figure of the record.'),
});

export const DetailedRateRecordSchema = z.object({
  rate_30yr: z
    .number()
    .nullable()
    .describe(
      'The 30-year rate of the requested state, FICO tier, LTV tier and product, percent (the specification\'s field). It ' +
        'stays the 30-year figure when `loan_term` asks for another term (that figure is `rate`); null only then, when no ' +
        'source covers the 30-year cell.',
    ),
  rate_30yr_last_updated: z.string().nullable().describe('YYYY-MM-DD of the observation behind rate_30yr.'),
  rate: z.number().describe('The rate for the requested `loan_term`, percent (equals rate_30yr for 30-year requests).'),
  loan_term: z.int().describe('Term of `rate`, in years (the request\'s loan_term).'),
  parameters: z
    .object({
      state: z.string(),
      fico_tier: z.string(),
      ltv_tier: z.string(),
      product_type: z.string(),
      occupancy: z.string(),
      property_type: z.string(),
      loan_term: z.string(),
      loan_purpose: z.string(),
    })
    .describe('Echo of the request as labels.'),
  rate_change_weekly: z.number().nullable().describe('Change of `rate` against the same source about a week earlier, percentage points.'),
  rate_change_line: z.string().nullable().describe('e.g. "Down 0.08 points from last week".'),
  last_updated: z.string().describe('YYYY-MM-DD of the observation behind `rate`.'),
  national_average_rate: z.number().nullable().describe('Equals survey_rate.'),
  national_average_last_updated: z.string().nullable(),
  index_a_rate: z.number().nullable().describe('Market benchmark: Optimal Blue 30-year fixed conforming (FICO 740+, LTV ≤ 80).'),
  index_a_last_updated: z.string().nullable(),
  survey_rate: z.number().nullable().describe('National weekly survey: Freddie Mac PMMS 30-year fixed.'),
  survey_last_updated: z.string().nullable(),
  stale: z
    .array(StaleFigureSchema)
    .describe(
      `Figures of this record more than ${STALE_AFTER_DAYS} days older than its newest figure (empty when none is); the ` +
        'disclaimer says the same in a sentence.',
    ),
  oldest_figure_days_behind: z.int().describe('Days between the oldest and the newest figure of this record (0 when all share a date).'),
  disclaimer: z.string().nullable().describe('Where the rate comes from, what it does not vary by, and which figures lag.'),
  metadata: z.object({ api_version: z.string(), documentation: z.string() }),
  source: z.string().describe('Name of the rate provider behind `rate`.'),
  sources: z.array(SourceRefSchema).describe('Every source behind the record with its as-of date.'),
});

export const SimpleRateRecordSchema = z.object({
  rate: z.number().describe('The rate for the requested loan_term, percent.'),
  date: z.string().describe('YYYY-MM-DD'),
  state: z.string(),
  fico_tier: z.string(),
  ltv_tier: z.string(),
  loan_term: z.int().describe('Term of `rate`, in years.'),
  source: z.string().describe('Name of the rate provider.'),
});
