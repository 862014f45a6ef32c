// GET /rates (spec 2.1, 2.2, 4.1; contract "Rates"): a thin face over the rates service. The body
// comes pre-serialised from the service's in-memory cache.
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import type { ApiRegistry } from '../platform/http/api-registry.ts';
import { ErrorBodySchema } from '../platform/http/openapi.ts';
import { RatesQuerySchema } from './params.ts';
import { DetailedRateRecordSchema, SimpleRateRecordSchema } from './schema.ts';

export { DetailedRateRecordSchema, SimpleRateRecordSchema } from './schema.ts';

export function registerRatesRoutes(registry: ApiRegistry, deps: AppDeps): void {
  registry.add({
    method: 'get',
    path: '/rates',
    operationId: 'getRates',
    summary: 'Mortgage rate by state, FICO tier and LTV tier, beside the national survey and the market benchmark',
    description:
      'The rate comes from a state/lender observation for the exact cell (CFPB Rate Checker mode, or an imported ' +
      'lender rate sheet) no older than 30 days; otherwise from the national benchmark closest to the cell: for ' +
      'conventional 30-year loans the Optimal Blue index of that FICO band and LTV side (its FICO × LTV grid: 780+ and ' +
      '740-779 share the "740 or higher" band; LTV 75% is the ≤ 80 side, 95% the > 80 side), else Optimal Blue 30-year ' +
      'conforming or Freddie Mac PMMS 30-year (FICO 740+, LTV 75%, the newer of the two); PMMS 15-year (FICO 740+, LTV ' +
      '75%) or Optimal Blue 15-year conforming for 15-year terms; Optimal Blue FHA, VA, jumbo and USDA indices for those ' +
      'products (averaged over every tier). `source` and `disclaimer` say which, and that a national figure does not ' +
      'vary by state. No state spread or tier adjustment is ever invented: a cell no source covers answers 404 saying ' +
      'what is missing, and so do occupancy or property types outside every source (investment, second home, condo, ' +
      'multi-family, manufactured). `rate` is the requested `loan_term`\'s figure; `rate_30yr` stays the 30-year ' +
      'figure of the same cell. `stale` lists figures more than 14 days older than the newest figure of the record. ' +
      '`date` gives the record as of that day. 503 with Retry-After until the PMMS and Optimal Blue datasets are ' +
      'first loaded.',
    tags: ['Rates'],
    query: RatesQuerySchema,
    responses: {
      200: { description: 'Record 2.1 (format=detailed, default) or 2.2 (format=simple)', schema: z.union([DetailedRateRecordSchema, SimpleRateRecordSchema]) },
      400: { description: 'A parameter outside its set; the message lists the valid values', schema: ErrorBodySchema },
      404: { description: 'No loaded data covers this query; the message says what is missing and since when', schema: ErrorBodySchema },
      503: { description: 'The rate datasets are not loaded yet; retry after Retry-After seconds', schema: ErrorBodySchema },
    },
    handler: ({ query }) => deps.services.rates.getRatesJson(query),
  });
}
