// The HMDA work the server does in the background: the first load of the latest year for every
// state (first-load.ts; when SYNC_ON_START is on), then, once the server has started, the national
// preset answers, computed ahead so the first person to ask a national question does not wait for
// a scan of every loan of the year. Later publishes are noticed by the service itself (a new
// manifest version starts the same work).
import type { CoreDeps } from '../platform/core-deps.ts';
import type { UsesServices } from '../domain-services.ts';
import { runHmdaFirstLoad } from './first-load.ts';

/** The first HMDA load and the national answers: settings, the logger, today and the HMDA service. */
type HmdaJobDeps = Pick<CoreDeps, 'config' | 'logger' | 'clock'> & UsesServices<'hmda'>;

/** Lets the start-up work that serves every request (search index, first sync) go first. */
const START_DELAY_MS = 15_000;
/** The background load starts after the default datasets' first sync has had its head start. */
const LOAD_DELAY_MS = 30_000;
/** A load that could not reach the publisher, or found the warehouse busy, is tried again this often. */
const RETRY_MS = 60 * 60_000;

export function startHmdaJobs(deps: HmdaJobDeps): () => void {
  const { config, logger, services, clock } = deps;
  const progress = services.hmda.progress;
  const controller = new AbortController();
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, work: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      work();
    }, ms);
    timer.unref();
    timers.add(timer);
  };

  later(START_DELAY_MS, () => void services.hmda.warmNationalPresets());

  if (!config.SYNC_ON_START) {
    progress.update(
      { state: 'off', message: 'SYNC_ON_START is false: HMDA loan records load only with `npm run sync -- hmda --years YYYY`.' },
      clock(),
    );
  } else {
    const load = () => {
      runHmdaFirstLoad({ config, logger, progress, clock, signal: controller.signal })
        .then((status) => {
          if (status.state === 'waiting' && !controller.signal.aborted) later(RETRY_MS, load);
          if (status.state === 'done') void services.hmda.warmNationalPresets();
        })
        .catch((error: unknown) => {
          // A fault (not a data problem: those are reported per state) must not take the server down.
          logger.error({ err: error }, 'HMDA background load failed');
          progress.update(
            { state: 'waiting', current: null, message: 'The HMDA background load failed (see the log); it is tried again in an hour.' },
            clock(),
          );
          if (!controller.signal.aborted) later(RETRY_MS, load);
        });
    };
    later(LOAD_DELAY_MS, load);
  }

  return () => {
    controller.abort();
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
  };
}
