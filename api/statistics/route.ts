// GET /statistics (spec 2.3/4.2, contract "Statistics"): the featured statistic of the day, one by
// id, or every matching one with all=true. A thin face over the statistics service.
import type { AppDeps } from '../deps.ts';
import type { ApiRegistry } from '../platform/http/api-registry.ts';
import { StatisticsQuerySchema, StatisticsResponseSchema } from './params.ts';
import { CATEGORIES } from './types.ts';

export function registerStatisticsRoutes(registry: ApiRegistry, deps: AppDeps): void {
  registry.add({
    method: 'get',
    path: '/statistics',
    operationId: 'getStatistics',
    summary: 'Precomputed mortgage-market statistics',
    description:
      `A catalogue of statistics computed from the official HMDA aggregates and 2020 filer list, FHFA/HUD loan limits, Freddie Mac PMMS and Optimal Blue rates and HUD median family incomes, in seven categories (${CATEGORIES.join(', ')}). ` +
      'Returns `{stat}`: with `id` that statistic; otherwise the featured statistic of the day (UTC) for `category`, or across all categories. ' +
      '`all=true` returns `{stats: [...]}`, every statistic matching `category` (any case), `id` and `year`. ' +
      'Each record adds `population` (what the figure is computed over, filters included) and `as_of` (the as-of date of its data); ' +
      '`data_year` is null, with `data_year_note` saying why, when the source states no year.',
    tags: ['Statistics'],
    query: StatisticsQuerySchema,
    responses: {
      200: { description: 'A statistic record (spec 2.3), or with all=true a list of them', schema: StatisticsResponseSchema },
      400: { description: 'Invalid category, year or all; the message lists what is valid' },
      404: { description: 'Unknown id, or no statistic for that year; the message says how to list them' },
      503: { description: 'The statistics have not been computed yet; retry after Retry-After seconds' },
    },
    handler: async ({ query }) => deps.services.statistics.get(query),
  });
}
