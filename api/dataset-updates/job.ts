// With PostgreSQL several instances may serve, and one of them syncs: every DATASET_UPDATES_POLL_MS
// each looks for versions another published, so its own MCP subscribers and feeds hear of them. With
// the embedded database this process is the only one that can publish, and hears of its own at once.
import type { AppDeps } from '../deps.ts';

export function startDatasetUpdatesPoll(deps: Pick<AppDeps, 'db' | 'config' | 'services'>): () => void {
  if (deps.db.kind !== 'postgres') return () => undefined;
  const timer = setInterval(() => void deps.services.datasetUpdates.check(), deps.config.DATASET_UPDATES_POLL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
