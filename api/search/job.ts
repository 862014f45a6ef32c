// At start-up, refreshes the search index from the content on disk and the current rate data, so a
// release with new articles is searchable at once (the daily sync refreshes it after that). The
// server starts it after the series warm-up (../jobs.ts says why). The
// rebuild is idempotent, so it need not wait for a sync; its own lock keeps instances that start
// together from doing it twice at once. A restart with the same content and data finds the index
// current by its fingerprint and writes nothing.
import type { CoreDeps } from '../platform/core-deps.ts';
import { rebuildSearchIndex, searchIndexIsCurrent } from './build.ts';

/** Advisory-lock key of the start-up refresh (the sync's own keys are in AdvisoryLocks). */
export const SEARCH_REFRESH_LOCK = 4_711_300;
const RETRY_MS = 30_000;
const MAX_ATTEMPTS = 3;

export function startSearchIndexRefresh(
  deps: Pick<CoreDeps, 'db' | 'logger'>,
  {
    retryMs = RETRY_MS,
    onFirstAttempt,
  }: {
    retryMs?: number;
    /** Called once the first look at the index has ended, whatever it found (a retry comes later). */
    onFirstAttempt?: () => void;
  } = {},
): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const retryLater = (count: number) => {
    if (count >= MAX_ATTEMPTS || stopped) return;
    timer = setTimeout(() => void run(count + 1), retryMs);
    timer.unref();
  };
  // Another instance holding the lock is refreshing the same index; a failure (the database down
  // while the service starts) is worth another try too, or the index stays stale until the daily sync.
  const run = async (count: number): Promise<void> => {
    if (stopped) return;
    try {
      // Compared outside a transaction: the embedded database serves one caller at a time, and a
      // transaction would hold every request's query while the documents are read.
      if (await searchIndexIsCurrent(deps.db)) {
        deps.logger.info('search index current');
        return;
      }
      const outcome = await deps.db.withAdvisoryLock(SEARCH_REFRESH_LOCK, () => deps.db.transaction((tx) => rebuildSearchIndex(tx)));
      if (outcome.acquired) deps.logger.info({ documents: outcome.value.total, sources: outcome.value.sources }, 'search index refreshed');
      else retryLater(count);
    } catch (error) {
      if (stopped) {
        // The service is shutting down and closed the database under it: nothing was written.
        deps.logger.info('search index refresh cut off by the shutdown; the next start does it');
        return;
      }
      deps.logger.error({ err: error, attempt: count, retrying: count < MAX_ATTEMPTS }, 'search index refresh failed');
      retryLater(count);
    }
  };

  timer = setTimeout(() => void run(1).finally(() => onFirstAttempt?.()), 0);
  timer.unref();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
