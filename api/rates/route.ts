// GET /rates (spec 2.1, 2.2, 4.1; contract "Rates"): a thin face over the rates service. The body
// comes pre-serialised from the service's in-memory cache.
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import type { ApiRegistry } from '../platform/http/api-registry.ts';
import { RatesQuerySchema } from './params.ts';

const SourceRefSchema = z.object({
  name: z.string(),
  url: z.string(),
  as_of: z.string().describe('YYYY-MM-DD'),
});

export const DetailedRateRecordSchema = z.object({
  rate_30yr: z.number().describe('Rate for the requested loan term (30-year unless loan_term says otherwise), percent.'),
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
  rate_change_weekly: z.number().nullable().describe('Change against the same source about a week earlier, percentage points.'),
  rate_change_line: z.string().nullable().describe('e.g. "Down 0.08 points from last week".'),
  last_updated: z.string().describe('YYYY-MM-DD of the observation behind rate_30yr.'),
  national_average_rate: z.number().nullable().describe('Equals survey_rate.'),
  national_average_last_updated: z.string().nullable(),
  index_a_rate: z.number().nullable().describe('Market benchmark: Optimal Blue 30-year fixed conforming (FICO 740+, LTV ≤ 80).'),
  index_a_last_updated: z.string().nullable(),
  survey_rate: z.number().nullable().describe('National weekly survey: Freddie Mac PMMS 30-year fixed.'),
  survey_last_updated: z.string().nullable(),
  disclaimer: z.string().nullable().describe('Where the rate comes from and what it does not vary by.'),
  metadata: z.object({ api_version: z.string(), documentation: z.string() }),
  source: z.string().describe('Name of the rate provider behind rate_30yr.'),
  sources: z.array(SourceRefSchema).describe('Every source behind the record with its as-of date.'),
});

export const SimpleRateRecordSchema = z.object({
  rate: z.number(),
  date: z.string().describe('YYYY-MM-DD'),
  state: z.string(),
  fico_tier: z.string(),
  ltv_tier: z.string(),
  source: z.string().describe('Name of the rate provider.'),
});

export function registerRatesRoutes(registry: ApiRegistry, deps: AppDeps): void {
  registry.add({
    method: 'get',
    path: '/rates',
    operationId: 'getRates',
    summary: 'Mortgage rate by state, FICO tier and LTV tier, beside the national survey and the market benchmark',
    description:
      'The rate comes from a state/lender observation for the exact cell (CFPB Rate Checker mode, or an imported ' +
      'lender rate sheet) no older than 30 days; otherwise from a national benchmark only where it covers the cell: ' +
      'Optimal Blue 30-year conforming or Freddie Mac PMMS 30-year (conventional, FICO 740+, LTV 75%), PMMS 15-year ' +
      '(15-year terms), Optimal Blue FHA, VA and jumbo indices (those products, averaged over every tier). `source` ' +
      'and `disclaimer` say which. No state spread or tier adjustment is ever invented: a cell no source covers ' +
      'answers 404, and so do occupancy or property types outside every source (investment, second home, condo, ' +
      'multi-family, manufactured). `date` gives the record as of that day. 503 with Retry-After until the PMMS ' +
      'and Optimal Blue datasets are first loaded.',
    tags: ['Rates'],
    query: RatesQuerySchema,
    responses: {
      200: { description: 'Record 2.1 (format=detailed, default) or 2.2 (format=simple)', schema: z.union([DetailedRateRecordSchema, SimpleRateRecordSchema]) },
      400: { description: 'A parameter outside its set; the message lists the valid values' },
      404: { description: 'No loaded data covers this query; the message says what is missing' },
      503: { description: 'The rate datasets are not loaded yet; retry after Retry-After seconds' },
    },
    handler: ({ query }) => deps.services.rates.getRatesJson(query),
  });
}
