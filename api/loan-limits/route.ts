// GET /loan-limits: conforming, FHA, VA and USDA limits for a state or one county, and
// GET /loan-limits/history: the national figures since 1972. The service spec names the capability
// but no REST path; these routes are additions, documented as such. The schemas are the loan-limits
// contract's.
import type { AppDeps } from '../deps.ts';
import { apiRoutes } from '../platform/http/api-registry.ts';
import { routeContract } from '../platform/http/route-contract.ts';
import { errorResponses } from '../platform/http/error-responses.ts';
import { LoanLimitHistoryQuerySchema, LoanLimitHistoryResponseSchema, LoanLimitsAnswerSchema, LoanLimitsQuerySchema } from './contract.ts';
import { PINNED_VERSION_ERRORS, PINNED_VERSIONS_NOTE } from '../platform/contract/versions.ts';

const routes = {
  getLoanLimits: routeContract({
    method: 'get',
    path: '/loan-limits',
    operationId: 'getLoanLimits',
    example: { query: { state: 'CA', county: 'Los Angeles', loan_type: 'fha' } },
    summary: 'Conforming, FHA, VA and USDA loan limits by county',
    description:
      'An addition to the service specification (which defines loan limits as a capability and an MCP tool, `get_loan_limits`, ' +
      'but no REST path); it takes the same arguments as that tool. Conforming limits come from FHFA and FHA limits from HUD, ' +
      'for every county and every year loaded (2018 on); VA uses the conforming limit (for partial entitlement); USDA guaranteed ' +
      'loans have no loan limit, which the answer states. Without `year`, each program answers with its latest published ' +
      "year up to the current one, labelled in `years`, in each program's `year` and in the notes. Each answer cites its " +
      'sources and as-of dates. The state is a code or a name, the county a name with or without "County" or "Parish", a ' +
      'New York City borough or a FIPS code. 400 for an unknown state (lists valid codes) or county (suggests close names); ' +
      "404 for a year with no county data loaded (with that year's national figures when known); 503 while the first sync runs." +
      PINNED_VERSIONS_NOTE,
    tags: ['Loan limits'],
    query: LoanLimitsQuerySchema,
    responses: {
      200: { description: 'Limits per county, national baseline/floor and ceiling, sources', schema: LoanLimitsAnswerSchema },
      ...errorResponses({
        400: 'A missing or unknown state (the message lists valid codes), an unknown county (it suggests close names), or another parameter outside its set.',
        404: `No county data is loaded for the requested year; the message lists the years loaded. ${PINNED_VERSION_ERRORS[404]}`,
        410: PINNED_VERSION_ERRORS[410],
        503: 'The county list or a loan-limit dataset is not loaded yet; retry after Retry-After seconds.',
      }),
    },
  }),
  getLoanLimitHistory: routeContract({
    method: 'get',
    path: '/loan-limits/history',
    operationId: 'getLoanLimitHistory',
    example: { query: { program: 'conforming', from: '2020' } },
    summary: 'National loan limits by year: conforming baseline and ceiling since 1972, FHA floor and ceiling since 2008',
    description:
      'One-unit national figures from `data/loan-limits/national-history.json`, each with the source that states it: the ' +
      'conforming baseline since 1972 (years the cited sources give no figure for are null, never guessed), the high-cost ' +
      'ceiling since 2008, and the FHA forward-mortgage floor and ceiling since 2008. The same figures back `/ask`; county ' +
      'limits are at /loan-limits. 400 for a malformed year or `from` after `to`; 404 when the range holds no year.',
    tags: ['Loan limits'],
    query: LoanLimitHistoryQuerySchema,
    responses: {
      200: { description: 'National limits per year with sources', schema: LoanLimitHistoryResponseSchema },
      ...errorResponses({
        400: 'A malformed year or `from` after `to`.',
        404: 'No national figure in the requested range; the message says which years are held.',
      }),
    },
  }),
};

export const loanLimitsRoutes = apiRoutes(routes, (deps: AppDeps) => ({
  getLoanLimits: ({ query }) => deps.services.loanLimits.answerJson(query),

  getLoanLimitHistory: ({ query }) => deps.services.loanLimits.history(query),
}));
