// The `news` service: market updates for the site's /news pages, the news feed and search.
import type { Queryable } from '../platform/db/database.ts';
import { countMarketUpdates, getMarketUpdate, listMarketUpdates, type MarketUpdate } from './market-updates.ts';
import { rateHistory, type RateHistory } from './rate-history.ts';

export interface NewsService {
  /** Newest first. */
  list(options?: { limit?: number; offset?: number }): Promise<MarketUpdate[]>;
  /** The post for one PMMS week (YYYY-MM-DD), or null. */
  get(week: string): Promise<MarketUpdate | null>;
  count(): Promise<number>;
  /** Survey and benchmark history since `from` (YYYY-MM-DD), for the rates chart. */
  history(from: string): Promise<RateHistory>;
}

export function createNewsService(db: Queryable): NewsService {
  return {
    list: (options) => listMarketUpdates(db, options),
    get: (week) => getMarketUpdate(db, week),
    count: () => countMarketUpdates(db),
    history: (from) => rateHistory(db, from),
  };
}
