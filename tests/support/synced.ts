// Scratch databases with official datasets already synced from the mirror (SOURCE_DIR), for tests
// that need real data. Usage:
//
//   import { syncedTestDatabase } from '../support/synced.ts';
//   const { db, drop } = await syncedTestDatabase('postgres', ['loan_limits_conforming']);
//   ... // db is migrated and holds those datasets (and their dependencies); call drop() after.
//
//   syncedTestDatabase(kind: 'pglite' | 'postgres', names: string[], options?) → Promise<TestDatabase>
//     Same shape as createTestDatabase. Throws (with each failed dataset's message) when a dataset
//     does not load. Guard such suites with `describe.skipIf(!hasSourceData)`.
//     options.definitions: the DatasetDefinition list (default: api/sync/registry.ts).
//   syncInto(db, names, options?) → Promise<SyncReport>: syncs into a database you already have
//     (options.sourceDir to read a doctored copy of the mirror; options.options for --years etc.).
//     It does not throw on a failed dataset: inspect the report.
//
// Repeated use is cheap: the first call for a set of names syncs once per test run into a template
// (PostgreSQL: a database `mds_tpl_<run>_<hash>` cloned with CREATE DATABASE … TEMPLATE; PGlite: a
// dumpDataDir() tarball in the system temp folder loaded with loadDataDir). Templates are keyed by
// the run id set in tests/global-setup.ts, the dataset names and the migrations, and are removed at
// the end of the run.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { loadConfig } from '../../api/config.ts';
import type { Database, QueryResult, Queryable } from '../../api/platform/db/database.ts';
import { createPgliteDatabase } from '../../api/platform/db/pglite.ts';
import { createPostgresDatabase } from '../../api/platform/db/postgres.ts';
import { listMigrations, runMigrations } from '../../api/platform/db/migrate.ts';
import { createLogger } from '../../api/platform/logger.ts';
import { datasetDefinitions } from '../../api/sync/registry.ts';
import { runSync, type SyncReport } from '../../api/sync/runner.ts';
import type { DatasetDefinition } from '../../api/sync/types.ts';
import { POSTGRES_ADMIN_URL, type DatabaseKind, type TestDatabase } from './databases.ts';
import { SOURCE_DIR } from './source-data.ts';
import { PGLITE_CACHE_DIR, TEMPLATE_PREFIX, withAdmin } from './synced-templates.ts';

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

function templateKey(names: readonly string[], options: SyncedOptions): string {
  const hash = createHash('sha256');
  hash.update([...names].sort().join(','));
  hash.update(JSON.stringify(options.options ?? {}));
  hash.update(options.sourceDir ?? SOURCE_DIR);
  for (const migration of listMigrations()) hash.update(`${migration.name}\n${migration.sql}`);
  return hash.digest('hex').slice(0, 16);
}

const sameDataset = (options: SyncedOptions) => options.definitions === undefined;

/** A Database over a raw PGlite (so its data folder can be dumped). */
function rawPgliteDatabase(raw: PGlite): Database {
  const wrap = (client: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    async query<Row>(sql: string, params?: readonly unknown[]): Promise<QueryResult<Row>> {
      // Several statements without parameters (migrations) go through `exec`, as in api/platform/db/pglite.ts.
      if ((params === undefined || params.length === 0) && /;\s*\S/.test(sql.replace(/--[^\n]*/g, ''))) {
        const results = await client.exec(sql);
        const last = results[results.length - 1];
        return { rows: (last?.rows ?? []) as Row[], rowCount: last?.affectedRows ?? last?.rows.length ?? 0 };
      }
      const result = await client.query<Row>(sql, params as unknown[] | undefined);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    },
  });
  let locked = false;
  return {
    kind: 'pglite',
    query: wrap(raw).query,
    exec: async (sql) => void (await raw.exec(sql)),
    transaction: (work) => raw.transaction((tx) => work(wrap(tx))),
    async withAdvisoryLock(_key, work) {
      if (locked) return { acquired: false };
      locked = true;
      try {
        return { acquired: true, value: await work() };
      } finally {
        locked = false;
      }
    },
    close: () => raw.close(),
  };
}

async function pgliteTemplate(names: readonly string[], options: SyncedOptions): Promise<Blob> {
  const file = path.join(PGLITE_CACHE_DIR, `${TEST_RUN_ID}-${templateKey(names, options)}.tar`);
  if (sameDataset(options) && fs.existsSync(file)) return new Blob([fs.readFileSync(file)]);
  const raw = await PGlite.create();
  try {
    const db = rawPgliteDatabase(raw);
    await runMigrations(db);
    await syncOrThrow(db, names, options);
    const dump = await raw.dumpDataDir('none');
    const bytes = Buffer.from(await dump.arrayBuffer());
    if (sameDataset(options)) {
      fs.mkdirSync(PGLITE_CACHE_DIR, { recursive: true });
      const partial = `${file}.${randomBytes(4).toString('hex')}.partial`;
      fs.writeFileSync(partial, bytes);
      fs.renameSync(partial, file); // atomic: parallel workers never read half a file
    }
    return new Blob([bytes]);
  } finally {
    await raw.close();
  }
}

function databaseUrl(name: string): string {
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function postgresTemplate(names: readonly string[], options: SyncedOptions): Promise<string> {
  const template = `${TEMPLATE_PREFIX}${TEST_RUN_ID}_${templateKey(names, options)}`.toLowerCase();
  const lockKey = Number.parseInt(templateKey(names, options).slice(0, 8), 16);
  return withAdmin(async (admin) => {
    // Parallel test files wanting the same template wait for the first to build it.
    await admin.query('SELECT pg_advisory_lock($1)', [lockKey]);
    try {
      const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
      if (exists.rowCount === 0) {
        const building = `${template}_b`;
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
        await admin.query(`ALTER DATABASE ${building} RENAME TO ${template}`);
      }
    } finally {
      await admin.query('SELECT pg_advisory_unlock($1)', [lockKey]);
    }
    return template;
  });
}

/** A migrated scratch database holding `names` (and their dependencies), synced from the mirror. */
export async function syncedTestDatabase(
  kind: DatabaseKind,
  names: readonly string[],
  options: SyncedOptions = {},
): Promise<TestDatabase> {
  if (kind === 'pglite') {
    const db = await createPgliteDatabase(undefined, { loadDataDir: await pgliteTemplate(names, options) });
    return { db, url: undefined, drop: () => db.close() };
  }
  const template = await postgresTemplate(names, options);
  const name = `mds_test_${randomBytes(6).toString('hex')}`;
  await withAdmin(async (admin) => {
    for (let attempt = 0; ; attempt += 1) {
      try {
        await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
        return;
      } catch (error) {
        // 55006: the template is briefly in use by another clone; try again.
        if ((error as { code?: string }).code !== '55006' || attempt >= 50) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  });
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
