// At start-up, refreshes the search index from the content on disk and the current rate data, so a
// release with new articles is searchable at once (the daily sync refreshes it after that). The
// rebuild is idempotent, so it need not wait for a sync; its own lock keeps instances that start
// together from doing it twice at once.
import type { AppDeps } from '../deps.ts';
import { rebuildSearchIndex } from './build.ts';

/** Advisory-lock key of the start-up refresh (the sync's own keys are in AdvisoryLocks). */
export const SEARCH_REFRESH_LOCK = 4_711_300;
const RETRY_MS = 30_000;
const MAX_ATTEMPTS = 3;

export function startSearchIndexRefresh(deps: AppDeps): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const attempt = async (count: number): Promise<void> => {
    if (stopped) return;
    const outcome = await deps.db.withAdvisoryLock(SEARCH_REFRESH_LOCK, () => deps.db.transaction((tx) => rebuildSearchIndex(tx)));
    if (outcome.acquired) {
      deps.logger.info({ documents: outcome.value.total, sources: outcome.value.sources }, 'search index refreshed');
    } else if (count < MAX_ATTEMPTS && !stopped) {
      timer = setTimeout(() => void run(count + 1), RETRY_MS);
      timer.unref();
    }
  };
  const run = (count: number): Promise<void> =>
    attempt(count).catch((error: unknown) => deps.logger.error({ err: error }, 'search index refresh failed'));

  timer = setTimeout(() => void run(1), 0);
  timer.unref();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
