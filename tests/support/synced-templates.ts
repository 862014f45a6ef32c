// Bookkeeping for the synced-database templates of tests/support/synced.ts, kept free of app
// imports so tests/global-setup.ts can create a run id and clean up without loading the datasets.
// Two kinds of template: a run's own (`mds_tpl_<run>_<key>`, removed at the end of the run) and
// reusable ones (`mds_tpl_c<fingerprint>_<key>`, kept across runs while the sync fingerprint is the
// same). Each use of a reusable template touches a stamp file, so the clean-up can tell the ones a
// concurrent run (of other code, on the same PostgreSQL) still uses from those nobody needs.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { POSTGRES_ADMIN_URL } from './databases.ts';
import { TEST_CACHE_DIR } from './test-cache-dir.ts';

export { readIfPresent } from './test-cache-dir.ts';

export const TEMPLATE_PREFIX = 'mds_tpl_';
export const PGLITE_CACHE_DIR = TEST_CACHE_DIR;
/** Reusable templates of another fingerprint are removed once unused this long. */
const OTHER_FINGERPRINT_UNUSED_MS = 60 * 60_000;
/** Reusable templates of the current fingerprint are removed once unused this long. */
const UNUSED_MS = 2 * 24 * 60 * 60_000;
const REUSABLE_PREFIX = `${TEMPLATE_PREFIX}c`;
const FINGERPRINT_CHARS = 12;

/** The name of a reusable template: the fingerprint it was built from, then its own key. */
export function cachedTemplateName(fingerprint: string, key: string): string {
  return `${REUSABLE_PREFIX}${fingerprint.slice(0, FINGERPRINT_CHARS)}_${key}`.toLowerCase();
}

const stampFile = (name: string) => path.join(PGLITE_CACHE_DIR, `${name}.used`);

/** Records that a reusable template was just used (cloned or loaded). */
export function markTemplateUsed(name: string): void {
  fs.mkdirSync(PGLITE_CACHE_DIR, { recursive: true });
  const now = new Date();
  try {
    fs.utimesSync(stampFile(name), now, now);
  } catch {
    fs.writeFileSync(stampFile(name), '');
  }
}

/** Milliseconds since a reusable template was last used (Infinity when never recorded). */
function unusedFor(name: string): number {
  const stamp = fs.statSync(stampFile(name), { throwIfNoEntry: false });
  return stamp ? Date.now() - stamp.mtimeMs : Number.POSITIVE_INFINITY;
}

/** Whether a reusable template (by name) is no longer worth keeping. */
function reusableIsStale(name: string, currentFingerprint: string | undefined): boolean {
  const fingerprint = name.slice(REUSABLE_PREFIX.length, REUSABLE_PREFIX.length + FINGERPRINT_CHARS);
  const current = currentFingerprint !== undefined && fingerprint === currentFingerprint.slice(0, FINGERPRINT_CHARS).toLowerCase();
  return unusedFor(name) > (current ? UNUSED_MS : OTHER_FINGERPRINT_UNUSED_MS);
}

export async function withAdmin<T>(work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

/**
 * Removes this run's templates (global-setup teardown), those of runs older than a day, and the
 * reusable templates nobody needs any more: built from another fingerprint and unused for an hour
 * (longer than a whole run of the suite), or unused for two days.
 */
export async function dropSyncedTemplates(runId: string, currentFingerprint?: string): Promise<void> {
  await withAdmin(async (admin) => {
    const { rows } = await admin.query<{ datname: string; numbackends: number | null }>(
      'SELECT d.datname, s.numbackends FROM pg_database d LEFT JOIN pg_stat_database s ON s.datid = d.oid WHERE d.datname LIKE $1',
      [`${TEMPLATE_PREFIX}%`],
    );
    const dayAgo = Math.floor(Date.now() / 60_000) - 24 * 60;
    for (const { datname, numbackends } of rows) {
      if (datname.startsWith(REUSABLE_PREFIX)) {
        // A half-built one (`_b`) being built right now has a connection open.
        const building = datname.endsWith('_b');
        const stale = building
          ? (numbackends ?? 0) === 0 && reusableIsStale(datname.slice(0, -2), currentFingerprint)
          : reusableIsStale(datname, currentFingerprint);
        if (stale) {
          await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
          if (!building) fs.rmSync(stampFile(datname), { force: true });
        }
        continue;
      }
      const run = datname.slice(TEMPLATE_PREFIX.length).split('_')[0] ?? '';
      const minutes = Number.parseInt(run.slice(1, 8), 36); // run ids are r<minutes base 36><random>
      const stale = run.startsWith('r') && Number.isFinite(minutes) && minutes < dayAgo;
      if (run === runId.toLowerCase() || stale) await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    }
  });
  if (fs.existsSync(PGLITE_CACHE_DIR)) {
    for (const file of fs.readdirSync(PGLITE_CACHE_DIR)) {
      const runOwn = file.startsWith(`${runId}-`) || file.toLowerCase().startsWith(`${TEMPLATE_PREFIX}${runId}_`.toLowerCase());
      // Left by a run that never reached its teardown (killed): run ids start with r<minutes base 36>.
      const fileRun = /^(?:mds_tpl_)?(r[0-9a-z]{7})/.exec(file)?.[1];
      const abandoned = fileRun !== undefined && Number.parseInt(fileRun.slice(1, 8), 36) < Math.floor(Date.now() / 60_000) - 24 * 60;
      const staleReusable =
        file.startsWith(REUSABLE_PREFIX) && file.endsWith('.tar') && reusableIsStale(file.slice(0, -'.tar'.length), currentFingerprint);
      // PGlite starting points (tests/support/pglite-templates.ts): the file's own time is its last use.
      const staleStart =
        file.startsWith('mds_start_') &&
        Date.now() - (fs.statSync(path.join(PGLITE_CACHE_DIR, file), { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > UNUSED_MS;
      if (runOwn || abandoned || staleReusable || staleStart) fs.rmSync(path.join(PGLITE_CACHE_DIR, file), { force: true });
      if (staleReusable) fs.rmSync(stampFile(file.slice(0, -'.tar'.length)), { force: true });
    }
  }
}

/** A new run id: `r` + minutes since the epoch (base 36, 7 chars) + random, so stale ones are recognisable. */
export function newTestRunId(): string {
  return `r${Math.floor(Date.now() / 60_000)
    .toString(36)
    .padStart(7, '0')}${randomBytes(3).toString('hex')}`;
}
