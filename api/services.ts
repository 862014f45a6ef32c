// The domain services, built once per process from the core dependencies. A capability's REST
// route, MCP tool and /ask tool all call the same instance, so caches and data are shared.
import type { CoreDeps } from './deps.ts';
import { createDatasetStatus, type DatasetStatus } from './platform/datasets.ts';

export interface Services {
  datasets: DatasetStatus;
}

export async function createServices(core: CoreDeps): Promise<Services> {
  const datasets = createDatasetStatus(core.db);
  return { datasets };
}

/** Releases what the services hold (timers, connections) at shutdown. */
export async function closeServices(_services: Services): Promise<void> {
  // Capabilities that hold resources close them here.
}
