// Rebuilds the full-text index: our content (glossary, articles, learn), the generated market
// updates, and every registered source (tracked bills, research pages). Run by sync as the
// `search_index` dataset and at start-up; each source replaces only its own rows. Each build records
// a fingerprint of its documents, so a start-up refresh with nothing new writes nothing.
import { createHash } from 'node:crypto';
import type { Queryable } from '../platform/db/database.ts';
import { contentDocuments, marketUpdateDocuments } from './content-documents.ts';
import { replaceDocuments, type SearchDocumentInput } from './documents.ts';
import { searchSources } from './sources.ts';
import { giveWay } from '../platform/give-way.ts';

export interface IndexBuildResult {
  /** Documents written per source. */
  sources: Record<string, number>;
  total: number;
}

type Collected = Array<[source: string, documents: readonly SearchDocumentInput[]]>;

/** The documents of every source, read but not written. */
async function collectDocuments(db: Queryable, contentDir: string | undefined): Promise<Collected> {
  const collected: Collected = [
    ['content', await contentDocuments(contentDir)],
    ['news', await marketUpdateDocuments(db)],
  ];
  for (const source of searchSources()) collected.push([source.source, await source.documents(db)]);
  return collected;
}

/**
 * The hash of each source's `JSON.stringify([source, documents])`, fed a document at a time (the
 * same bytes, so the same fingerprint) and giving way between them: thousands of research pages.
 */
async function fingerprintOf(collected: Collected): Promise<string> {
  const hash = createHash('sha256');
  for (const [source, documents] of collected) {
    hash.update(`[${JSON.stringify(source)},[`);
    for (const [index, document] of documents.entries()) {
      await giveWay();
      hash.update(`${index === 0 ? '' : ','}${JSON.stringify(document)}`);
    }
    hash.update(']]');
  }
  return hash.digest('hex');
}

async function storedFingerprint(db: Queryable): Promise<string | undefined> {
  const { rows } = await db.query<{ fingerprint: string }>('SELECT fingerprint FROM search_index_state');
  return rows[0]?.fingerprint;
}

/** True when the last build wrote exactly the documents the sources give now (read outside any transaction). */
export async function searchIndexIsCurrent(db: Queryable, { contentDir }: { contentDir?: string } = {}): Promise<boolean> {
  return (await storedFingerprint(db)) === (await fingerprintOf(await collectDocuments(db, contentDir)));
}

/** Writes every source's documents (run it in a transaction) and records their fingerprint. */
export async function rebuildSearchIndex(db: Queryable, { contentDir }: { contentDir?: string } = {}): Promise<IndexBuildResult> {
  const collected = await collectDocuments(db, contentDir);
  const fingerprint = await fingerprintOf(collected);
  const sources = Object.fromEntries(collected.map(([source, documents]) => [source, documents.length]));
  for (const [source, documents] of collected) await replaceDocuments(db, source, documents);
  await db.query(
    `INSERT INTO search_index_state (id, fingerprint, built_at) VALUES (true, $1, now())
     ON CONFLICT (id) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, built_at = EXCLUDED.built_at`,
    [fingerprint],
  );
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM search_documents');
  return { sources, total: rows[0]?.n ?? 0 };
}
