// The dataset versions this service publishes, read back as updates (./contract.ts) and told to
// whoever follows them: the feeds read the latest; MCP subscribers and the webhook queue are told of
// each new one. The sync records every new version in `dataset_versions` in the same transaction as
// the data, so that table is the log: nothing is told of a load that did not commit, and a version
// published by another instance is found at this process's next look (`check`, run after each
// publish of our own and by the job in ./job.ts every DATASET_UPDATES_POLL_MS).
import type { Database } from '../platform/db/database.ts';
import type { DatasetStatus } from '../platform/datasets.ts';
import type { Logger } from '../platform/logger.ts';
import { datasetDefinitions } from '../sync/registry.ts';
import type { DatasetUpdate } from './contract.ts';

export interface DatasetUpdates {
  /** The latest updates (those after update `after` when given), newest first. */
  latest(limit: number, after?: number): Promise<DatasetUpdate[]>;
  /** One update by id, or undefined. */
  find(id: number): Promise<DatasetUpdate | undefined>;
  /** Calls `listener` with each update this process learns of; returns the unsubscriber. */
  onPublished(listener: (update: DatasetUpdate) => void): () => void;
  /** Looks for versions published since the last look and tells the listeners (one look at a time). */
  check(): Promise<void>;
}

interface UpdateRow {
  id: number | string;
  dataset: string;
  version: string;
  as_of: string | null;
  row_count: number;
  changed_rows: number | null;
  source_url: string;
  published_at: string | Date;
  previous_version: string | null;
  previous_rows: number | null;
}

const DESCRIPTIONS = new Map(datasetDefinitions.map((definition) => [definition.name, definition.description]));

/** Each version with the one before it of the same dataset (by publication), newest first. */
const UPDATES_SQL = `
  SELECT id, dataset, version, to_char(as_of, 'YYYY-MM-DD') AS as_of, row_count, changed_rows, source_url, published_at,
         previous_version, previous_rows
  FROM (
    SELECT id, dataset, version, as_of, row_count, changed_rows, source_url, published_at,
           lag(version) OVER publication AS previous_version, lag(row_count) OVER publication AS previous_rows
    FROM dataset_versions
    WINDOW publication AS (PARTITION BY dataset ORDER BY published_at, id)
  ) versions`;

function toUpdate(row: UpdateRow): DatasetUpdate {
  const published = row.published_at instanceof Date ? row.published_at : new Date(row.published_at);
  return {
    id: Number(row.id),
    dataset: row.dataset,
    description: DESCRIPTIONS.get(row.dataset) ?? row.dataset,
    version: row.version,
    previous_version: row.previous_version,
    as_of: row.as_of,
    published_at: published.toISOString(),
    rows: Number(row.row_count),
    previous_rows: row.previous_rows === null ? null : Number(row.previous_rows),
    changed_rows: row.changed_rows === null ? null : Number(row.changed_rows),
    source_url: row.source_url,
  };
}

export function createDatasetUpdates({ db, datasets, logger }: { db: Database; datasets: DatasetStatus; logger: Logger }): DatasetUpdates {
  const listeners = new Set<(update: DatasetUpdate) => void>();
  // Where the looks start: the versions already published when the process started are history.
  let lastSeen: Promise<number> = db
    .query<{ id: string | null }>('SELECT max(id) AS id FROM dataset_versions')
    .then(({ rows }) => Number(rows[0]?.id ?? 0))
    .catch(() => 0);
  let running: Promise<void> | undefined;
  let again = false;

  async function look(): Promise<void> {
    const after = await lastSeen;
    const { rows } = await db.query<UpdateRow>(`${UPDATES_SQL} WHERE id > $1 ORDER BY id`, [after]);
    if (rows.length === 0) return;
    lastSeen = Promise.resolve(Number(rows.at(-1)!.id));
    for (const update of rows.map(toUpdate)) {
      for (const listener of listeners) {
        try {
          listener(update);
        } catch (error) {
          logger.error({ err: error, dataset: update.dataset }, 'a dataset-update listener failed');
        }
      }
    }
  }

  function check(): Promise<void> {
    if (running !== undefined) {
      again = true;
      return running;
    }
    running = look()
      .catch((error: unknown) => logger.warn({ err: error }, 'looking for new dataset versions failed'))
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          void check();
        }
      });
    return running;
  }

  // A publish of this process's own sync is told at once.
  datasets.onInvalidate(() => void check());

  return {
    async latest(limit, after = 0) {
      const { rows } = await db.query<UpdateRow>(`${UPDATES_SQL} WHERE id > $1 ORDER BY id DESC LIMIT $2`, [after, limit]);
      return rows.map(toUpdate);
    },
    async find(id) {
      const { rows } = await db.query<UpdateRow>(`${UPDATES_SQL} WHERE id = $1`, [id]);
      return rows[0] === undefined ? undefined : toUpdate(rows[0]);
    },
    onPublished(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    check,
  };
}
