// Reads every series family into memory in the background once the server is up, so the first
// question that needs one (a county's HMDA figures take seconds to read) does not wait for the read.
// A family whose datasets are not loaded yet is skipped: it is read when they are. Then the
// catalogue's gazetteer reads its counties, for the first search that names a place. The server's
// other start-up reads wait for it to end (../jobs.ts).
import type { UsesServices } from '../domain-services.ts';
import { FAMILY_IDS } from './contract.ts';

type SeriesWarmUpDeps = UsesServices<'series' | 'catalogue'>;

const START_DELAY_MS = 2_000;

/** Starts the warm-up; `onDone` is called once it has read everything (not when it is stopped first). */
export function startSeriesWarmUp(deps: SeriesWarmUpDeps, onDone?: () => void): () => void {
  let stopped = false;
  const timer = setTimeout(() => {
    void (async () => {
      for (const family of FAMILY_IDS) {
        if (stopped) return;
        await deps.services.series.readFamily(family).catch(() => undefined);
      }
      if (stopped) return;
      await deps.services.catalogue.places('Los Angeles County').catch(() => undefined);
      onDone?.();
    })();
  }, START_DELAY_MS);
  timer.unref();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
