// search_content: full-text search over our articles, learn pages, glossary, research, bills and
// market updates, with highlighted excerpts and URLs.
import { z } from 'zod';
import { sourceSchema, sourcesText, type ToolContext } from '../tool-kit.ts';
import { SEARCH_TYPES } from '../../search/documents.ts';
import { SEARCH_LIMIT_MAX } from '../../search/service.ts';

export const searchContentTool = {
  name: 'search_content',
  title: 'Search articles, glossary and research',
  description:
    'Full-text search over 250+ documents: articles, learn guides, the glossary, HMDA research write-ups, tracked ' +
    'congressional bills and weekly market updates. Returns titles, URLs and excerpts with the matched words in ' +
    '<mark>. Supports quotes for phrases, OR, and -word. Use lookup_glossary_term for a single definition.',
  input: {
    query: z.string().min(1).max(200).describe('Words to search for, e.g. "escrow cushion" or "FHA mortgage insurance".'),
    type: z.enum(SEARCH_TYPES).optional().describe('Only this kind of document: article, glossary, learn, research, bill or news.'),
    limit: z.number().int().min(1).max(SEARCH_LIMIT_MAX).optional().describe(`How many results (1–${SEARCH_LIMIT_MAX}, default 10).`),
  },
  output: {
    query: z.string(),
    results: z.array(
      z.object({
        title: z.string(),
        url: z.string(),
        type: z.string(),
        excerpt: z.string().describe('Passage with matches in <mark>…</mark>.'),
        score: z.number(),
        date: z.string().nullable(),
      }),
    ),
    sources: z.array(sourceSchema),
  },
  async run(args: { query: string; type?: (typeof SEARCH_TYPES)[number] | undefined; limit?: number | undefined }, { deps }: ToolContext) {
    const response = await deps.services.search.search({ query: args.query, type: args.type, limit: args.limit ?? 10 });
    const results = response.results.map(({ title, url, type, excerpt, score, date }) => ({ title, url, type, excerpt, score, date }));
    const sources = results.map((result) => ({ url: result.url, as_of: result.date, name: result.title }));
    const text =
      results.length === 0
        ? `No documents match "${args.query}". Try fewer or different words.`
        : results.map((result, index) => `${index + 1}. ${result.title} (${result.type}) ${result.url}\n   ${result.excerpt.replace(/<\/?mark>/g, '')}`).join('\n') +
          `\n\n${sourcesText(sources)}`;
    return { structured: { query: response.query, results, sources }, text };
  },
};
