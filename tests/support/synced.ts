// Scratch databases with official datasets already synced from the mirror (SOURCE_DIR), for tests
// that need real data. Usage:
//
//   import { syncedTestDatabase } from '../support/synced.ts';
//   const { db, drop } = await syncedTestDatabase('postgres', ['loan_limits_conforming']);
//   ... // db is migrated and holds at least those datasets (and their dependencies); call drop() after.
//
//   syncedTestDatabase(kind: 'pglite' | 'postgres', names: string[], options?) → Promise<TestDatabase>
//     Same shape as createTestDatabase. Throws (with each failed dataset's message) when a dataset
//     does not load. Guard such suites with `describe.skipIf(!hasSourceData)`.
//     options.definitions: the DatasetDefinition list (default: api/sync/registry.ts).
//   syncInto(db, names, options?) → Promise<SyncReport>: syncs into a database you already have
//     (options.sourceDir to read a doctored copy of the mirror; options.options for --years etc.).
//     It does not throw on a failed dataset: inspect the report.
//
// A set that includes a dataset whose sync takes seconds (HEAVY below) gets the one template of every
// dataset the mirror loads (SHARED_TEMPLATE) instead of a template of its own: a run that starts
// with no templates (every CI run) synced ~30 sets, most of them with the loan limits, before.
//
// Repeated use is cheap: the first call for a set of names syncs into a template (PostgreSQL: a
// database `mds_tpl_c<fingerprint>_<hash>` cloned with CREATE DATABASE … TEMPLATE; PGlite: a
// dumpDataDir() tarball in the system temp folder loaded with loadDataDir), and every later call, in
// this run or a later one, clones it. Templates are keyed by the sync fingerprint
// (tests/support/sync-fingerprint.ts: the mirror, data/, content/, the migrations and the sync code,
// and the day), the dataset names and the options, so a template is only reused while nothing it was
// built from has changed; tests/global-setup.ts removes those of older fingerprints. Workers building
// the same template take turns (an advisory lock), so each is built once. A sync with its own
// `definitions` or `clock` gets a template of this run only.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import { loadConfig } from '../../api/config.ts';
import type { Database } from '../../api/platform/db/database.ts';
import { createPgliteDatabase } from '../../api/platform/db/pglite.ts';
import { createPostgresDatabase } from '../../api/platform/db/postgres.ts';
import { listMigrations, runMigrations } from '../../api/platform/db/migrate.ts';
import { createLogger } from '../../api/platform/logger.ts';
import { datasetDefinitions } from '../../api/sync/registry.ts';
import { runSync, type SyncReport } from '../../api/sync/runner.ts';
import type { DatasetDefinition } from '../../api/sync/types.ts';
import { POSTGRES_ADMIN_URL, type DatabaseKind, type TestDatabase } from './databases.ts';
import { loadDataDump, pgDumpData } from './pglite-copy.ts';
import { dumpTemplate, pgliteStartingPoint, rawPgliteDatabase, TEMPLATE_START_PARAMS } from './pglite-templates.ts';
import { SOURCE_DIR } from './source-data.ts';
import { sourceFolderFingerprint, syncFingerprint } from './sync-fingerprint.ts';
import { cachedTemplateName, markTemplateUsed, PGLITE_CACHE_DIR, readIfPresent, TEMPLATE_PREFIX, withAdmin } from './synced-templates.ts';

export interface SyncedOptions {
  definitions?: readonly DatasetDefinition[];
  sourceDir?: string;
  /** Dataset options, as `npm run sync -- --years …` would pass them. */
  options?: Record<string, string | boolean>;
  /** The sync's clock (datasets whose selection depends on the day, e.g. the sitting Congress). */
  clock?: () => Date;
}

/** The test run's id (global-setup sets it); templates of other runs are never touched. */
const TEST_RUN_ID = process.env.MDS_TEST_RUN_ID ?? `p${process.pid.toString(36)}`;

export async function syncInto(db: Database, names: readonly string[], options: SyncedOptions = {}): Promise<SyncReport> {
  const config = loadConfig({ LOG_LEVEL: 'silent', NODE_ENV: 'test', MDS_SOURCE_DIR: options.sourceDir ?? SOURCE_DIR });
  return runSync(db, options.definitions ?? datasetDefinitions, {
    names,
    options: options.options ?? {},
    logger: createLogger('silent'),
    config,
    ...(options.clock ? { clock: options.clock } : {}),
  });
}

async function syncOrThrow(db: Database, names: readonly string[], options: SyncedOptions): Promise<void> {
  const report = await syncInto(db, names, options);
  const failed = report.results.filter((result) => result.status !== 'ok');
  if (failed.length > 0) {
    throw new Error(`Test sync failed: ${failed.map((result) => `${result.name}: ${result.message}`).join('; ')}`);
  }
}

/** The sync fingerprint of this run (global-setup computes it once for every worker). */
let runFingerprint: string | undefined;
function currentFingerprint(): string {
  runFingerprint ??= process.env.MDS_TEST_SYNC_FINGERPRINT ?? syncFingerprint(SOURCE_DIR);
  return runFingerprint;
}

/** Only the registry's datasets on the real clock give the same template in every run. */
const reusableAcrossRuns = (options: SyncedOptions) => options.definitions === undefined && options.clock === undefined;

/** Datasets that take seconds to sync (statistics needs most of them). */
const HEAVY = new Set(['loan_limits_conforming', 'loan_limits_fha', 'nmdb', 'hmda_aggregates', 'hud_median_family_income', 'statistics']);
/** Every dataset the mirror loads by default (not apor or state_rate_estimates, which it lacks the files for). */
const SHARED_TEMPLATE = [
  'counties',
  'loan_limits_conforming',
  'loan_limits_fha',
  'bills',
  'pmms',
  'optimal_blue',
  'nmdb',
  'economic_calendar',
  'search_index',
  'hmda_aggregates',
  'hmda_lenders',
  'population',
  'hud_median_family_income',
  'statistics',
];

/** The datasets a test database is cloned with: the shared template's when that holds a heavy request. */
function templateDatasets(names: readonly string[], options: SyncedOptions): readonly string[] {
  const plainSync = reusableAcrossRuns(options) && options.sourceDir === undefined && options.options === undefined;
  const shared = plainSync && names.some((name) => HEAVY.has(name)) && names.every((name) => SHARED_TEMPLATE.includes(name));
  return shared ? SHARED_TEMPLATE : names;
}

interface Template {
  /** The database name (PostgreSQL) or the file name without extension (PGlite). */
  name: string;
  /** An advisory lock id for whoever builds it. */
  lockKey: number;
  /** Kept for later runs (otherwise removed at the end of this run). */
  reusable: boolean;
}

function template(kind: DatabaseKind, names: readonly string[], options: SyncedOptions): Template {
  const hash = createHash('sha256');
  hash.update(`${kind}\n`);
  hash.update([...names].sort().join(','));
  hash.update(JSON.stringify(options.options ?? {}));
  const sourceDir = path.resolve(options.sourceDir ?? SOURCE_DIR);
  // A doctored mirror is identified by its files, not by its (temporary) folder name.
  hash.update(sourceDir === SOURCE_DIR ? 'mirror' : sourceFolderFingerprint(sourceDir));
  for (const migration of listMigrations()) hash.update(`${migration.name}\n${migration.sql}`);
  const key = hash.digest('hex').slice(0, 16);
  const reusable = reusableAcrossRuns(options);
  const name = reusable ? cachedTemplateName(currentFingerprint(), key) : `${TEMPLATE_PREFIX}${TEST_RUN_ID}_${key}`.toLowerCase();
  const lockKey = Number.parseInt(createHash('sha256').update(name).digest('hex').slice(0, 8), 16) | 0;
  return { name, lockKey, reusable };
}

/** Runs `work` holding the template's advisory lock, so parallel workers build it once. */
async function whileBuilding<T>(built: Template, work: (admin: pg.Client) => Promise<T>): Promise<T> {
  return withAdmin(async (admin) => {
    await admin.query('SELECT pg_advisory_lock($1)', [built.lockKey]);
    try {
      return await work(admin);
    } finally {
      await admin.query('SELECT pg_advisory_unlock($1)', [built.lockKey]);
    }
  });
}

async function buildPgliteTemplate(names: readonly string[], options: SyncedOptions): Promise<Buffer> {
  const raw = await PGlite.create({ loadDataDir: await pgliteStartingPoint({ migrated: true }), startParams: TEMPLATE_START_PARAMS });
  try {
    const db = rawPgliteDatabase(raw);
    await runMigrations(db); // a no-op unless the migrations changed since the starting point was made
    await syncOrThrow(db, names, options);
    return await dumpTemplate(raw);
  } finally {
    await raw.close();
  }
}

/**
 * The shared template for PGlite: the PostgreSQL one's rows copied over (pg_dump, then COPY), not a
 * second sync of the same files (tests/support/pglite-copy.ts). Without pg_dump (a server elsewhere,
 * or of a newer major version than the local tools), it is synced as the other templates are.
 */
async function sharedPgliteTemplate(): Promise<Buffer> {
  const dump = await pgDumpData(databaseUrl(await postgresTemplate(SHARED_TEMPLATE, {})));
  if (dump === undefined) return buildPgliteTemplate(SHARED_TEMPLATE, {});
  const raw = await PGlite.create({ loadDataDir: await pgliteStartingPoint({ migrated: true }), startParams: TEMPLATE_START_PARAMS });
  try {
    await runMigrations(rawPgliteDatabase(raw)); // as in buildPgliteTemplate
    await loadDataDump(raw, dump);
    return await dumpTemplate(raw);
  } finally {
    await raw.close();
  }
}

/** The kept tarball of a template, built first when it is not there yet. */
async function pgliteTemplateFile(names: readonly string[], options: SyncedOptions): Promise<string> {
  const wanted = template('pglite', names, options);
  const file = path.join(PGLITE_CACHE_DIR, `${wanted.name}.tar`);
  if (!fs.existsSync(file)) {
    await whileBuilding(wanted, async () => {
      if (fs.existsSync(file)) return; // built by another worker while this one waited
      const built = names === SHARED_TEMPLATE ? await sharedPgliteTemplate() : await buildPgliteTemplate(names, options);
      fs.mkdirSync(PGLITE_CACHE_DIR, { recursive: true });
      const partial = `${file}.${randomBytes(4).toString('hex')}.partial`;
      fs.writeFileSync(partial, built);
      fs.renameSync(partial, file); // atomic: parallel workers never read half a file
    });
  }
  if (wanted.reusable) markTemplateUsed(wanted.name);
  return file;
}

async function pgliteTemplate(names: readonly string[], options: SyncedOptions): Promise<Blob> {
  // Definitions of the test's own are no part of the key: such a template is never shared.
  if (options.definitions !== undefined) return new Blob([await buildPgliteTemplate(names, options)]);
  for (;;) {
    const bytes = readIfPresent(await pgliteTemplateFile(names, options));
    if (bytes) return new Blob([bytes]);
    // Removed by another run's clean-up in between: the next round builds it again.
  }
}

function databaseUrl(name: string): string {
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function postgresTemplate(names: readonly string[], options: SyncedOptions): Promise<string> {
  const wanted = template('postgres', names, options);
  const name = wanted.name;
  await whileBuilding(wanted, async (admin) => {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount !== 0) return;
    const building = `${name}_b`;
    await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${building}`);
    const db = createPostgresDatabase(databaseUrl(building), createLogger('silent'));
    try {
      await runMigrations(db);
      await syncOrThrow(db, names, options);
    } catch (error) {
      await db.close();
      await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
      throw error;
    }
    await db.close();
    await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
  });
  if (wanted.reusable) markTemplateUsed(name);
  return name;
}

/** A clone of the template; false when the template is gone (removed by the clean-up of another run). */
async function cloneTemplate(template: string, clone: string): Promise<boolean> {
  return withAdmin(async (admin) => {
    for (let attempt = 0; ; attempt += 1) {
      try {
        await admin.query(`CREATE DATABASE ${clone} TEMPLATE ${template}`);
        return true;
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === '3D000') return false; // invalid_catalog_name: the template no longer exists
        // 55006: the template is briefly in use by another clone, or by pg_dump copying it to PGlite.
        if (code !== '55006' || attempt >= 300) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  });
}

let sharedTemplatesStarted = false;

/**
 * Starts building the shared template on both databases, once per worker, the first time either is
 * wanted: most files that want it want both. The PostgreSQL one is synced and the PGlite one copied
 * from it (sharedPgliteTemplate), so a file that wants only the embedded one does not wait for a sync
 * of its own. A build cut short (its worker ends) is taken up again by the next file that needs it
 * (whileBuilding).
 */
function buildSharedTemplatesAtOnce(): void {
  if (sharedTemplatesStarted) return;
  sharedTemplatesStarted = true;
  const ignore = () => undefined; // the file that needs the template gets the error from its own call
  void pgliteTemplateFile(SHARED_TEMPLATE, {}).catch(ignore);
  void postgresTemplate(SHARED_TEMPLATE, {}).catch(ignore);
}

/**
 * Builds the shared template on both databases unless kept from an earlier run: what
 * tests/support/build-shared-template.ts runs as a process of its own when the suite starts.
 */
export async function buildSharedTemplates(): Promise<void> {
  await pgliteTemplateFile(SHARED_TEMPLATE, {}); // builds the PostgreSQL one first
}

/** A migrated scratch database holding at least `requested` (and their dependencies), synced from the mirror. */
export async function syncedTestDatabase(
  kind: DatabaseKind,
  requested: readonly string[],
  options: SyncedOptions = {},
): Promise<TestDatabase> {
  const names = templateDatasets(requested, options);
  if (names === SHARED_TEMPLATE) buildSharedTemplatesAtOnce();
  if (kind === 'pglite') {
    const db = await createPgliteDatabase(undefined, { loadDataDir: await pgliteTemplate(names, options) });
    return { db, url: undefined, drop: () => db.close() };
  }
  const name = `mds_test_${randomBytes(6).toString('hex')}`;
  while (!(await cloneTemplate(await postgresTemplate(names, options), name))) {
    // Removed between the check and the clone: the next round builds it again.
  }
  const url = databaseUrl(name);
  const db = createPostgresDatabase(url, createLogger('silent'));
  return {
    db,
    url,
    async drop() {
      await db.close();
      await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}
