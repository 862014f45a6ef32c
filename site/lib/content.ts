// Queries over the content collections that several pages share: sorted lists, glossary letters,
// date formatting, and the check that every related glossary term exists (fails the build if not).
import { getCollection, type CollectionEntry } from 'astro:content';
import { formatDate as formatDay, isoDay } from '../views/format.ts';
import type { ArticleFrontMatter, GlossaryFrontMatter } from '../views/articles.ts';

// Entries are Astro's CollectionEntry (id, collection, body, rendered). Their `data` is pinned to the
// shared schemas' types: Astro infers it from site/content.config.ts, and that inference comes out
// as `any` here because the collections use the schemas shared with the server (api/content/schemas.ts).
export type ArticleEntry<C extends 'articles' | 'learn' = 'articles' | 'learn'> = Omit<CollectionEntry<C>, 'data'> & {
  data: ArticleFrontMatter;
};
export type GlossaryEntry = Omit<CollectionEntry<'glossary'>, 'data'> & {
  data: Omit<GlossaryFrontMatter, 'related'> & { related: { id: string; collection: 'glossary' }[] };
};

export const CATEGORY_LABELS: Record<string, string> = {
  buying: 'Buying',
  refinancing: 'Refinancing',
  'loan-types': 'Loan types',
  costs: 'Costs',
  credit: 'Credit',
  escrow: 'Escrow',
  rates: 'Rates',
  research: 'Research',
  data: 'Data',
  'escrow-insurance': 'Escrow and insurance',
  process: 'Process',
  regulation: 'Regulation',
  property: 'Property',
};

export const formatDate = (date: Date): string => formatDay(isoDay(date));

/** Articles or learn pages, newest first (by date, then title). */
export async function sortedEntries<C extends 'articles' | 'learn'>(collection: C): Promise<ArticleEntry<C>[]> {
  const entries: ArticleEntry<C>[] = await getCollection(collection);
  return entries.sort(
    (a, b) => b.data.date.getTime() - a.data.date.getTime() || a.data.title.localeCompare(b.data.title),
  );
}

export async function allGlossary(): Promise<GlossaryEntry[]> {
  return getCollection('glossary');
}

export async function allArticles(): Promise<{ articles: ArticleEntry<'articles'>[]; learn: ArticleEntry<'learn'>[] }> {
  const [articles, learn] = await Promise.all([getCollection('articles'), getCollection('learn')]);
  return { articles, learn };
}

export async function sortedGlossary(): Promise<GlossaryEntry[]> {
  const entries = await allGlossary();
  return entries.sort((a, b) => a.data.term.localeCompare(b.data.term, 'en', { sensitivity: 'base' }));
}

/** The index letter of a term: A–Z, or "#" for terms starting with a digit. */
export function indexLetter(term: string): string {
  const first = term.trim().charAt(0).toUpperCase();
  return /[A-Z]/.test(first) ? first : '#';
}

/**
 * Resolves a term's related slugs to entries. `reference()` in the schema only shapes the value,
 * so a slug without a file is caught here and stops the build with the file to fix.
 */
export function resolveRelated(entry: GlossaryEntry, all: readonly GlossaryEntry[]): GlossaryEntry[] {
  const byId = new Map(all.map((candidate) => [candidate.id, candidate]));
  return entry.data.related.map(({ id }) => {
    const related = byId.get(id);
    if (!related)
      throw new Error(
        `content/glossary/${entry.id}.md: related term "${id}" does not exist (no content/glossary/${id}.md).`,
      );
    if (related.id === entry.id)
      throw new Error(`content/glossary/${entry.id}.md: a term cannot list itself as related.`);
    return related;
  });
}

/** Up to `count` other entries sharing the category or tags, most shared tags first. */
export function relatedArticles(entry: ArticleEntry, pool: readonly ArticleEntry[], count = 3): ArticleEntry[] {
  const tags = new Set(entry.data.tags);
  return pool
    .filter((candidate) => !(candidate.collection === entry.collection && candidate.id === entry.id))
    .map((candidate) => ({
      candidate,
      score:
        candidate.data.tags.filter((tag) => tags.has(tag)).length * 2 +
        (candidate.data.category === entry.data.category ? 1 : 0),
    }))
    .filter(({ score }) => score > 0)
    .sort((a, b) => b.score - a.score || b.candidate.data.date.getTime() - a.candidate.data.date.getTime())
    .slice(0, count)
    .map(({ candidate }) => candidate);
}

/** JSON for a <script type="application/ld+json">: `<` escaped so text can never close the tag. */
export const jsonLd = (data: unknown): string => JSON.stringify(data).replace(/</g, '\\u003c');
