// Pinned dataset versions, the reading side: which version of each dataset an answer was computed
// from (the current load, from the `datasets` records) and, for `as_of=YYYY-MM-DD`, which version
// this service served at the end of that day and what it answered from (the snapshot the sync
// archived in `dataset_versions`, unpacked on demand and remembered for a few versions).
import { gunzipSync } from 'node:zlib';
import type { Clock } from './clock.ts';
import type { DatasetVersion } from './contract/versions.ts';
import type { Queryable } from './db/database.ts';
import type { DatasetRecord, DatasetStatus } from './datasets.ts';
import { BoundedCache } from './bounded-cache.ts';
import { BadRequestError, GoneError, NotFoundError } from './errors.ts';
import { addDays, isoDay } from './dates.ts';

/** A version id: the publisher's vintage and the content checksum's first 8 hex digits. */
export function versionId(asOf: string | null, checksum: string | null): string {
  return `${asOf ?? 'undated'}.${(checksum ?? '').slice(0, 8) || 'unknown'}`;
}

/** The version of a loaded dataset's current load. */
export function currentVersion(record: DatasetRecord): DatasetVersion {
  return { dataset: record.name, version: versionId(record.asOf, record.checksum), as_of: record.asOf };
}

/** The current versions of the named datasets that are loaded, in the order named. */
export function currentVersions(records: readonly DatasetRecord[], names: readonly string[]): DatasetVersion[] {
  return names.flatMap((name) => {
    const record = records.find((candidate) => candidate.name === name);
    return record ? [currentVersion(record)] : [];
  });
}

/** A version served at the end of an asked day. */
export interface PinnedVersion extends DatasetVersion {
  /** The archived row holding its snapshot; undefined when it is the current load (answered from memory). */
  archiveId?: number;
  /** Whether it is the dataset's current load. */
  current: boolean;
  /** The publisher URL that load cited. */
  sourceUrl: string;
  /** When this service first published it (ISO 8601). */
  publishedAt: string;
}

export interface PinRequest {
  /** Datasets the answer cannot be made without. */
  required: readonly string[];
  /** Datasets the answer uses when they were loaded that day (e.g. lender rate sheets). */
  optional?: readonly string[];
}

export interface DatasetVersions {
  /**
   * The version of each dataset served at the end of `day` (UTC). Throws 400 for a future day, 404
   * when a required dataset was not loaded yet that day, 410 when its version of that day is no
   * longer kept; both name the oldest kept version.
   */
  pin(request: PinRequest, day: string): Promise<PinnedVersion[]>;
  /**
   * The snapshot a version was archived with (JSON, as the dataset's `archive` wrote it). `live`
   * reads the same from the tables, for a current load recorded before versions were archived.
   */
  snapshot<T>(version: PinnedVersion, live?: () => Promise<T>): Promise<T>;
  /**
   * Whether a resolution from `pin` is exactly the current loads (each pinned version current, and
   * no dataset asked for loaded since): the answer is then the current one.
   */
  allCurrent(versions: readonly PinnedVersion[]): boolean;
}

interface VersionRow {
  id: number | string;
  version: string;
  source_url: string;
  as_of: string | null;
  published_at: string | Date;
  kept: boolean;
}

/** Snapshots unpacked and kept in memory (each a dataset's whole load, a few MB at most: counted, not sized, as they are still being read when kept). */
const MAX_UNPACKED = 6;
/** Day resolutions remembered between dataset-list reads. */
const MAX_RESOLVED = 1_000;

const isoOf = (value: string | Date): string => (value instanceof Date ? value.toISOString() : new Date(value).toISOString());

/** "2026-03-02 at 06:30 UTC" */
const when = (iso: string): string => `${iso.slice(0, 10)} at ${iso.slice(11, 16)} UTC`;

export function createDatasetVersions({ db, datasets, clock }: { db: Queryable; datasets: DatasetStatus; clock: Clock }): DatasetVersions {
  const unpacked = new BoundedCache<Promise<unknown>>({ maxBytes: MAX_UNPACKED, sizeOf: () => 1 });
  /** Resolutions that are exactly the current loads. */
  const currentSets = new WeakSet<readonly PinnedVersion[]>();

  async function oldestKept(dataset: string): Promise<VersionRow | undefined> {
    const { rows } = await db.query<VersionRow>(
      `SELECT id, version, source_url, to_char(as_of, 'YYYY-MM-DD') AS as_of, published_at, true AS kept FROM dataset_versions
       WHERE dataset = $1 AND snapshot IS NOT NULL ORDER BY published_at, id LIMIT 1`,
      [dataset],
    );
    return rows[0];
  }

  async function oldestKeptSentence(dataset: string, record: DatasetRecord | undefined): Promise<string> {
    const oldest = await oldestKept(dataset);
    if (oldest) return `The oldest version of ${dataset} kept is ${oldest.version}, served since ${when(isoOf(oldest.published_at))}.`;
    return record ? `Only its current version, ${currentVersion(record).version}, is kept.` : `It is not loaded now.`;
  }

  async function pinOne(
    dataset: string,
    day: string,
    record: DatasetRecord | undefined,
    required: boolean,
  ): Promise<PinnedVersion | undefined> {
    const endOfDay = `${addDays(day, 1)}T00:00:00Z`;
    // The current load was published by the end of the day: the day's version is the current one.
    if (record && Date.parse(record.loadedAt) < Date.parse(endOfDay)) {
      const { rows } = await db.query<{ id: number | string }>(
        'SELECT id FROM dataset_versions WHERE dataset = $1 AND version = $2 ORDER BY published_at DESC, id DESC LIMIT 1',
        [dataset, currentVersion(record).version],
      );
      return {
        ...currentVersion(record),
        current: true,
        sourceUrl: record.sourceUrl,
        publishedAt: record.loadedAt,
        ...(rows[0] ? { archiveId: Number(rows[0].id) } : {}),
      };
    }
    const { rows } = await db.query<VersionRow>(
      `SELECT id, version, source_url, to_char(as_of, 'YYYY-MM-DD') AS as_of, published_at, snapshot IS NOT NULL AS kept FROM dataset_versions
       WHERE dataset = $1 AND published_at < $2::timestamptz ORDER BY published_at DESC, id DESC LIMIT 1`,
      [dataset, endOfDay],
    );
    const row = rows[0];
    if (!row) {
      if (!required) return undefined;
      throw new NotFoundError(
        `This service had not loaded the ${dataset} dataset by the end of ${day}, so it served no figures from it that day; ` +
          `ask for a later day. ${await oldestKeptSentence(dataset, record)}`,
      );
    }
    const isCurrent = record !== undefined && currentVersion(record).version === row.version;
    if (!row.kept && !isCurrent) {
      throw new GoneError(
        `On ${day} this service served version ${row.version} of the ${dataset} dataset, which is no longer kept (the last ` +
          `loads of each dataset are kept). ${await oldestKeptSentence(dataset, record)} Ask for a day on or after that.`,
      );
    }
    return {
      dataset,
      version: row.version,
      as_of: row.as_of,
      current: isCurrent,
      sourceUrl: row.source_url,
      publishedAt: isoOf(row.published_at),
      archiveId: Number(row.id),
    };
  }

  async function resolve(
    { required, optional = [] }: PinRequest,
    day: string,
    records: readonly DatasetRecord[],
  ): Promise<PinnedVersion[]> {
    const recordOf = (name: string) => records.find((record) => record.name === name);
    for (const name of required) if (!recordOf(name)) await datasets.require(name); // the 503 saying why
    const settled = await Promise.allSettled([
      ...required.map((name) => pinOne(name, day, recordOf(name), true)),
      ...optional.map((name) => pinOne(name, day, recordOf(name), false)),
    ]);
    // The first dataset named that cannot be pinned is the one the error speaks of, whichever read finished first.
    const failed = settled.find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason;
    const pinned = settled.flatMap((outcome) => (outcome.status === 'fulfilled' && outcome.value ? [outcome.value] : []));
    // The day's answer is the current one only when it stands on exactly the loads served now: an
    // optional dataset loaded since that day makes it different.
    const loadedNow = [...required, ...optional].filter((name) => recordOf(name) !== undefined).length;
    if (pinned.every((version) => version.current) && pinned.length === loadedNow) currentSets.add(pinned);
    return pinned;
  }

  // Resolutions per day and datasets, kept while the dataset records stay the same list (a sync,
  // or the status's periodic re-read, replaces it): a repeated pinned question reads nothing.
  let resolvedFor: readonly DatasetRecord[] | undefined;
  const resolved = new BoundedCache<Promise<PinnedVersion[]>>({ maxBytes: MAX_RESOLVED, sizeOf: () => 1 });

  return {
    async pin(request, day) {
      const today = isoDay(clock());
      if (day > today)
        throw new BadRequestError(
          `as_of must not be after today (${today}); "${day}" is in the future. Give today or an earlier day, or leave it out for the current figures.`,
        );
      const records = await datasets.list();
      if (resolvedFor !== records) {
        resolvedFor = records;
        resolved.clear();
      }
      const key = `${day}|${request.required.join(',')}|${(request.optional ?? []).join(',')}`;
      let entry = resolved.get(key);
      if (!entry) {
        entry = resolve(request, day, records);
        entry.catch(() => resolved.delete(key)); // errors are read again: a 503 may clear
        resolved.set(key, entry);
      }
      return entry;
    },
    async snapshot<T>(version: PinnedVersion, live?: () => Promise<T>): Promise<T> {
      const id = version.archiveId;
      if (id === undefined && version.current && live) return live();
      if (id === undefined) throw new Error(`dataset versions: ${version.dataset} ${version.version} has no archived snapshot`);
      let entry = unpacked.get(String(id));
      if (!entry) {
        entry = (async () => {
          const { rows } = await db.query<{ snapshot: Uint8Array | null }>('SELECT snapshot FROM dataset_versions WHERE id = $1', [id]);
          const bytes = rows[0]?.snapshot;
          if (!bytes)
            throw new GoneError(`Version ${version.version} of the ${version.dataset} dataset is no longer kept; ask for a later day.`);
          return JSON.parse(gunzipSync(bytes).toString('utf8')) as unknown;
        })();
        entry.catch(() => unpacked.delete(String(id)));
        unpacked.set(String(id), entry);
      }
      return (await entry) as T;
    },
    allCurrent: (versions) => currentSets.has(versions),
  };
}

/** The public part of pinned versions, as answers name them. */
export const publicVersions = (versions: readonly PinnedVersion[]): DatasetVersion[] =>
  versions.map(({ dataset, version, as_of }) => ({ dataset, version, as_of }));
