// Caching hints for protocol 2026-07-28 (`ttlMs`, `cacheScope` on lists, reads and server/discover):
// an answer stays valid until the data behind it can next change, which is the publisher's next
// scheduled release (api/freshness/next-release.ts) or, for a dataset without one, our next daily
// refresh. Every answer here is the same for every caller, so all are `public`. Earlier protocol
// versions carry no cache fields.
import type { CacheHint } from '@modelcontextprotocol/server';
import { nextScheduledRelease } from '../freshness/next-release.ts';
import { nextBusinessDayRun } from '../sync/background.ts';
import type { Clock } from '../platform/clock.ts';
import { DAY_MS } from '../platform/dates.ts';

/**
 * Validity of what no publisher's schedule bounds (this build's content, a dataset without a
 * schedule when no daily refresh runs): a deploy or a manual sync may change it within a day.
 */
export const UNSCHEDULED_TTL_MS = DAY_MS;

export interface CacheHintOptions {
  clock: Clock;
  /** Whether the daily refresh runs (SYNC_DAILY): then unscheduled datasets change at its next run. */
  dailyRefresh: boolean;
}

/**
 * Milliseconds until any of `datasets` can change: its publisher's next scheduled release, else the
 * next daily refresh, else UNSCHEDULED_TTL_MS (also for none: content of this build).
 */
export function ttlUntilChange(datasets: readonly string[], { clock, dailyRefresh }: CacheHintOptions): number {
  const now = clock();
  const unscheduled = dailyRefresh ? nextBusinessDayRun(now).getTime() - now.getTime() : UNSCHEDULED_TTL_MS;
  let ttl = datasets.length === 0 ? UNSCHEDULED_TTL_MS : Number.POSITIVE_INFINITY;
  for (const dataset of datasets) {
    const next = nextScheduledRelease(dataset, now);
    ttl = Math.min(ttl, next === undefined ? unscheduled : next.getTime() - now.getTime());
  }
  return Math.max(0, Math.floor(ttl));
}

/** A hint read when each answer is sent, so the validity counts down with the clock. */
function liveHint(datasets: readonly string[], options: CacheHintOptions): CacheHint {
  return {
    get ttlMs() {
      return ttlUntilChange(datasets, options);
    },
    cacheScope: 'public',
  };
}

/**
 * The server's per-operation hints: the tool, prompt and template lists and server/discover are
 * fixed for the life of the process; the resource list holds the tracked bills, which change when
 * the bills dataset does. `resources/read` answers carry their own (see ./guarded-server.ts).
 */
export function operationHints(options: CacheHintOptions): Record<string, CacheHint> {
  const fixed = liveHint([], options);
  return {
    'server/discover': fixed,
    'tools/list': fixed,
    'prompts/list': fixed,
    'resources/templates/list': fixed,
    'resources/list': liveHint(['bills'], options),
  };
}
