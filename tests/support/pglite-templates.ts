// Starting points for embedded test databases. A new in-memory PGlite runs initdb inside
// WebAssembly, which takes seconds (tens of seconds on a busy two-core machine), and the migrations
// add more; starting from a dumpDataDir() tarball of a database that already went through both takes
// a fraction of that. The tarballs are built once, kept in the system temp folder across runs, and
// named by a checksum of what they hold (PGlite's version, and the migrations for a migrated one).
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { Database, QueryResult, Queryable } from '../../api/platform/db/database.ts';
import { listMigrations, runMigrations } from '../../api/platform/db/migrate.ts';
import { TEST_CACHE_DIR as PGLITE_CACHE_DIR, readIfPresent } from './test-cache-dir.ts';

/** The prefix of these tarballs' names; tests/support/synced-templates.ts removes unused ones. */
export const STARTING_POINT_PREFIX = 'mds_start_';

/** A Database over a raw PGlite (so its data folder can be dumped). */
export function rawPgliteDatabase(raw: PGlite): Database {
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

function pgliteVersion(): string {
  const manifest = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'node_modules', '@electric-sql', 'pglite', 'package.json');
  return fs.existsSync(manifest) ? (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version : 'unknown';
}

function startingPointFile(migrated: boolean): string {
  const hash = createHash('sha256').update(`pglite ${pgliteVersion()}\n`);
  if (migrated) for (const migration of listMigrations()) hash.update(`${migration.name}\n${migration.sql}`);
  const name = `${STARTING_POINT_PREFIX}${migrated ? 'migrated' : 'empty'}_${hash.digest('hex').slice(0, 16)}.tar`;
  return path.join(PGLITE_CACHE_DIR, name);
}

async function build(migrated: boolean): Promise<Buffer> {
  const raw = await PGlite.create();
  try {
    if (migrated) await runMigrations(rawPgliteDatabase(raw));
    return Buffer.from(await (await raw.dumpDataDir('none')).arrayBuffer());
  } finally {
    await raw.close();
  }
}

const loaded = new Map<boolean, Promise<Blob>>();

async function readOrBuild(migrated: boolean): Promise<Blob> {
  const file = startingPointFile(migrated);
  const kept = readIfPresent(file);
  if (kept) {
    const now = new Date();
    fs.utimesSync(file, now, now); // in use: the clean-up keeps it
    return new Blob([kept]);
  }
  // Two workers may both build it on the very first run; the rename keeps either whole.
  const bytes = await build(migrated);
  fs.mkdirSync(PGLITE_CACHE_DIR, { recursive: true });
  const partial = `${file}.${randomBytes(4).toString('hex')}.partial`;
  fs.writeFileSync(partial, bytes);
  fs.renameSync(partial, file);
  return new Blob([bytes]);
}

/**
 * A tarball for PGlite's `loadDataDir`: a fresh database cluster, migrated or not. Read once per
 * worker; a PGlite started from it has a data folder of its own.
 */
export function pgliteStartingPoint({ migrated }: { migrated: boolean }): Promise<Blob> {
  let blob = loaded.get(migrated);
  if (!blob) {
    blob = readOrBuild(migrated);
    blob.catch(() => loaded.delete(migrated));
    loaded.set(migrated, blob);
  }
  return blob;
}
