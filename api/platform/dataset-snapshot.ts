// An in-memory copy of what some datasets hold, read once and kept until a sync publishes a new
// load of any of them. A request never waits on the database once the copy exists: whether a sync
// has published is checked in the background at most every few seconds (through the `datasets`
// records), and the new copy replaces the old one when it has been read. Before the first load of
// a required dataset, `get()` throws its 503 (the dataset-state wording every face shows). Rates, loan
// limits, series, research and NMDB all hold their copies this way.
import type { DatasetRecord, DatasetStatus } from './datasets.ts';
import type { Logger } from './logger.ts';
import { cacheCounter, isCacheOff } from './cache-meter.ts';

export interface DatasetSnapshot<T> {
  /** The current copy (reading it first when there is none). */
  get(): Promise<T>;
  /** Drops the copy; the next get() reads the database again. */
  invalidate(): void;
}

export interface DatasetSnapshotOptions<T> {
  datasets: DatasetStatus;
  /** Datasets the copy is read from: all must be loaded. */
  names: readonly string[];
  /** Datasets read when loaded (their records are passed to read() after the required ones). */
  optional?: readonly string[];
  read(records: DatasetRecord[]): Promise<T>;
  logger: Logger;
  /** What the log calls this copy when a background check fails. */
  label: string;
  checkIntervalMs?: number;
  /**
   * Whether a request waits for that check (and for the new copy when a sync has published) instead
   * of being answered from the old copy meanwhile. With a 0 interval every request checks: the
   * records come from the dataset status's own short cache, so that costs no database round trip.
   */
  awaitCheck?: boolean;
}

const DEFAULT_CHECK_INTERVAL_MS = 5_000;

/** The loads a copy was read under: when any changes, the copy is stale. */
const versionOf = (records: readonly DatasetRecord[]) =>
  records.map((record) => `${record.name}@${record.loadedAt}#${record.checksum ?? ''}`).join(';');

export function datasetSnapshot<T>(options: DatasetSnapshotOptions<T>): DatasetSnapshot<T> {
  const interval = options.checkIntervalMs ?? DEFAULT_CHECK_INTERVAL_MS;
  let current: { value: T; version: string } | undefined;
  let loading: { generation: number; promise: Promise<T> } | undefined;
  let generation = 0;
  let checkedAt = 0;
  const counter = cacheCounter(`dataset-snapshot:${options.label}`);
  // Off (CACHES_OFF, to measure what the copy buys): every get() reads the datasets again.
  const off = isCacheOff('dataset-snapshot');

  async function records(): Promise<DatasetRecord[]> {
    const all = await options.datasets.list();
    const found: DatasetRecord[] = [];
    for (const name of options.names) found.push(all.find((record) => record.name === name) ?? (await options.datasets.require(name)));
    for (const name of options.optional ?? []) {
      const record = all.find((candidate) => candidate.name === name);
      if (record) found.push(record);
    }
    return found;
  }

  function load(): Promise<T> {
    if (loading && loading.generation === generation) return loading.promise;
    const started = generation;
    const promise = (async () => {
      const read = await records();
      const value = await options.read(read);
      // An invalidate() while reading means this read may predate the sync: do not keep it.
      if (started === generation) {
        current = { value, version: versionOf(read) };
        checkedAt = Date.now();
      }
      return value;
    })().finally(() => {
      if (loading?.promise === promise) loading = undefined;
    });
    loading = { generation: started, promise };
    return promise;
  }

  async function refreshIfChanged(seen: { version: string }): Promise<void> {
    const version = versionOf(await records());
    if (version !== seen.version && current === seen) await load();
  }

  return {
    async get() {
      if (off) {
        counter.misses += 1;
        return options.read(await records());
      }
      const copy = current;
      if (!copy) {
        counter.misses += 1;
        return load();
      }
      counter.hits += 1;
      if (options.awaitCheck && Date.now() - checkedAt >= interval) {
        checkedAt = Date.now();
        if (versionOf(await records()) !== copy.version && current === copy) return load();
        return (current ?? copy).value;
      }
      if (Date.now() - checkedAt > interval) {
        checkedAt = Date.now();
        refreshIfChanged(copy).catch((error: unknown) => options.logger.warn({ err: error }, `${options.label}: refresh check failed`));
      }
      return copy.value;
    },
    invalidate() {
      generation += 1;
      current = undefined;
    },
  };
}
