// The `search` service: validated full-text queries over the index, with absolute URLs, for the
// REST route, the MCP tool `search_content` and /ask.
import type { CoreDeps } from '../deps.ts';
import { BadRequestError } from '../platform/http/errors.ts';
import { rebuildSearchIndex, type IndexBuildResult } from './build.ts';
import { SEARCH_TYPES, type SearchType } from './documents.ts';
import { searchDocuments } from './query.ts';
import { TtlCache } from '../platform/ttl-cache.ts';

export const SEARCH_LIMIT_MAX = 50;
export const SEARCH_QUERY_MAX = 200;

export interface SearchInput {
  query: string;
  type?: SearchType | undefined;
  limit?: number | undefined;
}

export interface SearchResult {
  title: string;
  /** Absolute URL of the page (BASE_URL + path). */
  url: string;
  path: string;
  type: SearchType;
  /** HTML-escaped passage with matches in `<mark>`. */
  excerpt: string;
  score: number;
  /** YYYY-MM-DD the page was published or last updated, when known. */
  date: string | null;
}

export interface SearchResponse {
  query: string;
  type: SearchType | null;
  results: SearchResult[];
}

export interface SearchService {
  search(input: SearchInput): Promise<SearchResponse>;
  /** Rebuilds every source of the index in one transaction. */
  rebuild(): Promise<IndexBuildResult>;
}

export interface SearchServiceOptions {
  /**
   * How long an answer is reused (0: never). The index changes when content is released or a sync
   * runs, and API answers may be cached for an hour anyway (Cache-Control), so a minute is harmless.
   */
  answerTtlMs?: number;
  clock?: CoreDeps['clock'];
}

/** Answers kept per (query, type, limit); repeated questions are what a busy instance sees most. */
const MAX_KEPT_ANSWERS = 1_000;

export function createSearchService(core: Pick<CoreDeps, 'db' | 'config'>, options: SearchServiceOptions = {}): SearchService {
  const answers = new TtlCache<SearchResponse>(options.answerTtlMs ?? 0, MAX_KEPT_ANSWERS, options.clock);
  return {
    async search({ query, type, limit = 10 }) {
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
      const hits = await searchDocuments(core.db, { query: text, type, limit });
      const answer: SearchResponse = {
        query: text,
        type: type ?? null,
        results: hits.map((hit) => ({
          title: hit.title,
          url: `${core.config.baseUrl}${hit.path}`,
          path: hit.path,
          type: hit.type,
          excerpt: hit.excerpt,
          score: hit.score,
          date: hit.publishedOn,
        })),
      };
      // Frozen: the same answer goes to every caller who asks within the TTL.
      Object.freeze(answer.results);
      answers.set(key, Object.freeze(answer));
      return answer;
    },
    async rebuild() {
      const result = await core.db.transaction((tx) => rebuildSearchIndex(tx));
      answers.clear();
      return result;
    },
  };
}
