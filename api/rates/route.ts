// GET /rates (spec 2.1, 2.2, 4.1; contract "Rates"): a thin face over the rates service. The schemas
// are the rates contract's; the body comes pre-serialised from the service's in-memory cache.
import type { AppDeps } from '../deps.ts';
import type { ApiRegistry } from '../platform/http/api-registry.ts';
import { errorResponses } from '../platform/http/error-responses.ts';
import { PINNED_VERSION_ERRORS, PINNED_VERSIONS_NOTE } from '../platform/contract/versions.ts';
import { RateRecordSchema, RatesQuerySchema } from './contract.ts';

export function registerRatesRoutes(registry: ApiRegistry, deps: AppDeps): void {
  registry.route({
    method: 'get',
    path: '/rates',
    operationId: 'getRates',
    example: { query: { state: 'TX', fico: '740', ltv: '80' } },
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
      '`date` gives the record as of that day. A FICO score, an LTV percent or a down payment is read as the tier that ' +
      'holds it and `parameter_notes` says so. 503 with Retry-After until the PMMS and Optimal Blue datasets are first loaded.' +
      PINNED_VERSIONS_NOTE,
    tags: ['Rates'],
    query: RatesQuerySchema,
    responses: {
      200: { description: 'Record 2.1 (format=detailed, default) or 2.2 (format=simple)', schema: RateRecordSchema },
      ...errorResponses({
        400: 'A parameter outside its set, an unknown or repeated parameter, or `ltv` and `down_payment` naming different tiers; the message says which and what is valid.',
        404: `No loaded data covers this query; the message says what is missing and since when. ${PINNED_VERSION_ERRORS[404]}`,
        410: PINNED_VERSION_ERRORS[410],
        503: 'The rate datasets are not loaded yet; retry after Retry-After seconds.',
      }),
    },
    handler: ({ query }) => deps.services.rates.getRatesJson(query),
  });
}
