// GET /analysis/<operation>: the analysis layer on REST, one route per operation, each declared
// from the contract (query, answer and documented errors), answering the remembered serialised body.
import type { AppDeps } from '../deps.ts';
import { apiRoutes, type RouteHandler } from '../platform/http/api-registry.ts';
import { routeContract } from '../platform/http/route-contract.ts';
import { errorResponses } from '../platform/http/error-responses.ts';
import { ANSWER_SCHEMAS, OPERATIONS, QUERY_SCHEMAS, type Operation, type QueryOf } from './contract.ts';

const SUMMARIES: Record<Operation, { summary: string; description: string }> = {
  value: {
    summary: 'A series at a moment: an observation, or the mean of a period',
    description:
      "The figure of `series` at `at` (or the mean over `from`–`to`, e.g. one week): an observation as published, the latest one before a day, or the mean of a period's observations, which the answer says.",
  },
  change: {
    summary: 'Change of a series between two moments, in its units and in percent',
    description: 'Start (`from`) and end (`to`, default latest) figures, end − start (percentage points for rates) and the percent change.',
  },
  compare: {
    summary: 'Difference and ratio of two series or places',
    description:
      '`series` − `other` and `series` ÷ `other`, each at `at` (or `other_at`): 30-year vs 15-year, jumbo vs conforming, one county vs another.',
  },
  share: {
    summary: 'A part as a share of a whole',
    description:
      "`part` ÷ `whole` × 100 at `at`: FHA records of all records in a county, a state's share of the nation's originations, an FHA limit as a share of the conforming limit.",
  },
  rank: {
    summary: 'Rank states or counties by a measure, ties kept',
    description:
      "Every state's (or county's) figure of a series template (`hmda/*/originations`, `loan-limits/conforming/*` with `state`), sorted; tied places share a rank and ties at the last place shown are kept.",
  },
  count: {
    summary: 'Count observations or places where a condition holds',
    description:
      'Over time: observations of `series` from `from` to `to` strictly `above` or `below` a number (weeks above 7%). Across places (a template with `*`): places whose figure at `at` is above or below a number or another series (counties above the baseline).',
  },
  crossing: {
    summary: 'The last or first time a series was above or below a threshold',
    description:
      'The last (or first) observation strictly `above` or `below` the threshold, the start of that run, and whether the latest observation meets it.',
  },
  extremes: {
    summary: 'Lowest and highest values of a series in a range, with their dates',
    description: 'The low and the high of the observations from `from` to `to`, each with every date it was reached.',
  },
  'per-resident': {
    summary: "A state's or county's figure per resident",
    description:
      'The figure ÷ residents × `per` (default 1,000), residents as the HMDA Data Browser counts them; a vintage of another year is said in `notes`.',
  },
  moves: {
    summary: 'The largest step up or down between consecutive observations',
    description:
      'The largest increase (`direction=up`) or decrease (`down`) from one observation to the next in `from`–`to`, with both dates; a step into the first observation of the range counts from the one before it.',
  },
  streak: {
    summary: 'The longest run of consecutive steps up or down',
    description:
      'The longest run of consecutive increases (`direction=up`) or decreases (`down`) in `from`–`to`: how many steps, where it started and ended.',
  },
  payment: {
    summary: 'Monthly principal and interest for an amount, rate and term',
    description:
      'P·r ÷ (1 − (1 + r)^−n) for `amount` at `rate` (or the rate of `series` at `at`) over `term_years`; taxes and insurance not included.',
  },
};

/** One request per operation that the synced official files answer, shown and run on /docs/api. */
const EXAMPLES: Record<Operation, Record<string, string>> = {
  value: { series: 'pmms/30-year', at: '2023' },
  change: { series: 'pmms/30-year', from: '2021', to: '2023' },
  compare: { series: 'pmms/30-year', other: 'pmms/15-year', at: '2025-09-25' },
  share: { part: 'hmda/17031/fha_records', whole: 'hmda/17031/records', at: '2023' },
  rank: { series: 'hmda/*/originations', at: '2022', limit: '3' },
  count: { series: 'pmms/30-year', from: '2023', to: '2023', above: '7' },
  crossing: { series: 'pmms/30-year', below: '6' },
  extremes: { series: 'pmms/30-year', from: '2022', to: '2022' },
  'per-resident': { series: 'hmda/FL/originations', at: '2024' },
  payment: { amount: '400000', rate: '6.5', term_years: '30' },
  moves: { series: 'pmms/15-year', from: '2023', to: '2023', direction: 'up' },
  streak: { series: 'pmms/30-year', from: '2025', to: '2025', direction: 'down' },
};

/** The route of one operation, as data. */
export function analysisRoute(operation: Operation) {
  const { summary, description } = SUMMARIES[operation];
  return routeContract({
    method: 'get',
    path: `/analysis/${operation}`,
    operationId: `analysis${operation.replace(/(^|-)(\w)/g, (_match, _dash, letter: string) => letter.toUpperCase())}`,
    summary,
    description: `${description} Every answer carries its inputs (the figures used, each with its source and as-of date) and the method in one sentence.`,
    tags: ['Analysis'],
    query: QUERY_SCHEMAS[operation],
    example: { query: EXAMPLES[operation] },
    responses: {
      200: { description: 'The result with its inputs, sources and method', schema: ANSWER_SCHEMAS[operation] },
      ...errorResponses({
        400: 'Invalid parameters (a malformed moment, a missing threshold, a template without one `*`); the message says which and how to fix it.',
        404: 'No series has this id, or it has no figure for the moment or range asked (the message gives its span).',
        503: 'The datasets the series are read from are not loaded yet; see Retry-After.',
      }),
    },
  });
}

type AnalysisRoute = ReturnType<typeof analysisRoute>;

/** Every operation's route, as data, by operation, and the service call that answers each. */
export const analysisRoutes = apiRoutes(
  Object.fromEntries(OPERATIONS.map((operation) => [operation, analysisRoute(operation)])) as Record<Operation, AnalysisRoute>,
  (deps: AppDeps) =>
    Object.fromEntries(
      OPERATIONS.map((operation): [Operation, RouteHandler<AnalysisRoute>] => [
        operation,
        ({ query }) => deps.services.analysis.runJson(operation, query as QueryOf<typeof operation>),
      ]),
    ) as Record<Operation, RouteHandler<AnalysisRoute>>,
);
