// Runs scripts/prepare-database.ts in a process of its own when the installed PGlite has no empty
// database made yet (api/platform/db/pglite-template.ts): initdb's ~1 GiB is that process's, and it
// has exited before the service starts. Skipped with DATABASE_URL (PostgreSQL needs no copy).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../api/config.ts';
import { templateFile } from '../../api/platform/db/pglite-template.ts';

export function prepareDatabaseTemplate(log: (message: string) => void, env: NodeJS.ProcessEnv = process.env): void {
  if (env.DATABASE_URL || fs.existsSync(templateFile())) return;
  const result = spawnSync(process.execPath, [path.join(PROJECT_ROOT, 'scripts', 'prepare-database.ts')], {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  // Not fatal: without the copy the service runs initdb itself, as it always could.
  if (result.status !== 0)
    log(`could not prepare the empty embedded database (exit ${String(result.status)}); the service will run initdb itself`);
}
