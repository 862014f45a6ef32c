// The `news` service: market updates for the site's /news pages, the news feed and search.
import type { Queryable } from '../platform/db/database.ts';
import { countMarketUpdates, getMarketUpdate, listMarketUpdates, type MarketUpdate } from './market-updates.ts';
import { rateHistory, type RateHistory } from './rate-history.ts';
import { BoundedCache } from '../platform/bounded-cache.ts';
import type { Clock } from '../platform/clock.ts';

export interface NewsService {
  /** Newest first. */
  list(options?: { limit?: number; offset?: number }): Promise<MarketUpdate[]>;
  /** The post for one PMMS week (YYYY-MM-DD), or null. */
  get(week: string): Promise<MarketUpdate | null>;
  count(): Promise<number>;
  /** Survey and benchmark history since `from` (YYYY-MM-DD), for the rates chart. */
  history(from: string): Promise<RateHistory>;
}

const HISTORY_BYTES = 64 * 1024;

export function createNewsService({
  db,
  historyTtlMs = 0,
  clock,
}: {
  db: Queryable;
  /**
   * How long a rate history is reused (0: never). The series change at most daily, and the /rates
   * page that draws it may be cached for 15 minutes anyway (its Cache-Control).
   */
  historyTtlMs?: number;
  clock?: Clock;
}): NewsService {
  // Keyed by the start date, which moves once a day for each range of the chart. A history is still
  // being read when it is kept, so each counts as a nominal 64 KB (a weekly series since 1971 is less).
  const histories = new BoundedCache<Promise<RateHistory>>({
    maxBytes: 16 * HISTORY_BYTES,
    sizeOf: () => HISTORY_BYTES,
    ttlMs: historyTtlMs,
    clock,
  });
  return {
    list: (options) => listMarketUpdates(db, options),
    get: (week) => getMarketUpdate(db, week),
    count: () => countMarketUpdates(db),
    history(from) {
      const kept = histories.get(from);
      if (kept) return kept;
      const reading = rateHistory(db, from);
      histories.set(from, reading);
      // A failed read is not kept: the next request tries again.
      reading.catch(() => histories.delete(from));
      return reading;
    },
  };
}
