// The sync lock: one sync at a time against a database (a PostgreSQL advisory lock, shared by every
// instance; with the embedded database, which one process owns, an in-process one). Readers ask
// whether it is held to tell a load in progress from one whose process died mid-way. It lives with
// the database, not in api/sync, because the dataset status (../datasets.ts) reads it too, and the
// platform layer imports no feature.
import { AdvisoryLocks, type Database } from './database.ts';

/** Databases this process is syncing into right now. */
const heldHere = new WeakSet<Database>();

export async function withSyncLock<T>(db: Database, work: () => Promise<T>): Promise<{ acquired: true; value: T } | { acquired: false }> {
  return db.withAdvisoryLock(AdvisoryLocks.sync, async () => {
    heldHere.add(db);
    try {
      return await work();
    } finally {
      heldHere.delete(db);
    }
  });
}

/** Whether this process is syncing into `db` right now (no database read). */
export function syncingHere(db: Database): boolean {
  return heldHere.has(db);
}

/**
 * True while some process holds the sync lock of this database. PostgreSQL releases an advisory lock
 * when its session ends, so a sync whose process was killed stops holding it at once.
 */
export async function syncLockHeld(db: Database): Promise<boolean> {
  if (heldHere.has(db)) return true;
  if (db.kind !== 'postgres') return false; // the embedded database: only this process can sync
  // pg_try_advisory_lock(bigint) shows as classid = high 32 bits, objid = low 32 bits, objsubid = 1.
  const { rows } = await db.query<{ held: boolean }>(
    `SELECT EXISTS (
       SELECT 1 FROM pg_locks
        WHERE locktype = 'advisory' AND granted AND classid = 0 AND objid = $1 AND objsubid = 1
          AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
     ) AS held`,
    [AdvisoryLocks.sync],
  );
  return rows[0]?.held === true;
}
