// The `search` service: validated full-text queries over the index, with absolute URLs, for the
// REST route, the MCP tool `search_content` and /ask. Pages with every word come first, then pages
// with some of them; a passage that many pages share (county research pages) is shown once.
import type { Database } from '../platform/db/database.ts';
import type { Clock } from '../platform/clock.ts';
import { BadRequestError } from '../platform/errors.ts';
import { rebuildSearchIndex, type IndexBuildResult } from './build.ts';
import { searchDocuments } from './query.ts';
import { foldRepeatedPassages } from './fold.ts';
import { BoundedCache } from '../platform/bounded-cache.ts';
import { SEARCH_LIMIT_DEFAULT, SEARCH_LIMIT_MAX, SEARCH_QUERY_MAX, SEARCH_TYPES, type SearchAnswer, type SearchQuery } from './contract.ts';

export { SEARCH_LIMIT_MAX, SEARCH_QUERY_MAX };
export type { SearchResult } from './contract.ts';

/** A search as the contract parses it; callers inside the service (/ask, pages) may leave out the limit. */
export type SearchInput = Omit<SearchQuery, 'limit'> & { limit?: number | undefined };

/** Kept for callers that named the answer this way. */
export type SearchResponse = SearchAnswer;

export interface SearchService {
  search(input: SearchInput): Promise<SearchAnswer>;
  /** Rebuilds every source of the index in one transaction. */
  rebuild(): Promise<IndexBuildResult>;
}

/** Pages read beyond the limit, to fill the places of pages folded into another's passage. */
const FOLD_ROOM = 20;

/** Answers kept per (query, type, limit); repeated questions are what a busy instance sees most. */
const MAX_KEPT_ANSWER_BYTES = 4 * 1024 * 1024;

export function createSearchService({
  db,
  baseUrl,
  answerTtlMs,
  clock,
}: {
  db: Database;
  /** The site's address, for each result's absolute URL. */
  baseUrl: string;
  /**
   * How long an answer is reused (0: never). The index changes when content is released or a sync
   * runs, and API answers may be cached for an hour anyway (Cache-Control), so a minute is harmless.
   */
  answerTtlMs?: number;
  clock?: Clock;
}): SearchService {
  const answers = new BoundedCache<SearchAnswer>({ maxBytes: MAX_KEPT_ANSWER_BYTES, ttlMs: answerTtlMs ?? 0, clock });
  return {
    async search({ query, type, limit = SEARCH_LIMIT_DEFAULT }) {
      const text = query.trim();
      if (text.length === 0) throw new BadRequestError('query must not be empty; give one or more words, e.g. "escrow cushion".');
      if (text.length > SEARCH_QUERY_MAX) throw new BadRequestError(`query must be at most ${SEARCH_QUERY_MAX} characters.`);
      if (type !== undefined && !(SEARCH_TYPES as readonly string[]).includes(type)) {
        throw new BadRequestError(`type must be one of ${SEARCH_TYPES.join(', ')}.`);
      }
      if (!Number.isInteger(limit) || limit < 1 || limit > SEARCH_LIMIT_MAX) {
        throw new BadRequestError(`limit must be an integer from 1 to ${SEARCH_LIMIT_MAX}.`);
      }
      const key = JSON.stringify([text, type ?? null, limit]);
      const kept = answers.get(key);
      if (kept) return kept;
      // A few more than asked, so that pages folded into an earlier one's passage leave room for others.
      const hits = await searchDocuments(db, { query: text, type, limit: limit + FOLD_ROOM, some: true });
      const results = foldRepeatedPassages(hits)
        .slice(0, limit)
        .map(({ hit, similar }) => ({
          title: hit.title,
          url: `${baseUrl}${hit.path}`,
          path: hit.path,
          type: hit.type,
          excerpt: hit.excerpt,
          score: hit.score,
          date: hit.publishedOn,
          matches_every_word: hit.matchedWords === 'all',
          ...(similar > 0 ? { similar_pages: similar } : {}),
        }));
      const answer: SearchAnswer = {
        query: text,
        type: type ?? null,
        results,
        sources: results.map((result) => ({ url: result.url, as_of: result.date, name: result.title })),
      };
      // Frozen: the same answer goes to every caller who asks within the TTL.
      Object.freeze(answer.results);
      Object.freeze(answer.sources);
      answers.set(key, Object.freeze(answer));
      return answer;
    },
    async rebuild() {
      const result = await db.transaction((tx) => rebuildSearchIndex(tx));
      answers.clear();
      return result;
    },
  };
}
