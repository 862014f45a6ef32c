// GET /search: the full-text search behind the MCP tool `search_content`, as a REST resource.
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import type { ApiRegistry } from '../platform/http/api-registry.ts';
import { SEARCH_TYPES } from './documents.ts';
import { SEARCH_LIMIT_MAX, SEARCH_QUERY_MAX } from './service.ts';

export const SearchQuerySchema = z.object({
  query: z
    .string()
    .trim()
    .min(1)
    .max(SEARCH_QUERY_MAX)
    .describe('Words to find. Web-search syntax: "quoted phrase", OR, -excluded. Example: escrow cushion.'),
  type: z.enum(SEARCH_TYPES).optional().describe('Only this kind of page.'),
  limit: z.coerce.number().int().min(1).max(SEARCH_LIMIT_MAX).default(10).describe(`Results to return, 1 to ${SEARCH_LIMIT_MAX}.`),
});

export const SearchResponseSchema = z.object({
  query: z.string(),
  type: z.enum(SEARCH_TYPES).nullable(),
  results: z.array(
    z.object({
      title: z.string(),
      url: z.string().describe('Absolute URL of the page.'),
      path: z.string(),
      type: z.enum(SEARCH_TYPES),
      excerpt: z.string().describe('HTML-escaped passage; matched words are wrapped in <mark>…</mark>.'),
      score: z.number().describe('Relevance; higher is better. Comparable only within one response.'),
      date: z.string().nullable().describe('YYYY-MM-DD published or last updated.'),
    }),
  ),
});

export function registerSearchRoutes(registry: ApiRegistry, deps: AppDeps): void {
  registry.add({
    method: 'get',
    path: '/search',
    operationId: 'searchContent',
    summary: 'Full-text search over articles, learn pages, glossary, tracked bills and market updates',
    description:
      'Ranked by PostgreSQL full-text relevance (title and aliases weigh most, then headings and summaries, then body text). ' +
      'Each result carries an excerpt with the matched words highlighted and the page URL.',
    tags: ['Content'],
    query: SearchQuerySchema,
    responses: { 200: { description: 'Matching pages, best first', schema: SearchResponseSchema } },
    handler: ({ query }) => deps.services.search.search(query),
  });
}
