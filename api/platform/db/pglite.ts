// Embedded PostgreSQL (PGlite, WebAssembly) persisted under DATA_DIR, so `npm start` needs no database
// server. PGlite allows one process per data folder: a pid lock file makes a second process fail
// with a clear message instead of corrupting the data.
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { Database, Queryable, QueryResult } from './database.ts';

/**
 * PGlite's own start parameters plus a smaller buffer pool: PostgreSQL's default 128 MB of
 * shared_buffers lives in the WebAssembly memory and stays resident once touched (a sync touches
 * all of it); the tables are a few hundred MB on disk, read through the OS's page cache. 32 MB
 * before: 16 MB took the RSS peak during a full sync from 493 to 453 MiB and idle after it from
 * 437 to 424 MiB.
 */
export const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

export class DatabaseInUseError extends Error {
  /** The process holding the folder, when known. */
  readonly holder: number | undefined;
  constructor(message: string, holder?: number) {
    super(message);
    this.holder = holder;
  }
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the folder's lock file, or throws DatabaseInUseError naming the process that holds it. */
export function acquireFolderLock(folder: string): () => void {
  const lockFile = path.join(folder, 'mds.pid');
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
      return () => fs.rmSync(lockFile, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(fs.readFileSync(lockFile, 'utf8').trim());
      if (Number.isInteger(holder) && holder !== process.pid && processIsAlive(holder)) {
        throw new DatabaseInUseError(
          `The embedded database in ${folder} is in use by process ${holder}. ` +
            'Stop that process first, or set DATABASE_URL to use PostgreSQL, which allows many processes.',
          holder,
        );
      }
      fs.rmSync(lockFile, { force: true }); // left behind by a process that died
    }
  }
  throw new DatabaseInUseError(`Could not lock the embedded database in ${folder}.`);
}

/** PGlite's query with pg's leniency: several statements without parameters go through `exec`. */
export function wrap(db: Pick<PGlite, 'query' | 'exec'>): Queryable {
  return {
    async query<Row>(sql: string, params?: readonly unknown[]): Promise<QueryResult<Row>> {
      // PGlite's `query` (extended protocol) refuses several statements in one call, which pg allows
      // without parameters (multi-statement migrations): send those through `exec` instead.
      if ((params === undefined || params.length === 0) && /;\s*\S/.test(sql.replace(/--[^\n]*/g, ''))) {
        const results = await db.exec(sql);
        const last = results[results.length - 1];
        return { rows: (last?.rows ?? []) as Row[], rowCount: last?.affectedRows ?? last?.rows.length ?? 0 };
      }
      const result = await db.query<Row>(sql, params as unknown[] | undefined);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    },
  };
}

/**
 * Advisory locks for a database one process owns: an in-process set of held keys is faithful.
 */
export function inProcessAdvisoryLocks(): Database['withAdvisoryLock'] {
  const heldLocks = new Set<number>();
  return async (key, work) => {
    if (heldLocks.has(key)) return { acquired: false };
    heldLocks.add(key);
    try {
      return { acquired: true, value: await work() };
    } finally {
      heldLocks.delete(key);
    }
  };
}

/**
 * Opens PGlite in `folder` (created when missing), or in memory when `folder` is undefined (tests).
 * `loadDataDir` starts it from a `dumpDataDir()` tarball (tests clone a synced database that way).
 */
export async function createPgliteDatabase(folder: string | undefined, options: { loadDataDir?: Blob } = {}): Promise<Database> {
  let releaseLock = (): void => undefined;
  if (folder !== undefined) {
    fs.mkdirSync(folder, { recursive: true });
    releaseLock = acquireFolderLock(folder);
  }
  let db: PGlite;
  try {
    const settings = { ...options, startParams: PGLITE_START_PARAMS };
    db = folder === undefined ? await PGlite.create(settings) : await PGlite.create(folder, settings);
  } catch (error) {
    releaseLock();
    throw error;
  }
  const queryable = wrap(db);

  return {
    kind: 'pglite',
    query: queryable.query,
    async exec(sql) {
      await db.exec(sql);
    },
    transaction(work) {
      return db.transaction((tx) => work(wrap(tx)));
    },
    withAdvisoryLock: inProcessAdvisoryLocks(),
    async close() {
      try {
        await db.close();
      } finally {
        releaseLock();
      }
    },
  };
}
