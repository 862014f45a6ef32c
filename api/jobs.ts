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
  const searchChecked = Promise.withResolvers<void>();
  const seriesRead = Promise.withResolvers<void>();
  stoppers.push(startKeysAdminJob(deps));
  stoppers.push(startSearchIndexRefresh(deps, { onFirstAttempt: () => searchChecked.resolve() }));
  stoppers.push(startHmdaJobs(deps));
  // Pages are rendered ahead once the start-up sync has loaded what was missing (before it has
  // begun, nothing said a sync was coming, and a first render, ~0.2 s of the main thread, landed on
  // the requests of its first second) and once the rest of the start-up work has read what it
  // reads: the search index's look at its documents (every research page's, from a research world
  // of its own), the series warm-up (every family, the HMDA county counts among them) and the
  // published files' first writing (./publications/route.ts). Rendered beside them, the pages'
  // data, Astro's page modules and the compression came on top of theirs: the largest part of a
  // restart's peak (BENCHMARKS.md, "Lifecycle memory").
  const startUpRead = Promise.all([caughtUp.promise, searchChecked.promise, seriesRead.promise]).then(() => undefined);
  stoppers.push(startPublishing(deps, startUpRead));
  stoppers.push(startStateEstimateJob(deps));
  stoppers.push(startSeriesWarmUp(deps, () => seriesRead.resolve()));
  stoppers.push(startDatasetUpdatesPoll(deps));
  stoppers.push(startWebhookDelivery(deps));
  return () => {
    for (const stop of stoppers) stop();
  };
}
