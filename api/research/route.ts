// GET /research/states/{state} and GET /research/counties/{fips}: the profiles behind the /research
// pages, as JSON. The schemas are the research contract's.
import type { AppDeps } from '../deps.ts';
import { apiRoutes } from '../platform/http/api-registry.ts';
import { routeContract } from '../platform/http/route-contract.ts';
import { errorResponses } from '../platform/http/error-responses.ts';
import { CountyProfileSchema, ResearchCountyPathSchema, ResearchStatePathSchema, StateProfileSchema } from './contract.ts';
import { z } from 'zod';

const NO_QUERY = z.object({});
const NOT_LOADED =
  'A dataset the profile is drawn from (counties, loan limits, HMDA aggregates, NMDB, PMMS) is not loaded yet; see Retry-After.';

const routes = {
  getStateResearch: routeContract({
    method: 'get',
    path: '/research/states/:state',
    operationId: 'getStateResearch',
    example: { params: { state: 'co' } },
    summary:
      "A state's mortgage profile: county loan limits and their history, HMDA lending against the nation, NMDB rates beside the survey, escrow, bills",
    description:
      'Every part carries its publisher and as-of date; `analysis` holds sentences written from the figures (comparisons, ranks, changes). ' +
      'The same profile is the page /research/{state name}.',
    tags: ['Research'],
    params: ResearchStatePathSchema,
    query: NO_QUERY,
    responses: {
      200: { description: "The state's profile", schema: StateProfileSchema },
      ...errorResponses({ 400: 'The state is not one of the 50 states or DC; the message lists the codes.', 503: NOT_LOADED }),
    },
  }),
  getCountyResearch: routeContract({
    method: 'get',
    path: '/research/counties/:fips',
    operationId: 'getCountyResearch',
    example: { params: { fips: '08031' } },
    summary:
      "A county's mortgage profile: conforming, FHA and VA limits this year and since 2018, high-cost or baseline, HMDA volume and denial rate",
    description:
      'Counties of the 50 states and DC in the latest FHFA conforming file. Every part carries its publisher and as-of date; `analysis` holds ' +
      'sentences written from the figures. The same profile is the page /research/{state}/{county}.',
    tags: ['Research'],
    params: ResearchCountyPathSchema,
    query: NO_QUERY,
    responses: {
      200: { description: "The county's profile", schema: CountyProfileSchema },
      ...errorResponses({
        400: 'fips is not a 5-digit code.',
        404: 'No county of the 50 states or DC has this FIPS code in the latest conforming file; the message gives an example.',
        503: NOT_LOADED,
      }),
    },
  }),
};

export const researchRoutes = apiRoutes(routes, (deps: AppDeps) => ({
  getStateResearch: ({ params }) => deps.services.research.state(params.state),

  getCountyResearch: ({ params }) => deps.services.research.county(params.fips),
}));
