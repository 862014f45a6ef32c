// The server's own sync: at start-up, the default datasets not loaded yet (the server serves meanwhile
// and those routes answer 503); then a refresh on business days at 06:30 local time. Failures are
// logged, never thrown: a sync problem must not take the server down. The server runs the loads on a
// thread of their own (`run`: ./run-in-thread.ts, from ../jobs.ts), so parsing never holds a request.
//
// Several instances share one database, and only one can sync at a time. An instance that finds
// another's sync running does not give up: it waits (with backoff) and looks again, until every
// dataset it lacks is loaded or has failed on its own. A sync that dies half-way (its process
// killed) therefore leaves nothing missing for long: a waiting instance takes over.
import type { CoreDeps } from '../platform/core-deps.ts';
import type { UsesServices } from '../domain-services.ts';
import type { Logger } from '../platform/logger.ts';
import { latestAttempts } from '../platform/sync-attempts.ts';
import { runSync, SyncInProgressError, type DatasetSyncResult, type SyncReport } from './runner.ts';
import type { DatasetDefinition } from './types.ts';

/** A sync needs everything core (it writes the database) and tells the dataset status when loads land. */
type BackgroundSyncDeps = CoreDeps & UsesServices<'datasets'>;

/** The next Monday–Friday at hour:minute local time strictly after `now`. */
export function nextBusinessDayRun(now: Date, hour = 6, minute = 30): Date {
  const next = new Date(now);
  next.setHours(hour, minute, 0, 0);
  if (next.getTime() <= now.getTime()) next.setDate(next.getDate() + 1);
  while (next.getDay() === 0 || next.getDay() === 6) next.setDate(next.getDate() + 1);
  return next;
}

export interface CatchUpTiming {
  /** Wait before the first look again (ms); doubled each time, up to `maxDelayMs`. */
  firstDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_CATCH_UP_TIMING: CatchUpTiming = { firstDelayMs: 5_000, maxDelayMs: 60_000 };

/** The wait before look number `attempt` (1-based): doubling, capped, with ±20% jitter so instances spread out. */
export function catchUpDelay(attempt: number, timing: CatchUpTiming, random = Math.random): number {
  const base = Math.min(timing.maxDelayMs, timing.firstDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}

/** One sync of `names` (undefined: the default datasets), reporting as runSync does and throwing what it throws. */
export type BackgroundSyncRun = (request: {
  names: readonly string[] | undefined;
  logger: Logger;
  signal: AbortSignal;
  onPublished: (result: DatasetSyncResult) => void;
}) => Promise<SyncReport>;

export interface BackgroundSyncOptions {
  /** The datasets there are: the default ones are what the start-up sync makes sure are loaded. */
  definitions: readonly DatasetDefinition[];
  timing?: CatchUpTiming;
  /** How a sync runs; default: runSync of `definitions` on this thread. */
  run?: BackgroundSyncRun;
  /**
   * Called once the start-up catch-up has ended (every default dataset loaded or failed on its own,
   * or the job stopped), at once without SYNC_ON_START: the server's own work that would only be
   * done again after each dataset waits for it.
   */
  onCaughtUp?: () => void;
}

export function startBackgroundSync(
  deps: BackgroundSyncDeps,
  { definitions, timing = DEFAULT_CATCH_UP_TIMING, run, onCaughtUp }: BackgroundSyncOptions,
): () => void {
  const { config, db, logger, services } = deps;
  const clock = deps.clock;
  const runOnce: BackgroundSyncRun = run ?? ((request) => runSync(db, definitions, { ...request, config, clock }));
  const log = logger.child({ job: 'sync' });
  const controller = new AbortController();
  const timers = new Set<NodeJS.Timeout>();
  let running: Promise<boolean> | undefined;

  const later = (ms: number, work: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      work();
    }, ms);
    timer.unref(); // never keeps the process alive on its own
    timers.add(timer);
  };

  /** Syncs `names`; true when this instance's sync ran to its end (whatever each dataset's outcome). */
  const sync = (names: readonly string[] | undefined, reason: string): Promise<boolean> => {
    if (running || controller.signal.aborted) return Promise.resolve(false);
    running = (async () => {
      try {
        log.info({ reason, datasets: names ?? 'default' }, 'background sync started');
        // Read before the loads hold the embedded database: /healthz answers from the last overview
        // while they do (datasets.ts), and at the first start there was none yet to answer from.
        await services.datasets.overview().catch(() => undefined);
        const report = await runOnce({
          names,
          logger: log,
          signal: controller.signal,
          onPublished: () => services.datasets.invalidate(),
        });
        for (const result of report.results) {
          const entry = { dataset: result.name, status: result.status, rows: result.rows, changed: result.changed, asOf: result.asOf };
          if (result.status === 'ok') log.info(entry, 'dataset synced');
          else if (result.status === 'skipped') log.info({ ...entry, reason: result.message }, 'dataset skipped');
          else log.error({ ...entry, reason: result.message }, 'dataset did not sync');
        }
        return true;
      } catch (error) {
        if (error instanceof SyncInProgressError) log.info({ reason }, 'another instance is syncing; skipped');
        else if (!controller.signal.aborted) log.error({ err: error }, 'background sync failed');
        return false;
      } finally {
        running = undefined;
        services.datasets.invalidate();
      }
    })();
    return running;
  };

  const defaults = definitions.filter((definition) => definition.syncByDefault !== false).map((definition) => definition.name);

  /**
   * The default datasets this instance still lacks: not loaded, and not failed on their own since
   * `baseline` (an attempt id: only attempts after it count). An interrupted attempt is not a
   * failure of the dataset: whoever ran it died, so it is tried again.
   */
  const lacking = async (baseline: ReadonlyMap<string, number>): Promise<string[]> => {
    services.datasets.invalidate();
    const [records, attempts] = await Promise.all([services.datasets.list(), latestAttempts(db)]);
    const loaded = new Set(records.map((record) => record.name));
    return defaults.filter((name) => {
      if (loaded.has(name)) return false;
      const attempt = attempts.get(name);
      const failedOnItsOwn = attempt !== undefined && (attempt.status === 'failed' || attempt.status === 'skipped');
      return !(failedOnItsOwn && attempt.id > (baseline.get(name) ?? 0));
    });
  };

  const catchUp = async () => {
    // Attempts made before this instance started settle nothing: it tries every missing dataset once.
    let baseline: Map<string, number> | undefined;
    // The first look is at once, and so is the look after this instance's first sync when it ran to
    // its end (only what failed on its own can be missing then); after another instance's sync, a
    // failed read or a second sync, the next look waits, longer each time.
    let lookNow = true;
    for (let look = 0; !controller.signal.aborted; look += 1) {
      if (!lookNow) {
        await new Promise<void>((resolve) => later(catchUpDelay(look, timing), resolve));
        if (controller.signal.aborted) return;
      }
      lookNow = false;
      try {
        baseline ??= new Map([...(await latestAttempts(db))].map(([name, attempt]) => [name, attempt.id]));
        const missing = await lacking(baseline);
        if (missing.length === 0) {
          if (look > 0) log.info('start-up sync caught up: every default dataset is loaded or failed on its own');
          return;
        }
        const ranToItsEnd = await sync(missing, look === 0 ? 'start-up: datasets not loaded yet' : 'start-up: datasets still missing');
        lookNow = ranToItsEnd && look === 0;
      } catch (error) {
        // The database may be starting or failing over: look again later, as when the lock is taken.
        log.warn({ err: (error as Error).message }, 'could not read which datasets are loaded; looking again later');
      }
    }
  };

  if (config.SYNC_ON_START) {
    later(0, () => void catchUp().finally(() => onCaughtUp?.()));
  } else {
    onCaughtUp?.();
  }

  if (config.SYNC_DAILY) {
    const schedule = () => {
      const now = clock();
      const next = nextBusinessDayRun(now);
      later(next.getTime() - now.getTime(), () => {
        void sync(undefined, 'daily refresh');
        schedule();
      });
    };
    schedule();
  }

  return () => {
    controller.abort();
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
  };
}
