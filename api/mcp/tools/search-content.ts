// search_content: full-text search over our articles, learn pages, glossary, research, bills and
// market updates, with highlighted excerpts and URLs. The schemas are the search contract's, shared
// with GET /search.
import { defineTool, sourcesText } from '../tool-kit.ts';
import { SearchAnswerSchema, SearchQuerySchema, type SearchAnswer } from '../../search/contract.ts';

export function searchAnswerText(answer: SearchAnswer): string {
  if (answer.results.length === 0) return `No documents match "${answer.query}". Try fewer or different words.`;
  const summary = `${answer.results.length} result${answer.results.length === 1 ? '' : 's'} for "${answer.query}", best first:`;
  const lines = answer.results.map(
    (result, index) => `${index + 1}. ${result.title} (${result.type}) ${result.url}\n   ${result.excerpt.replace(/<\/?mark>/g, '')}`,
  );
  return `${summary}\n${lines.join('\n')}\n\n${sourcesText(answer.sources)}`;
}

export const searchContentTool = defineTool({
  name: 'search_content',
  title: 'Search articles, glossary and research',
  description:
    'Full-text search over our articles, learn guides, glossary, HMDA research, state and county pages (e.g. "loan limits ' +
    'Maricopa"), tracked bills and market updates: titles, URLs, excerpts. For one definition use lookup_glossary_term.',
  inputSchema: SearchQuerySchema,
  outputSchema: SearchAnswerSchema,
  async run(args, { deps }) {
    const answer = await deps.services.search.search(args);
    return { structured: answer, text: searchAnswerText(answer) };
  },
});
