// GET /statistics (docs/statistics.md): the featured statistic of the day, one by id, or every matching
// one with all=true. A thin face over the statistics service; the schemas are the contract's.
import type { AppDeps } from '../deps.ts';
import { apiRoutes } from '../platform/http/api-registry.ts';
import { routeContract } from '../platform/http/route-contract.ts';
import { errorResponses } from '../platform/http/error-responses.ts';
import { CATEGORIES, StatisticsAnswerSchema, StatisticsQuerySchema } from './contract.ts';
import { PINNED_VERSION_ERRORS, PINNED_VERSIONS_NOTE } from '../platform/contract/versions.ts';

const routes = {
  getStatistics: routeContract({
    method: 'get',
    path: '/statistics',
    operationId: 'getStatistics',
    example: { query: { category: 'rates' } },
    summary: 'Precomputed mortgage-market statistics',
    description:
      `A catalogue of statistics computed from the official HMDA aggregates and 2020 filer list, FHFA/HUD loan limits, Freddie Mac PMMS and Optimal Blue rates and HUD median family incomes, in seven categories (${CATEGORIES.join(', ')}). ` +
      'Returns `{stat, sources}`: with `id` that statistic; otherwise the featured statistic of the day (UTC) for `category`, or across all categories. ' +
      '`all=true` returns `{stats: [...], sources}`, every statistic matching `category`, `id` and `year`. ' +
      'Each record adds `population` (what the figure is computed over, filters included) and `as_of` (the as-of date of its data); ' +
      '`data_year` is always the year the data describes, as its source states it (a figure whose source states no year is not in the catalogue). Unknown parameters are refused (400). ' +
      'With `as_of`, the featured statistic is the one of that day.' +
      PINNED_VERSIONS_NOTE,
    tags: ['Statistics'],
    query: StatisticsQuerySchema,
    responses: {
      200: {
        description: 'One statistic record as `stat`, or with all=true every match as `stats`, with their sources',
        schema: StatisticsAnswerSchema,
      },
      ...errorResponses({
        400: 'Invalid or unknown parameter: the message names it and lists the valid values (the categories, a year from 1971 to 2100, true or false).',
        404: `Unknown id, an id outside the category or year asked, or no statistic for that year; the message says how to list them. ${PINNED_VERSION_ERRORS[404]}`,
        410: PINNED_VERSION_ERRORS[410],
        503: 'The statistics have not been computed yet (never loaded, loading since a time, or the last load failed); retry after Retry-After seconds.',
      }),
    },
  }),
};

export const statisticsRoutes = apiRoutes(routes, (deps: AppDeps) => ({
  getStatistics: ({ query }) => deps.services.statistics.answerJson(query),
}));
