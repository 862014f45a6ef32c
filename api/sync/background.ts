// In-process sync: at start-up, the default datasets not loaded yet (the server serves meanwhile and
// those routes answer 503); then a refresh on business days at 06:30 local time. Failures are logged,
// never thrown: a sync problem must not take the server down.
import type { AppDeps } from '../deps.ts';
import { runSync, SyncInProgressError } from './runner.ts';
import type { DatasetDefinition } from './types.ts';

/** The next Monday–Friday at hour:minute local time strictly after `now`. */
export function nextBusinessDayRun(now: Date, hour = 6, minute = 30): Date {
  const next = new Date(now);
  next.setHours(hour, minute, 0, 0);
  if (next.getTime() <= now.getTime()) next.setDate(next.getDate() + 1);
  while (next.getDay() === 0 || next.getDay() === 6) next.setDate(next.getDate() + 1);
  return next;
}

export function startBackgroundSync(deps: AppDeps, definitions: readonly DatasetDefinition[]): () => void {
  const { config, db, logger, services } = deps;
  const clock = deps.clock;
  const log = logger.child({ job: 'sync' });
  const controller = new AbortController();
  const timers = new Set<NodeJS.Timeout>();
  let running: Promise<void> | undefined;

  const later = (ms: number, work: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      work();
    }, ms);
    timer.unref(); // never keeps the process alive on its own
    timers.add(timer);
  };

  const sync = (names: readonly string[] | undefined, reason: string) => {
    if (running || controller.signal.aborted) return;
    running = (async () => {
      try {
        log.info({ reason, datasets: names ?? 'default' }, 'background sync started');
        const report = await runSync(db, definitions, {
          names,
          logger: log,
          config,
          clock,
          signal: controller.signal,
          onPublished: () => services.datasets.invalidate(),
        });
        for (const result of report.results) {
          const entry = { dataset: result.name, status: result.status, rows: result.rows, changed: result.changed, asOf: result.asOf };
          if (result.status === 'ok') log.info(entry, 'dataset synced');
          else if (result.status === 'skipped') log.info({ ...entry, reason: result.message }, 'dataset skipped');
          else log.error({ ...entry, reason: result.message }, 'dataset did not sync');
        }
      } catch (error) {
        if (error instanceof SyncInProgressError) log.info('another instance is syncing; skipped');
        else if (!controller.signal.aborted) log.error({ err: error }, 'background sync failed');
      } finally {
        running = undefined;
      }
    })();
  };

  if (config.SYNC_ON_START) {
    later(0, () => {
      services.datasets
        .list()
        .then((records) => {
          const loaded = new Set(records.map((record) => record.name));
          const missing = definitions.filter((d) => d.syncByDefault !== false && !loaded.has(d.name)).map((d) => d.name);
          if (missing.length > 0) sync(missing, 'start-up: datasets not loaded yet');
        })
        .catch((error: unknown) => log.error({ err: error }, 'could not read which datasets are loaded'));
    });
  }

  if (config.SYNC_DAILY) {
    const schedule = () => {
      const now = clock();
      const next = nextBusinessDayRun(now);
      later(next.getTime() - now.getTime(), () => {
        sync(undefined, 'daily refresh');
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
