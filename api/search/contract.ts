// The full-text search's contract: what a search accepts and answers, declared once. GET /search,
// the MCP tool search_content, /ask and the /search page derive from it.
import { z } from 'zod';
import { choice, integer, text } from '../platform/contract/lenient.ts';
import { SourceSchema } from '../platform/contract/sources.ts';

export const SEARCH_TYPES = ['article', 'glossary', 'learn', 'research', 'bill', 'news'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

export const SEARCH_LIMIT_MAX = 50;
export const SEARCH_LIMIT_DEFAULT = 10;
export const SEARCH_QUERY_MAX = 200;

export const SearchQuerySchema = z.object({
  query: text({ max: SEARCH_QUERY_MAX, example: 'escrow cushion' }).describe('Words; "quoted phrase", OR and -word work.'),
  type: choice(SEARCH_TYPES, { aliases: { articles: 'article', bills: 'bill', market_update: 'news', market_updates: 'news' } })
    .optional()
    .describe('Only this kind.'),
  limit: integer({ min: 1, max: SEARCH_LIMIT_MAX }).default(SEARCH_LIMIT_DEFAULT).describe(`Results (default ${SEARCH_LIMIT_DEFAULT}).`),
});
export type SearchQuery = z.output<typeof SearchQuerySchema>;

export const SearchResultSchema = z.object({
  title: z.string(),
  url: z.string().describe('Absolute URL of the page.'),
  path: z.string().describe('Path of the page on this site.'),
  type: z.enum(SEARCH_TYPES),
  excerpt: z.string().describe('HTML-escaped passage; matched words are wrapped in <mark>…</mark>.'),
  score: z.number().describe('Relevance; higher is better. Comparable only within one response.'),
  date: z.string().nullable().describe('YYYY-MM-DD published or last updated.'),
  matches_every_word: z
    .boolean()
    .describe(
      'true: the page holds every word of the query. false: it holds only some (listed after every page that holds them all, ' +
        'those holding more of the words first); given only for a query of plain words when fewer pages than asked hold them all.',
    ),
  similar_pages: z
    .int()
    .optional()
    .describe(
      'Pages of the same kind whose excerpt is this one with other names and figures (county research pages share their sentences), ' +
        'left out after this one; search with the place name to find one of them.',
    ),
});
export type SearchResult = z.infer<typeof SearchResultSchema>;

export const SearchAnswerSchema = z.object({
  query: z.string().describe('The query as searched (trimmed).'),
  type: z.enum(SEARCH_TYPES).nullable().describe('The kind of page searched, or null for every kind.'),
  results: z
    .array(SearchResultSchema)
    .describe(
      'Matching pages, best first: those with every word, then (a query of plain words) those with some; one page per repeated passage.',
    ),
  sources: z.array(SourceSchema).describe('The pages found, to cite.'),
});
export type SearchAnswer = z.infer<typeof SearchAnswerSchema>;
