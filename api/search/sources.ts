// Other capabilities' documents in the search index. A capability (e.g. tracked bills) registers a
// source once at import time; every index rebuild then asks it for its current documents. Between
// rebuilds it may also write directly with `indexDocuments`/`replaceDocuments` (./documents.ts).
import type { Queryable } from '../platform/db/database.ts';
import type { SearchDocumentInput } from './documents.ts';

export interface SearchSource {
  /** Owner tag stored with each row, e.g. `bills`; a rebuild replaces only this source's rows. */
  source: string;
  /** The source's current documents, read inside the rebuild's transaction. */
  documents(db: Queryable): Promise<SearchDocumentInput[]>;
}

const registered = new Map<string, SearchSource>();

/** Adds (or replaces, by `source`) a document source for the index rebuild. */
export function registerSearchSource(source: SearchSource): void {
  if (source.source === 'content' || source.source === 'news') throw new Error(`search source "${source.source}" is reserved`);
  registered.set(source.source, source);
}

export function searchSources(): SearchSource[] {
  return [...registered.values()];
}
