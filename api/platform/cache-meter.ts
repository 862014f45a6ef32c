// What the in-memory caches on a request's path answer, and the switch that turns one off, so
// `npm run bench caches` can show what each buys: its hit ratio under load (counted here, logged
// when the server shuts down) and the throughput of the same requests with it off (CACHES_OFF, one
// process per setting). The counters are plain integers bumped by the caches themselves; reading
// them costs nothing per request. Off is a measuring setting, never a production one.

/** The caches a request to GET /rates or the MCP rates tool passes, by the name CACHES_OFF uses. */
export const METERED_CACHES = ['answer-lane', 'query-memo', 'rates-answers', 'dataset-snapshot'] as const;
export type MeteredCache = (typeof METERED_CACHES)[number];

/** Lookups a cache answered from what it held (hits) and those it had to compute or read (misses). */
export interface CacheCounter {
  hits: number;
  misses: number;
}

const counters = new Map<string, CacheCounter>();
let off: ReadonlySet<MeteredCache> = new Set();

/** The counter of one cache (by its name, with a qualifier such as the dataset copy's label), shared by its instances. */
export function cacheCounter(name: string): CacheCounter {
  let counter = counters.get(name);
  if (counter === undefined) {
    counter = { hits: 0, misses: 0 };
    counters.set(name, counter);
  }
  return counter;
}

/** Every counter that saw a lookup, with its hit ratio: what the server logs when it shuts down. */
export function cacheCounts(): Record<string, CacheCounter & { hitRatio: number }> {
  const counts: Record<string, CacheCounter & { hitRatio: number }> = {};
  for (const [name, { hits, misses }] of counters) {
    if (hits + misses > 0) counts[name] = { hits, misses, hitRatio: hits / (hits + misses) };
  }
  return counts;
}

/** Sets which caches are off (CACHES_OFF); each reads it when it is built. */
export function turnCachesOff(names: readonly MeteredCache[]): void {
  off = new Set(names);
}

export function isCacheOff(name: MeteredCache): boolean {
  return off.has(name);
}
