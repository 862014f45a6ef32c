// Writing to the full-text index. Each builder (our content, market updates, tracked bills) owns a
// `source` and replaces its own rows in one statement batch; `indexDocuments` is the hook other
// capabilities call (e.g. the bills sync) inside their own transaction.
import type { Queryable } from '../platform/db/database.ts';
import { SEARCH_TYPES, type SearchType } from './contract.ts';

export { SEARCH_TYPES, type SearchType } from './contract.ts';

export interface SearchDocumentInput {
  /** Stable id, unique across sources, e.g. `glossary:escrow-cushion`, `bill:hr1234-119`. */
  id: string;
  type: SearchType;
  title: string;
  /** Site path of the page, e.g. `/glossary/escrow-cushion` (URLs are built from BASE_URL when read). */
  path: string;
  /** Other names the document answers to (weighted like the title). */
  aliases?: string[];
  /** Description or definition (weighted like headings). */
  summary?: string;
  headings?: string[];
  /** Plain text of the page (Markdown stripped). */
  body: string;
  /** YYYY-MM-DD */
  publishedOn?: string | null;
}

const COLUMNS = ['id', 'type', 'source', 'title', 'path', 'aliases', 'summary', 'headings', 'body', 'published_on'] as const;
const BATCH = 200;

/**
 * Inserts or updates documents of one source (the natural key is `id`). Run it in the caller's
 * transaction so a failed sync leaves the previous index served.
 */
export async function indexDocuments(db: Queryable, source: string, documents: readonly SearchDocumentInput[]): Promise<number> {
  for (let start = 0; start < documents.length; start += BATCH) {
    const batch = documents.slice(start, start + BATCH);
    const params: unknown[] = [];
    const rows = batch.map((document) => {
      validate(document);
      const values = [
        document.id,
        document.type,
        source,
        document.title,
        document.path,
        (document.aliases ?? []).join(' · '),
        document.summary ?? '',
        (document.headings ?? []).join(' · '),
        document.body,
        document.publishedOn ?? null,
      ];
      const placeholders = values.map((value) => {
        params.push(value);
        return `$${params.length}`;
      });
      return `(${placeholders.join(', ')})`;
    });
    const updates = COLUMNS.filter((column) => column !== 'id').map((column) => `${column} = EXCLUDED.${column}`);
    await db.query(
      `INSERT INTO search_documents (${COLUMNS.join(', ')}) VALUES ${rows.join(', ')}
       ON CONFLICT (id) DO UPDATE SET ${updates.join(', ')}, indexed_at = now()`,
      params,
    );
  }
  return documents.length;
}

/** Replaces every document of `source` with `documents` (removes the ones no longer present). */
export async function replaceDocuments(db: Queryable, source: string, documents: readonly SearchDocumentInput[]): Promise<number> {
  await db.query('DELETE FROM search_documents WHERE source = $1', [source]);
  return indexDocuments(db, source, documents);
}

function validate(document: SearchDocumentInput): void {
  if (!(SEARCH_TYPES as readonly string[]).includes(document.type)) {
    throw new Error(`search document ${document.id}: type must be one of ${SEARCH_TYPES.join(', ')}`);
  }
  if (!document.path.startsWith('/')) throw new Error(`search document ${document.id}: path must start with "/"`);
  if (document.title.trim() === '') throw new Error(`search document ${document.id}: title is empty`);
}
