// The reading side of the `sync_runs` table (api/sync/run-records.ts writes it): each dataset's latest
// load attempt, from which the dataset status (./datasets.ts) tells "loading since", "last load
// failed" and "never loaded" apart. It sits in the platform layer so that status needs nothing from
// the sync feature.
import type { Queryable } from './db/database.ts';

export type AttemptStatus = 'running' | 'ok' | 'failed' | 'skipped' | 'interrupted';

export interface Attempt {
  id: number;
  runId: string;
  dataset: string;
  status: AttemptStatus;
  startedAt: string;
  finishedAt: string | null;
  /** The failure in one sentence for readers (null when it loaded). */
  reason: string | null;
}

/** What a reader is told about an attempt that a process ended without finishing. */
export const INTERRUPTED_REASON = 'The load was interrupted before it finished.';

const iso = (value: unknown): string => (value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString());

/** Each dataset's latest attempt, whatever its outcome. */
export async function latestAttempts(db: Queryable): Promise<Map<string, Attempt>> {
  const { rows } = await db.query<{
    id: string | number;
    run_id: string;
    dataset: string;
    status: AttemptStatus;
    started_at: string | Date;
    finished_at: string | Date | null;
    reason: string | null;
  }>(
    `SELECT DISTINCT ON (dataset) id, run_id, dataset, status, started_at, finished_at, reason
       FROM sync_runs ORDER BY dataset, id DESC`,
  );
  return new Map(
    rows.map((row) => [
      row.dataset,
      {
        id: Number(row.id),
        runId: row.run_id,
        dataset: row.dataset,
        status: row.status,
        startedAt: iso(row.started_at),
        finishedAt: row.finished_at === null ? null : iso(row.finished_at),
        reason: row.reason,
      },
    ]),
  );
}
