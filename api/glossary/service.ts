// Plain-language definitions from content/glossary, looked up by slug, term, alias, the words of
// any of them, or a close spelling. Loaded once at start-up: the glossary is part of the release,
// not synced data.
import { readGlossary } from '../content/markdown.ts';
import { NotFoundError, BadRequestError } from '../platform/errors.ts';
import { matchByWords, type WordCandidate } from '../platform/contract/words.ts';
import type { GlossaryAnswer, GlossaryEntry, GlossaryMatch } from './contract.ts';
import { isoDay } from '../platform/dates.ts';

export interface GlossaryLookup {
  entry: GlossaryEntry;
  /** How the query matched: exactly (slug/term/alias) or as the closest words or spelling. */
  match: GlossaryMatch;
}

export interface GlossaryService {
  lookup(term: string): GlossaryLookup;
  /** The lookup as every face answers it: the entry, how it matched and its sources. */
  answer(term: string): GlossaryAnswer;
  all(): GlossaryEntry[];
  count(): number;
}

/** Lower-case, no punctuation, single spaces: "Loan-to-Value (LTV)" → "loan to value ltv". */
export function normaliseTerm(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

function levenshtein(a: string, b: string): number {
  const previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    let diagonal = previous[0] ?? 0;
    previous[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const above = previous[j] ?? 0;
      previous[j] = Math.min(above + 1, (previous[j - 1] ?? 0) + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return previous[b.length] ?? 0;
}

export function createGlossaryService({ baseUrl, contentDir }: { baseUrl: string; contentDir?: string }): GlossaryService {
  const parsed = readGlossary(contentDir);
  const termBySlug = new Map(parsed.map((item) => [item.slug, item.data.term]));
  const entries: GlossaryEntry[] = parsed.map(({ slug, data, body }) => ({
    slug,
    term: data.term,
    aliases: data.aliases,
    definition: data.definition,
    explanation: body.trim(),
    category: data.category,
    faqs: data.faqs,
    related: data.related
      .filter((relatedSlug) => termBySlug.has(relatedSlug))
      .map((relatedSlug) => ({
        slug: relatedSlug,
        term: termBySlug.get(relatedSlug) ?? relatedSlug,
        url: `${baseUrl}/glossary/${relatedSlug}`,
      })),
    links: data.links,
    url: `${baseUrl}/glossary/${slug}`,
    updated: isoDay(data.updated),
  }));

  // Every way of naming an entry: slug, term, aliases, and the term without its "(ABBR)" suffix.
  const byName = new Map<string, GlossaryEntry>();
  const byWords: WordCandidate<GlossaryEntry>[] = [];
  for (const entry of entries) {
    const names = [entry.slug, entry.term, entry.term.replace(/\s*\([^)]*\)\s*$/, ''), ...entry.aliases];
    byWords.push({ names, value: entry });
    for (const name of names) {
      const key = normaliseTerm(name);
      if (key && !byName.has(key)) byName.set(key, entry);
    }
  }

  function lookup(term: string): GlossaryLookup {
    const key = normaliseTerm(term);
    if (!key) throw new BadRequestError('Give \'term\' as a word or phrase, e.g. "APR" or "escrow cushion".');
    const exact = byName.get(key) ?? byName.get(key.replace(/s$/, ''));
    if (exact) return { entry: exact, match: 'exact' };
    // "debt to income" → "Debt-to-income ratio (DTI)": every word of the query, fewest others.
    const words = matchByWords(term, byWords);
    if (words.best) return { entry: words.best, match: 'closest' };
    let best: { entry: GlossaryEntry; distance: number } | undefined;
    for (const [name, entry] of byName) {
      const distance = levenshtein(key, name);
      if (!best || distance < best.distance) best = { entry, distance };
    }
    // A close spelling only: more than a third of the letters wrong is a different word.
    if (best && best.distance <= Math.max(1, Math.floor(key.length / 3))) return { entry: best.entry, match: 'closest' };
    const suggestions = [
      ...new Set([
        ...words.matches.map((entry) => entry.term),
        ...[...byName.entries()].filter(([name]) => name.includes(key) || key.includes(name)).map(([, entry]) => entry.term),
      ]),
    ].slice(0, 5);
    throw new NotFoundError(
      `No glossary term matches "${term.slice(0, 100)}".` +
        (suggestions.length > 0
          ? ` Did you mean: ${suggestions.join('; ')}?`
          : ' Try a full-text search (search_content, GET /search) for a broader question.'),
    );
  }

  return {
    lookup,
    answer(term) {
      const { entry, match } = lookup(term);
      return {
        ...entry,
        query: term,
        match,
        sources: [
          { url: entry.url, as_of: entry.updated, name: 'Mortgage Data Service glossary' },
          ...entry.links.map((link) => ({ url: link.url, as_of: null, name: link.title })),
        ],
      };
    },
    all: () => entries,
    count: () => entries.length,
  };
}
