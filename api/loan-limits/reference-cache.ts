// Reads of reference tables (states, counties, loaded years) that change only when a sync
// publishes, cached in memory per version of the datasets behind them: without it every loan-limit
// lookup paid two full scans (DISTINCT over counties and over loan_limits) before its own query.
import type { Queryable, QueryResult } from '../platform/db/database.ts';

/** Bound on cached statements (one per state's county list, plus a few): a safety net only. */
const MAX_ENTRIES = 200;

export interface ReferenceCache {
  /** A Queryable answering from the cache while `version` is unchanged; a new version starts afresh. */
  at(version: string | undefined): Queryable;
}

export function createReferenceCache(db: Queryable): ReferenceCache {
  let current: string | undefined;
  const entries = new Map<string, Promise<QueryResult<unknown>>>();
  return {
    at(version) {
      if (version === undefined) return db; // no dataset records to key on (unit tests): no cache
      if (version !== current) {
        current = version;
        entries.clear();
      }
      return {
        query<Row>(sql: string, params?: readonly unknown[]): Promise<QueryResult<Row>> {
          const key = `${sql}\u0000${JSON.stringify(params ?? [])}`;
          let entry = entries.get(key);
          if (!entry) {
            if (entries.size >= MAX_ENTRIES) entries.clear();
            entry = db.query<unknown>(sql, params);
            entries.set(key, entry);
            // A failed read is not remembered: the next request tries the database again.
            entry.catch(() => entries.delete(key));
          }
          return entry as Promise<QueryResult<Row>>;
        },
      };
    },
  };
}
