// Caching hints for protocol 2026-07-28 (`ttlMs`, `cacheScope` on lists, reads and server/discover):
// an answer stays valid until the data behind it can next change, which is the publisher's next
// scheduled release (api/freshness/next-release.ts) or, for a dataset without one, our next daily
// refresh. Every answer here is the same for every caller, so all are `public`. Earlier protocol
// versions carry no cache fields.
import type { CacheHint } from '@modelcontextprotocol/server';
import { nextScheduledRelease } from '../freshness/next-release.ts';
import { nextBusinessDayRun } from '../sync/background.ts';
import type { Clock } from '../platform/clock.ts';

/** Longest validity promised: a manual sync or a deploy may change anything within a day. */
export const MAX_TTL_MS = 24 * 60 * 60 * 1000;

export interface CacheHintOptions {
  clock: Clock;
  /** Whether the daily refresh runs (SYNC_DAILY): then unscheduled datasets change at its next run. */
  dailyRefresh: boolean;
}

/** Milliseconds until any of `datasets` can change (MAX_TTL_MS for none: fixed content of this build). */
export function ttlUntilChange(datasets: readonly string[], { clock, dailyRefresh }: CacheHintOptions): number {
  const now = clock();
  let ttl = MAX_TTL_MS;
  for (const dataset of datasets) {
    const next = nextScheduledRelease(dataset, now) ?? (dailyRefresh ? nextBusinessDayRun(now) : undefined);
    if (next !== undefined) ttl = Math.min(ttl, next.getTime() - now.getTime());
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
