// A sync of official files into a running test app's database, publishing as the server's own sync
// does: each dataset that loads tells the app's dataset status (`invalidate`), which is how the
// app's caches, feeds, MCP subscribers and webhook queue hear of it.
import { loadConfig } from '../../api/config.ts';
import type { AppDeps } from '../../api/deps.ts';
import { createLogger } from '../../api/platform/logger.ts';
import { runSync, type SyncReport } from '../../api/sync/runner.ts';
import { datasetDefinitions } from '../../api/sync/registry.ts';
import { SOURCE_DIR } from './source-data.ts';

export function syncPublishing(deps: Pick<AppDeps, 'db' | 'services'>, names: readonly string[]): Promise<SyncReport> {
  return runSync(deps.db, datasetDefinitions, {
    names,
    options: {},
    logger: createLogger('silent'),
    config: loadConfig({ LOG_LEVEL: 'silent', NODE_ENV: 'test', MDS_SOURCE_DIR: SOURCE_DIR }),
    onPublished: () => deps.services.datasets.invalidate(),
  });
}
