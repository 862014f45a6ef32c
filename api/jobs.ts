// Background work that runs inside the server process (the first sync of missing datasets, the
// daily refresh on business days, the search index, the first HMDA load and national HMDA answers, the state rate
// estimates after the HMDA warehouse changes, the first read of the series families, the webhook queue and,
// with PostgreSQL, the look for dataset versions other instances published). Returns a function
// that stops it at shutdown.
import type { AppDeps } from './deps.ts';
import { DEFAULT_CATCH_UP_TIMING, startBackgroundSync } from './sync/background.ts';
import { datasetDefinitions } from './sync/registry.ts';
import { runSyncInThread } from './sync/run-in-thread.ts';
import { startKeysAdminJob } from './access/admin-socket.ts';
import { startSearchIndexRefresh } from './search/job.ts';
import { startHmdaJobs } from './hmda/job.ts';
import { startPublishing } from './publications/route.ts';
import { startStateEstimateJob } from './rates/estimate/job.ts';
import { startSeriesWarmUp } from './series/warm-up.ts';
import { startWebhookDelivery } from './webhooks/job.ts';
import { startDatasetUpdatesPoll } from './dataset-updates/job.ts';

export function startBackgroundJobs(deps: AppDeps): () => void {
  const stoppers: Array<() => void> = [];
  const caughtUp = Promise.withResolvers<void>();
  stoppers.push(
    startBackgroundSync(deps, {
      definitions: datasetDefinitions,
      timing: { ...DEFAULT_CATCH_UP_TIMING, firstDelayMs: deps.config.SYNC_CATCH_UP_DELAY_MS },
      // The thread loads the same registry; only the server runs the sync off its main thread.
      run: (request) => runSyncInThread(deps, request),
      onCaughtUp: () => caughtUp.resolve(),
    }),
  );
  stoppers.push(startKeysAdminJob(deps));
  // The start-up work that reads much at once runs one part after another, not side by side, so
  // that the process holds one part's data at a time (side by side they made a restart's peak,
  // BENCHMARKS.md "Lifecycle memory"): the series warm-up (every family, the HMDA county counts
  // among them), then the search index's look at its documents (every research page's, from a
  // research world of its own), then the render-ahead of the data pages. That also waits for the
  // start-up sync to have loaded what was missing (before it has begun, nothing said a sync was
  // coming, and a first render, ~0.2 s of the main thread, landed on the requests of its first
  // second) and for the published files' first writing (./publications/route.ts).
  const seriesRead = Promise.withResolvers<void>();
  const searchChecked = Promise.withResolvers<void>();
  stoppers.push(startSeriesWarmUp(deps, () => seriesRead.resolve()));
  stoppers.push(startAfter(seriesRead.promise, () => startSearchIndexRefresh(deps, { onFirstAttempt: () => searchChecked.resolve() })));
  const renderAheadFrom = Promise.all([caughtUp.promise, searchChecked.promise]).then(() => undefined);
  stoppers.push(startPublishing(deps, renderAheadFrom));
  stoppers.push(startHmdaJobs(deps));
  stoppers.push(startStateEstimateJob(deps));
  stoppers.push(startDatasetUpdatesPoll(deps));
  stoppers.push(startWebhookDelivery(deps));
  return () => {
    for (const stop of stoppers) stop();
  };
}

/** Starts a job once `ready` resolves (unless stopped first); returns the function that stops it. */
function startAfter(ready: Promise<void>, start: () => () => void): () => void {
  let stop: (() => void) | undefined;
  let stopped = false;
  void ready.then(() => {
    if (!stopped) stop = start();
  });
  return () => {
    stopped = true;
    stop?.();
  };
}
