// Which datasets are loaded, as of when, from where (the `datasets` table sync writes), and, for one
// that is not, why not (the `sync_runs` table: loading now, last load failed, or never tried). Routes
// ask `require(name)`, which answers with the record or throws the 503 whose words every face shows
// (./dataset-states.ts).
import type { Database, Queryable } from './db/database.ts';
import { ServiceUnavailableError } from './errors.ts';
import { missingDatasetError, type DatasetAvailability, type MissingDataset } from './dataset-states.ts';
import { INTERRUPTED_REASON, latestAttempts, type Attempt } from './sync-attempts.ts';
import { syncingHere, syncLockHeld } from './db/sync-lock.ts';
import { dayText } from './dates.ts';

export interface DatasetRecord {
  name: string;
  /** The publisher's date: the file's vintage, release or latest observation. */
  asOf: string | null;
  sourceUrl: string;
  checksum: string | null;
  rows: number;
  /** When our sync published this load (not the data's date). */
  loadedAt: string;
  /**
   * Parts of a dataset assembled from several publishers that did not load this time, one
   * sentence each (from the load's `details.missing`); their earlier rows stay served.
   */
  missing?: string[];
}

/** A dataset as /healthz shows it. */
export interface DatasetOverview {
  name: string;
  record: DatasetRecord | undefined;
  availability: DatasetAvailability;
  /** While a load of it runs (a refresh of a loaded dataset too). */
  loadingSince?: string;
  /** When its latest attempt failed (a loaded dataset keeps serving its previous load). */
  lastFailure?: { at: string; reason: string };
  /** When its latest attempt found nothing to load in this setup (a file the source folder lacks): not a failure. */
  skipped?: { at: string; reason: string };
}

export interface DatasetStatus {
  /** Every loaded dataset, fresh from the database (falls back to the last good read on failure). */
  list(): Promise<DatasetRecord[]>;
  /** The record, or the 503 saying whether the dataset is loading, failed or was never loaded. */
  require(name: string): Promise<DatasetRecord>;
  /** Where one dataset stands. */
  availability(name: string): Promise<DatasetAvailability>;
  /**
   * Every dataset that is loaded or was ever attempted, plus `known` ones (never loaded). While this
   * process syncs, a read the database does not answer within OVERVIEW_PATIENCE_MS gives the last
   * overview instead (see there).
   */
  overview(known?: readonly string[]): Promise<DatasetOverview[]>;
  /** Forget cached reads (after a sync publishes). */
  invalidate(): void;
  /**
   * Calls `listener` after every invalidate(), i.e. when this process may have published a dataset;
   * what is derived from the data (static files, rendered pages) re-checks then. Returns the unsubscriber.
   */
  onInvalidate(listener: () => void): () => void;
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

const toDate = (value: string | Date | null): string | null => (value === null ? null : dayText(value));

function missingOf(value: unknown): { missing?: string[] } {
  const list = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  return Array.isArray(list) && list.length > 0 ? { missing: list.map(String) } : {};
}

interface Attempts {
  latest: Map<string, Attempt>;
  /** Whether some process holds the sync lock (asked only when an attempt says it is running). */
  lockHeld: boolean;
}

/** Where a dataset stands, from its record, its latest attempt and whether a sync holds the lock. */
export function describeDataset(name: string, record: DatasetRecord | undefined, attempts: Attempts): DatasetOverview {
  const attempt = attempts.latest.get(name);
  // A 'running' attempt while nobody holds the lock belongs to a process that died mid-load.
  const loadingSince = attempt?.status === 'running' && attempts.lockHeld ? attempt.startedAt : undefined;
  let lastFailure: DatasetOverview['lastFailure'];
  let skipped: DatasetOverview['skipped'];
  if (attempt?.status === 'running' && loadingSince === undefined) lastFailure = { at: attempt.startedAt, reason: INTERRUPTED_REASON };
  else if (attempt && (attempt.status === 'failed' || attempt.status === 'interrupted')) {
    lastFailure = { at: attempt.finishedAt ?? attempt.startedAt, reason: attempt.reason ?? 'An internal error stopped the load.' };
  } else if (attempt?.status === 'skipped') {
    skipped = { at: attempt.finishedAt ?? attempt.startedAt, reason: attempt.reason ?? 'Its source has nothing to load here.' };
  }
  return {
    name,
    record,
    availability: record ? { state: 'loaded' } : missingState(loadingSince, lastFailure, skipped),
    ...(loadingSince !== undefined ? { loadingSince } : {}),
    ...(lastFailure ? { lastFailure } : {}),
    ...(skipped ? { skipped } : {}),
  };
}

function missingState(
  loadingSince: string | undefined,
  lastFailure: DatasetOverview['lastFailure'],
  skipped: DatasetOverview['skipped'],
): MissingDataset {
  if (loadingSince !== undefined) return { state: 'loading', since: loadingSince };
  if (lastFailure) return { state: 'failed', ...lastFailure };
  if (skipped) return { state: 'missing', ...skipped };
  return { state: 'never_loaded' };
}

/** Where a dataset without a record stands. */
function describeMissing(name: string, attempts: Attempts): MissingDataset {
  const { loadingSince, lastFailure, skipped } = describeDataset(name, undefined, attempts);
  return missingState(loadingSince, lastFailure, skipped);
}

/** The loaded datasets' records, read now (inside a caller's transaction too, e.g. a search rebuild). */
export async function readDatasetRecords(db: Queryable): Promise<DatasetRecord[]> {
  const { rows } = await db.query<DatasetRow>(
    "SELECT name, as_of, source_url, checksum, row_count, loaded_at, details -> 'missing' AS missing FROM datasets ORDER BY name",
  );
  return rows.map((row) => ({
    name: row.name,
    asOf: toDate(row.as_of),
    sourceUrl: row.source_url,
    checksum: row.checksum,
    rows: Number(row.row_count),
    loadedAt: row.loaded_at instanceof Date ? row.loaded_at.toISOString() : String(row.loaded_at),
    ...missingOf(row.missing),
  }));
}

/**
 * How long an overview waits for the database while this process syncs before it answers from the
 * last one. The embedded database runs one transaction at a time, so a read waits while a dataset's
 * load writes (a second or more); /healthz, which reads the overview, must keep answering meanwhile.
 * The last overview is at most one dataset behind, and says which datasets are loading. After the
 * sync every read is fresh again.
 */
const OVERVIEW_PATIENCE_MS = 25;

type OverviewRead = [DatasetRecord[], Attempts];

export function createDatasetStatus({ db, cacheMs = 5_000 }: { db: Database; cacheMs?: number }): DatasetStatus {
  let cached: { at: number; records: DatasetRecord[] } | undefined;
  let cachedAttempts: { at: number; attempts: Promise<Attempts> } | undefined;
  const listeners = new Set<() => void>();
  let lastOverview: OverviewRead | undefined;

  async function list(): Promise<DatasetRecord[]> {
    if (cached && Date.now() - cached.at < cacheMs) return cached.records;
    try {
      const records = await readDatasetRecords(db);
      cached = { at: Date.now(), records };
      return records;
    } catch (error) {
      if (cached) return cached.records;
      throw error;
    }
  }

  /** Read only when something is missing or /healthz asks, and shared by concurrent callers. */
  function attempts(): Promise<Attempts> {
    if (cachedAttempts && Date.now() - cachedAttempts.at < cacheMs) return cachedAttempts.attempts;
    const read = (async () => {
      const latest = await latestAttempts(db);
      const anyRunning = [...latest.values()].some((attempt) => attempt.status === 'running');
      return { latest, lockHeld: anyRunning && (await syncLockHeld(db)) };
    })();
    cachedAttempts = { at: Date.now(), attempts: read };
    read.catch(() => {
      if (cachedAttempts?.attempts === read) cachedAttempts = undefined;
    });
    return read;
  }

  async function availability(name: string): Promise<DatasetAvailability> {
    const record = (await list()).find((candidate) => candidate.name === name);
    if (record) return { state: 'loaded' };
    return describeMissing(name, await attempts());
  }

  return {
    list,
    availability,
    async require(name) {
      const record = (await list()).find((candidate) => candidate.name === name);
      if (record) return record;
      const read = await attempts().catch(() => undefined);
      // Without the attempts (the database just failed), say only what is certain.
      if (read === undefined) throw new ServiceUnavailableError(`The ${name} dataset is not loaded yet; retry in a minute.`, 60);
      throw missingDatasetError(name, describeMissing(name, read));
    },
    async overview(known = []) {
      const fresh = Promise.all([list(), attempts()]).then((read): OverviewRead => (lastOverview = read));
      const [records, read] = lastOverview !== undefined && syncingHere(db) ? await withinPatience(fresh, lastOverview) : await fresh;
      const byName = new Map(records.map((record) => [record.name, record]));
      const names = [...new Set([...known, ...byName.keys(), ...read.latest.keys()])].sort();
      return names.map((name) => describeDataset(name, byName.get(name), read));
    },
    invalidate() {
      cached = undefined;
      cachedAttempts = undefined;
      for (const listener of listeners) listener();
    },
    onInvalidate(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** `read`, or `fallback` when `read` has not settled within OVERVIEW_PATIENCE_MS. */
function withinPatience(read: Promise<OverviewRead>, fallback: OverviewRead): Promise<OverviewRead> {
  let timer: NodeJS.Timeout | undefined;
  const patience = new Promise<OverviewRead>((resolve) => {
    timer = setTimeout(() => resolve(fallback), OVERVIEW_PATIENCE_MS);
    timer.unref();
  });
  read.catch(() => undefined); // a failed read still reaches the callers that waited for it
  return Promise.race([read, patience]).finally(() => clearTimeout(timer));
}
