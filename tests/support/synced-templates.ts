// Bookkeeping for the synced-database templates of tests/support/synced.ts, kept free of app
// imports so tests/global-setup.ts can create a run id and clean up without loading the datasets.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { POSTGRES_ADMIN_URL } from './databases.ts';

export const TEMPLATE_PREFIX = 'mds_tpl_';
export const PGLITE_CACHE_DIR = path.join(os.tmpdir(), 'mds-test-synced');

export async function withAdmin<T>(work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

/** Removes this run's templates (global-setup teardown), and those of runs older than a day. */
export async function dropSyncedTemplates(runId: string): Promise<void> {
  await withAdmin(async (admin) => {
    const { rows } = await admin.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${TEMPLATE_PREFIX}%`]);
    const dayAgo = Math.floor(Date.now() / 60_000) - 24 * 60;
    for (const { datname } of rows) {
      const run = datname.slice(TEMPLATE_PREFIX.length).split('_')[0] ?? '';
      const minutes = Number.parseInt(run.slice(1, 8), 36); // run ids are r<minutes base 36><random>
      const stale = run.startsWith('r') && Number.isFinite(minutes) && minutes < dayAgo;
      if (run === runId.toLowerCase() || stale) await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    }
  });
  if (fs.existsSync(PGLITE_CACHE_DIR)) {
    for (const file of fs.readdirSync(PGLITE_CACHE_DIR)) {
      if (file.startsWith(`${runId}-`)) fs.rmSync(path.join(PGLITE_CACHE_DIR, file), { force: true });
    }
  }
}

/** A new run id: `r` + minutes since the epoch (base 36, 7 chars) + random, so stale ones are recognisable. */
export function newTestRunId(): string {
  return `r${Math.floor(Date.now() / 60_000).toString(36).padStart(7, '0')}${randomBytes(3).toString('hex')}`;
}
