// The two databases every integration test runs against: embedded PGlite (in memory) and a real
// PostgreSQL (127.0.0.1:5432 unless TEST_DATABASE_URL says otherwise). Each PostgreSQL test gets a
// database of its own, created here and dropped after, so test files can run in parallel.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Database } from '../../api/platform/db/database.ts';
import { createPgliteDatabase } from '../../api/platform/db/pglite.ts';
import { createPostgresDatabase } from '../../api/platform/db/postgres.ts';
import { runMigrations } from '../../api/platform/db/migrate.ts';
import { createLogger } from '../../api/platform/logger.ts';
import { pgliteStartingPoint } from './pglite-templates.ts';

export const POSTGRES_ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  db: Database;
  /** The connection string, for PostgreSQL (to start a second process against the same data). */
  url: string | undefined;
  drop(): Promise<void>;
}

/** Creates an empty PostgreSQL database and returns its URL; `drop` removes it. */
export async function createScratchPostgres(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `mds_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

export const databaseKinds = ['pglite', 'postgres'] as const;
export type DatabaseKind = (typeof databaseKinds)[number];

/** A migrated, empty database of the given kind. */
export async function createTestDatabase(kind: DatabaseKind, { migrate = true } = {}): Promise<TestDatabase> {
  if (kind === 'pglite') {
    // From a kept tarball of an initialised (and migrated) cluster: initdb in WebAssembly is slow.
    const db = await createPgliteDatabase(undefined, { loadDataDir: await pgliteStartingPoint({ migrated: migrate }) });
    if (migrate) await runMigrations(db); // a no-op unless the migrations changed since the tarball was made
    return { db, url: undefined, drop: () => db.close() };
  }
  const scratch = await createScratchPostgres();
  const db = createPostgresDatabase(scratch.url, createLogger('silent'));
  if (migrate) await runMigrations(db);
  return {
    db,
    url: scratch.url,
    async drop() {
      await db.close();
      await scratch.drop();
    },
  };
}
