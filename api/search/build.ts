// Rebuilds the full-text index: our content (glossary, articles, learn), the generated market
// updates, and every registered source (tracked bills). Run by sync as the `search_index` dataset
// and at start-up; each source replaces only its own rows.
import type { Queryable } from '../platform/db/database.ts';
import { contentDocuments, marketUpdateDocuments } from './content-documents.ts';
import { replaceDocuments } from './documents.ts';
import { searchSources } from './sources.ts';

export interface IndexBuildResult {
  /** Documents written per source. */
  sources: Record<string, number>;
  total: number;
}

export async function rebuildSearchIndex(db: Queryable, { contentDir }: { contentDir?: string } = {}): Promise<IndexBuildResult> {
  const sources: Record<string, number> = {};
  sources.content = await replaceDocuments(db, 'content', contentDocuments(contentDir));
  sources.news = await replaceDocuments(db, 'news', await marketUpdateDocuments(db));
  for (const source of searchSources()) {
    sources[source.source] = await replaceDocuments(db, source.source, await source.documents(db));
  }
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM search_documents');
  return { sources, total: rows[0]?.n ?? 0 };
}
