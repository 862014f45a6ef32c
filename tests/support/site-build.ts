// Builds dist/ once for the whole test run when it is missing or stale: test files in parallel
// workers share one build through a lock directory (the first builds, the others wait and then
// find it fresh), so no file rebuilds the site on its own.
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../api/config.ts';
import { ensureSiteBuilt, siteIsStale } from '../../scripts/site-build.ts';

// Outside dist/, which astro build empties while it runs.
const LOCK = path.join(PROJECT_ROOT, 'node_modules', '.cache', 'mds-site-build.lock');
const STALE_LOCK_MS = 10 * 60_000;

export const DIST_CLIENT = path.join(PROJECT_ROOT, 'dist', 'client');

export async function ensureSiteBuiltForTests(): Promise<void> {
  if (!siteIsStale()) return;
  fs.mkdirSync(path.dirname(LOCK), { recursive: true });
  for (;;) {
    try {
      fs.mkdirSync(LOCK);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = Date.now() - (fs.statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > STALE_LOCK_MS)
        fs.rmSync(LOCK, { recursive: true, force: true }); // left by a killed run
      else await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  try {
    ensureSiteBuilt((message) => console.log(`[tests] ${message}`));
  } finally {
    fs.rmSync(LOCK, { recursive: true, force: true });
  }
}
