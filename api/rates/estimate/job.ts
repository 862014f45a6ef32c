// Keeps the state estimate in step with the HMDA warehouse, in the background: whenever the warehouse
// manifest changes (a state-year published, a year added) and no HMDA load is under way, the estimate
// dataset is synced again, so requests only ever read the stored result. Returns the stopper.
import type { CoreDeps } from '../../platform/core-deps.ts';
import type { UsesServices } from '../../domain-services.ts';
import { readManifest } from '../../hmda/warehouse.ts';
import { runSync, SyncInProgressError } from '../../sync/runner.ts';
import { stateEstimateDataset, warehouseChecksum } from './dataset.ts';
import { STATE_ESTIMATE_DATASET } from './method.ts';

/** Recomputing the estimates is a sync of one dataset, started when the HMDA warehouse changes. */
type StateEstimateDeps = CoreDeps & UsesServices<'datasets' | 'hmda'>;

const CHECK_EVERY_MS = 60_000;
/** The first look waits for the start-up sync, which computes the estimate once itself. */
const FIRST_CHECK_MS = 45_000;

export interface StateEstimateRefresher {
  /** Syncs the estimate when the warehouse changed since its current load; resolves to whether it ran. */
  check(): Promise<boolean>;
  stop(): void;
}

export function stateEstimateRefresher(deps: StateEstimateDeps): StateEstimateRefresher {
  const { config, db, logger, services, clock } = deps;
  const log = logger.child({ job: STATE_ESTIMATE_DATASET });
  let seen: string | undefined;
  let running = false;
  let stopped = false;

  async function check(): Promise<boolean> {
    if (running || stopped || services.hmda.progress.get().state === 'loading') return false;
    const manifest = readManifest(config.hmdaDir);
    const version = manifest ? warehouseChecksum(manifest) : 'none';
    if (version === seen) return false;
    services.datasets.invalidate();
    const record = (await services.datasets.list()).find((candidate) => candidate.name === STATE_ESTIMATE_DATASET);
    if (record?.checksum === version || (!manifest && !record)) {
      seen = version;
      return false;
    }
    running = true;
    try {
      const report = await runSync(db, [stateEstimateDataset], {
        names: [STATE_ESTIMATE_DATASET],
        logger: log,
        config,
        clock,
        onPublished: () => services.datasets.invalidate(),
      });
      seen = version;
      const result = report.results[0];
      log.info(
        { status: result?.status, asOf: result?.asOf, reason: result?.message || undefined },
        'state rate estimates recomputed after the HMDA warehouse changed',
      );
      return true;
    } catch (error) {
      // Another sync holds the lock: look again at the next tick.
      if (!(error instanceof SyncInProgressError)) log.warn({ err: error }, 'state rate estimates could not be recomputed');
      return false;
    } finally {
      running = false;
    }
  }

  return {
    check,
    stop() {
      stopped = true;
    },
  };
}

export function startStateEstimateJob(deps: StateEstimateDeps): () => void {
  const refresher = stateEstimateRefresher(deps);
  const tick = () =>
    void refresher.check().catch((error: unknown) => deps.logger.warn({ err: error }, 'state rate estimates: warehouse check failed'));
  const first = setTimeout(tick, FIRST_CHECK_MS);
  first.unref();
  const timer = setInterval(tick, CHECK_EVERY_MS);
  timer.unref();
  return () => {
    refresher.stop();
    clearTimeout(first);
    clearInterval(timer);
  };
}
