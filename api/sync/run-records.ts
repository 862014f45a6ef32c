// The `sync_runs` table: one row per dataset per sync, written when the sync starts ('running', for
// every dataset it will load), moved on when that dataset's load starts, and completed when it ends.
// Readers on any instance learn from it whether a dataset is loading now, and why its last load
// failed. This module writes the table; its reader is ../platform/sync-attempts.ts, which the dataset
// status uses.
import type { Queryable } from '../platform/db/database.ts';
import { INTERRUPTED_REASON } from '../platform/sync-attempts.ts';

export interface FinishedAttempt {
  name: string;
  status: 'ok' | 'failed' | 'skipped';
  asOf: string | undefined;
  rows: number | undefined;
  changed: number | undefined;
  message: string;
  reason?: string;
  /** Skipped because datasets it needs did not load: recorded as failed. */
  blockedBy?: string[];
}

/**
 * Attempts left 'running' by a sync whose process died. Only the holder of the sync lock calls this,
 * so no other sync can be running.
 */
export async function closeInterrupted(db: Queryable): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE sync_runs SET status = 'interrupted', reason = $1,
       message = 'the process running this sync stopped before the dataset finished loading'
     WHERE status = 'running'`,
    [INTERRUPTED_REASON],
  );
  return rowCount;
}

/** Records every planned dataset as loading, so other instances can say so; returns each row's id. */
export async function queueAttempts(db: Queryable, runId: string, names: readonly string[], at: Date): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  if (names.length === 0) return ids;
  const { rows } = await db.query<{ id: string | number; dataset: string }>(
    `INSERT INTO sync_runs (run_id, dataset, status, started_at)
     SELECT $1, dataset, 'running', $2 FROM unnest($3::text[]) AS dataset
     RETURNING id, dataset`,
    [runId, at.toISOString(), names],
  );
  for (const row of rows) ids.set(row.dataset, Number(row.id));
  return ids;
}

export async function markStarted(db: Queryable, id: number, at: Date): Promise<void> {
  await db.query('UPDATE sync_runs SET started_at = $2 WHERE id = $1', [id, at.toISOString()]);
}

/** Completes the attempt's row (or writes one, when queueing it failed). */
export async function finishAttempt(
  db: Queryable,
  {
    id,
    runId,
    startedAt,
    finishedAt,
    checksum,
  }: { id: number | undefined; runId: string; startedAt: Date; finishedAt: Date; checksum: string | undefined },
  result: FinishedAttempt,
): Promise<void> {
  // A dataset skipped because its inputs did not load has failed for readers; `skipped` is kept for a
  // source with nothing to load in this setup (shown as missing, not failed).
  const status = result.status === 'skipped' && result.blockedBy?.length ? 'failed' : result.status;
  const values = [
    status,
    startedAt.toISOString(),
    finishedAt.toISOString(),
    result.asOf ?? null,
    result.rows ?? null,
    result.changed ?? null,
    checksum ?? null,
    result.message || null,
    result.reason ?? null,
  ];
  if (id !== undefined) {
    await db.query(
      `UPDATE sync_runs SET status = $2, started_at = $3, finished_at = $4, as_of = $5, row_count = $6, changed = $7,
         checksum = $8, message = $9, reason = $10
       WHERE id = $1`,
      [id, ...values],
    );
    return;
  }
  await db.query(
    `INSERT INTO sync_runs (run_id, dataset, status, started_at, finished_at, as_of, row_count, changed, checksum, message, reason)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [runId, result.name, ...values],
  );
}

/** Drops the rows of datasets this sync queued but never started (it was stopped first). */
export async function dropUnstarted(db: Queryable, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.query("DELETE FROM sync_runs WHERE id = ANY($1::bigint[]) AND status = 'running'", [ids]);
}
