// Which datasets are loaded, as of when, from where: read from the `datasets` table that sync
// writes. Routes ask `require(name)` so an install whose first sync is still running answers 503
// with Retry-After instead of an empty result.
import type { Database } from './db/database.ts';
import { ServiceUnavailableError } from './http/errors.ts';

export interface DatasetRecord {
  name: string;
  asOf: string | null;
  sourceUrl: string;
  checksum: string | null;
  rows: number;
  loadedAt: string;
  /**
   * Parts of a dataset assembled from several publishers that did not load this time, one
   * sentence each (from the load's `details.missing`); their earlier rows stay served.
   */
  missing?: string[];
}

export interface DatasetStatus {
  /** Every loaded dataset, fresh from the database (falls back to the last good read on failure). */
  list(): Promise<DatasetRecord[]>;
  /** The record, or a 503 saying the dataset is still loading. */
  require(name: string): Promise<DatasetRecord>;
  /** Forget cached reads (after a sync publishes). */
  invalidate(): void;
}

interface DatasetRow {
  name: string;
  as_of: string | Date | null;
  source_url: string;
  checksum: string | null;
  row_count: number;
  loaded_at: string | Date;
  missing: unknown;
}

const toDate = (value: string | Date | null): string | null =>
  value === null ? null : value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10);

function missingOf(value: unknown): { missing?: string[] } {
  const list = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  return Array.isArray(list) && list.length > 0 ? { missing: list.map(String) } : {};
}

export function createDatasetStatus(db: Database, cacheMs = 5_000): DatasetStatus {
  let cached: { at: number; records: DatasetRecord[] } | undefined;

  async function list(): Promise<DatasetRecord[]> {
    if (cached && Date.now() - cached.at < cacheMs) return cached.records;
    try {
      const { rows } = await db.query<DatasetRow>(
        "SELECT name, as_of, source_url, checksum, row_count, loaded_at, details -> 'missing' AS missing FROM datasets ORDER BY name",
      );
      const records = rows.map((row) => ({
        name: row.name,
        asOf: toDate(row.as_of),
        sourceUrl: row.source_url,
        checksum: row.checksum,
        rows: Number(row.row_count),
        loadedAt: row.loaded_at instanceof Date ? row.loaded_at.toISOString() : String(row.loaded_at),
        ...missingOf(row.missing),
      }));
      cached = { at: Date.now(), records };
      return records;
    } catch (error) {
      if (cached) return cached.records;
      throw error;
    }
  }

  return {
    list,
    async require(name) {
      const record = (await list()).find((candidate) => candidate.name === name);
      if (!record) {
        throw new ServiceUnavailableError(
          `The ${name} dataset is not loaded yet (the first sync may still be running); retry shortly.`,
          30,
        );
      }
      return record;
    },
    invalidate() {
      cached = undefined;
    },
  };
}
