// Computes the national HMDA presets in the background once the server has started, so the first
// person to ask a national question does not wait for a scan of every loan of the year. Later
// publishes are noticed by the service itself (a new manifest version starts the same work).
import type { AppDeps } from '../deps.ts';

/** Lets the start-up work that serves every request (search index, first sync) go first. */
const START_DELAY_MS = 15_000;

export function startHmdaWarmUp(deps: AppDeps): () => void {
  const timer = setTimeout(() => void deps.services.hmda.warmNationalPresets(), START_DELAY_MS);
  timer.unref();
  return () => clearTimeout(timer);
}
