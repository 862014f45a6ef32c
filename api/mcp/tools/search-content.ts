// search_content: full-text search over our articles, learn pages, glossary, research, bills and
// market updates, with highlighted excerpts and URLs. The schemas are the search contract's, shared
// with GET /search.
import { defineTool, sourcesText } from '../tool-kit.ts';
import { SEARCH_LIMIT_MAX, SearchAnswerSchema, SearchQuerySchema, type SearchAnswer } from '../../search/contract.ts';

export function searchAnswerText(answer: SearchAnswer): string {
  if (answer.results.length === 0) return `No documents match "${answer.query}". Try fewer or different words.`;
  const lines = answer.results.map(
    (result, index) => `${index + 1}. ${result.title} (${result.type}) ${result.url}\n   ${result.excerpt.replace(/<\/?mark>/g, '')}`,
  );
  return `${lines.join('\n')}\n\n${sourcesText(answer.sources)}`;
}

export const searchContentTool = defineTool({
  name: 'search_content',
  title: 'Search articles, glossary and research',
  description:
    'Full-text search over our articles, learn guides, the glossary, HMDA research write-ups, the research page of every state and ' +
    'county (type research: loan limits, HMDA lending, rates; e.g. "loan limits Maricopa"), tracked ' +
    'congressional bills and weekly market updates. Returns titles, URLs and excerpts with the matched words in ' +
    `<mark>. \`query\` supports quotes for phrases, OR, and -word (e.g. "escrow cushion", FHA -VA); \`type\` narrows to one ` +
    `kind of page (article, glossary, learn, research, bill, news) in any case; \`limit\` is 1–${SEARCH_LIMIT_MAX} (default 10). ` +
    'Use lookup_glossary_term for a single definition.',
  inputSchema: SearchQuerySchema,
  outputSchema: SearchAnswerSchema,
  async run(args, { deps }) {
    const answer = await deps.services.search.search(args);
    return { structured: answer, text: searchAnswerText(answer) };
  },
});
