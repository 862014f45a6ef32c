// GET /search: the full-text search behind the MCP tool `search_content`, as a REST resource. The
// schemas are the search contract's.
import type { AppDeps } from '../deps.ts';
import { apiRoutes } from '../platform/http/api-registry.ts';
import { routeContract } from '../platform/http/route-contract.ts';
import { SearchAnswerSchema, SearchQuerySchema } from './contract.ts';

/** Earlier names of the contract's schemas, for code that imported them from here. */
export { SearchQuerySchema, SearchAnswerSchema as SearchResponseSchema } from './contract.ts';

const routes = {
  searchContent: routeContract({
    method: 'get',
    path: '/search',
    operationId: 'searchContent',
    example: { query: { query: 'escrow cushion', limit: '3' } },
    summary: 'Full-text search over articles, learn pages, glossary, state and county research pages, tracked bills and market updates',
    description:
      'Ranked by PostgreSQL full-text relevance (title and aliases weigh most, then headings and summaries, then body text). ' +
      'Each result carries an excerpt with the matched words highlighted and the page URL.',
    tags: ['Content'],
    query: SearchQuerySchema,
    responses: { 200: { description: 'Matching pages, best first', schema: SearchAnswerSchema } },
  }),
};

export const searchRoutes = apiRoutes(routes, (deps: AppDeps) => ({
  searchContent: ({ query }) => deps.services.search.search(query),
}));
