// Background work that runs inside the server process (the first sync of missing datasets, the
// daily refresh on business days). Returns a function that stops it at shutdown.
import type { AppDeps } from './deps.ts';

export function startBackgroundJobs(_deps: AppDeps): () => void {
  const stoppers: Array<() => void> = [];
  return () => {
    for (const stop of stoppers) stop();
  };
}
