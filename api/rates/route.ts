// GET /rates (the detailed and simple rate records; docs/rates.md): a thin face over the rates service. The schemas
// are the rates contract's; the body comes pre-serialised from the service's in-memory cache.
import type { AppDeps } from '../deps.ts';
import { apiRoutes } from '../platform/http/api-registry.ts';
import { routeContract } from '../platform/http/route-contract.ts';
import { errorResponses } from '../platform/http/error-responses.ts';
import { PINNED_VERSION_ERRORS, PINNED_VERSIONS_NOTE } from '../platform/contract/versions.ts';
import { RateRecordSchema, RatesQuerySchema } from './contract.ts';

const routes = {
  getRates: routeContract({
    method: 'get',
    path: '/rates',
    operationId: 'getRates',
    example: { query: { state: 'TX', fico: '740', ltv: '80' } },
    summary: 'Mortgage rate by state, FICO tier and LTV tier, beside the national survey and the market benchmark',
    description:
      "Where this service's operator imported a lender rate sheet for the exact cell (no older than 30 days), `rate` is that " +
      '(`rate_kind: lender_sheet`). Otherwise it starts from the national benchmark closest to the cell: the Optimal Blue index of ' +
      'that FICO band and LTV side (780+ and 740-779 share the "740 or higher" band; LTV 75% is the ≤ 80 side, 95% the > 80 side); ' +
      'else Optimal Blue 30-year conforming or Freddie Mac PMMS 30-year for FICO 740+ and LTV 75%; else, for every other tier, the ' +
      'broadest benchmark of the product and term, labelled `tier_specific: false`; PMMS 15-year or Optimal Blue 15-year conforming ' +
      'for 15-year terms; the FFIEC Average Prime Offer Rate for 10- and 20-year terms; Optimal Blue FHA, VA (every score, also below ' +
      "680), jumbo and USDA indices for those products. **State estimate**: for 30-year terms the national figure plus the state's " +
      'adjustment, its median HMDA rate spread minus the national median for loans of the same product, purpose and LTV band ' +
      '(originated first-lien, owner-occupied, site-built 1-4 unit, fixed 30-year) in the latest HMDA year loaded, from at least 300 ' +
      "of the state's loans (`rate_kind: state_estimate`, `estimate` with method, HMDA year, sample size, adjustment and the method " +
      'page `/methods/state-rate-estimate`). Limits: HMDA has no credit score (one adjustment for every FICO tier) and is a year or ' +
      'more old; without HMDA loan records loaded the answer is national (`rate_kind: national`) and `missing` says so. `freshness` ' +
      "gives each figure's age against today (or `date`) and whether a scheduled release of its series since then is not loaded " +
      '(PMMS weekly on Thursdays, Optimal Blue each business day, APOR weekly); `stale` lists those. A cell no source covers answers ' +
      '404 saying what is missing, and so do occupancy or property types outside every source. `rate` is the requested ' +
      "`loan_term`'s figure; `rate_30yr` the 30-year figure of the same cell. `date` (not after today) gives the record as of that " +
      'day. A FICO score, an LTV percent (50-100; 3-49 is refused as ambiguous) or a down payment is read as its tier and ' +
      '`parameter_notes` says so. 503 with Retry-After until the PMMS and Optimal Blue datasets are first loaded.' +
      PINNED_VERSIONS_NOTE,
    tags: ['Rates'],
    query: RatesQuerySchema,
    responses: {
      200: { description: 'Record 2.1 (format=detailed, default) or 2.2 (format=simple)', schema: RateRecordSchema },
      ...errorResponses({
        400: 'A parameter outside its set, an unknown or repeated parameter, `ltv` and `down_payment` naming different tiers, an ambiguous LTV percent, a future `date`, or a score below 680 for a product no index covers at it; the message says which and what is valid.',
        404: `No loaded data covers this query; the message says what is missing and since when. ${PINNED_VERSION_ERRORS[404]}`,
        410: PINNED_VERSION_ERRORS[410],
        503: 'The rate datasets are not loaded yet; retry after Retry-After seconds.',
      }),
    },
  }),
};

export const ratesRoutes = apiRoutes(routes, (deps: AppDeps) => ({
  getRates: ({ query }) => deps.services.rates.getRatesJson(query),
}));
