// Pinned dataset versions, the writing side: after a dataset loads (in the same transaction), a load
// whose version differs from the last one recorded is archived with the snapshot the dataset's
// `archive` gives (what the service answers from), and snapshots beyond the last
// KEPT_DATASET_VERSIONS loads are cleared. Their rows stay, so a day served by a pruned version
// answers "no longer kept" instead of "never loaded".
import { gzipSync } from 'node:zlib';
import { KEPT_DATASET_VERSIONS } from '../platform/contract/versions.ts';
import type { Queryable } from '../platform/db/database.ts';
import { versionId } from '../platform/dataset-versions.ts';
import type { DatasetDefinition, DatasetLoadResult } from './types.ts';

export interface RecordedVersion {
  version: string;
  /** False when the load's version was already the latest recorded (nothing archived). */
  archived: boolean;
  /** Snapshots cleared by this load (older than the kept window). */
  pruned: number;
}

export async function recordVersion(
  tx: Queryable,
  definition: Pick<DatasetDefinition, 'name' | 'archive'>,
  loaded: DatasetLoadResult,
  publishedAt: Date,
  keep: number = KEPT_DATASET_VERSIONS,
): Promise<RecordedVersion> {
  const version = versionId(loaded.asOf, loaded.checksum);
  const { rows } = await tx.query<{ version: string }>(
    'SELECT version FROM dataset_versions WHERE dataset = $1 ORDER BY published_at DESC, id DESC LIMIT 1',
    [definition.name],
  );
  if (rows[0]?.version === version) return { version, archived: false, pruned: 0 };
  const snapshot = definition.archive ? gzipSync(JSON.stringify(await definition.archive(tx))) : null;
  await tx.query(
    `INSERT INTO dataset_versions (dataset, version, as_of, checksum, source_url, row_count, changed_rows, published_at, snapshot)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      definition.name,
      version,
      loaded.asOf,
      loaded.checksum,
      loaded.sourceUrl,
      loaded.rows,
      loaded.changed ?? null,
      publishedAt.toISOString(),
      snapshot,
    ],
  );
  const pruned = await tx.query(
    `UPDATE dataset_versions SET snapshot = NULL
     WHERE dataset = $1 AND snapshot IS NOT NULL AND id NOT IN (
       SELECT id FROM dataset_versions WHERE dataset = $1 ORDER BY published_at DESC, id DESC LIMIT $2)`,
    [definition.name, keep],
  );
  return { version, archived: true, pruned: pruned.rowCount };
}
