// The view of /search (see site/views/format.ts for why views exist): the query as the form sent it
// and the answer of the same service as GET /api/v1/search and the MCP tool search_content.
import { live } from './live.ts';
import type { PageDeps } from '../../api/publications/render-capture.ts';
import { SearchQuerySchema } from '../../api/search/contract.ts';

/** What each kind of result is called on the page. */
export const KIND_LABELS: Readonly<Record<string, string>> = {
  article: 'Article',
  learn: 'Learn',
  glossary: 'Glossary',
  research: 'Research',
  bill: 'Bill',
  news: 'Market update',
};

export async function searchView(deps: PageDeps | undefined, url: URL) {
  // `q` is the form's parameter; `query` (its earlier name, and the API's) is still read.
  const query = (url.searchParams.get('q') ?? url.searchParams.get('query') ?? '').trim().slice(0, 200);
  // The page reads `type` as the API does (any case); an unknown one searches every kind.
  const parsedType = SearchQuerySchema.shape.type.safeParse(url.searchParams.get('type') || undefined);
  const type = parsedType.success ? parsedType.data : undefined;
  const outcome = query ? await live(deps, (d) => d.services.search.search({ query, type, limit: 20 })) : undefined;
  return {
    query,
    type,
    outcome,
    response: outcome?.ok ? outcome.value : undefined,
    problem: outcome && !outcome.ok ? outcome.message : undefined,
  };
}
