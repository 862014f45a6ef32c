// search_content: full-text search over our articles, learn pages, glossary, research, bills and
// market updates, with highlighted excerpts and URLs. The schemas are the search contract's, shared
// with GET /search. Each result names the MCP resource that reads its page.
import { defineTool } from '../tool-kit.ts';
import { SearchAnswerSchema, SearchQuerySchema, type SearchAnswer } from '../../search/contract.ts';

/** Site sections whose pages are also MCP resources, by the first segment of the page's path. */
const RESOURCE_SECTIONS = new Set(['glossary', 'articles', 'learn', 'bills', 'research']);

/** The MCP resource of a result's page (mds://articles/…, mds://research/nevada/clark-county), when it has one. */
export function resourceOfUrl(url: string): string | undefined {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return undefined;
  }
  const segments = path.split('/').filter(Boolean);
  return segments.length >= 2 && RESOURCE_SECTIONS.has(segments[0]!) ? `mds://${segments.join('/')}` : undefined;
}

/** The results as text: each once (a page matched twice, or the same excerpt, is said once), with its resource and date. */
export function searchAnswerText(answer: SearchAnswer): string {
  if (answer.results.length === 0) return `No documents match "${answer.query}". Try fewer or different words.`;
  const asOf = new Map(answer.sources.map((source) => [source.url, source.as_of]));
  const seen = new Set<string>();
  const results = answer.results.filter((result) => {
    const excerpt = result.excerpt.replace(/<\/?mark>/g, '');
    if (seen.has(result.url) || seen.has(excerpt)) return false;
    seen.add(result.url).add(excerpt);
    return true;
  });
  const summary = `${results.length} result${results.length === 1 ? '' : 's'} for "${answer.query}", best first (pages matching more of the words first):`;
  const lines = results.map((result, index) => {
    const resource = resourceOfUrl(result.url);
    const dated = asOf.get(result.url) ? `, ${asOf.get(result.url)}` : '';
    return (
      `${index + 1}. ${result.title} (${result.type}${dated}) ${resource ? `read: ${resource} · ` : ''}${result.url}\n` +
      `   ${result.excerpt.replace(/<\/?mark>/g, '')}`
    );
  });
  return `${summary}\n${lines.join('\n')}`;
}

export const searchContentTool = defineTool({
  name: 'search_content',
  title: 'Search',
  description: 'Search our articles, guides, glossary, research, place pages, bills and market updates.',
  inputSchema: SearchQuerySchema,
  outputSchema: SearchAnswerSchema,
  uses: ['search'],
  async run(args, { deps }) {
    const answer = await deps.services.search.search(args);
    return { structured: answer, text: searchAnswerText(answer) };
  },
});
