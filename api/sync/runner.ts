// Runs dataset loads: dependency order, one instance at a time (advisory lock), one transaction per
// dataset with its `datasets` record written in that same transaction, and a `sync_runs` row for
// every attempt (written when the sync starts, so other instances can say the dataset is loading).
// A failing dataset rolls back alone; the others still load.
import { randomUUID } from 'node:crypto';
import type { Config } from '../config.ts';
import type { Clock } from '../platform/clock.ts';
import type { Database, Queryable } from '../platform/db/database.ts';
import type { Logger } from '../platform/logger.ts';
import { DatasetSkippedError } from './errors.ts';
import { dependencyReason, failureReason } from './failure-reason.ts';
import { withSyncLock } from '../platform/db/sync-lock.ts';
import { withDeferredTransaction } from '../platform/db/deferred-transaction.ts';
import { closeInterrupted, dropUnstarted, finishAttempt, markStarted, queueAttempts } from './run-records.ts';
import { createSourceReader } from './source.ts';
import { recordVersion } from './versions.ts';
import type { DatasetDefinition, DatasetLoadResult, SourceEntry, SourceFile, SyncContext } from './types.ts';

export type DatasetSyncStatus = 'ok' | 'failed' | 'skipped';

export interface DatasetSyncResult {
  name: string;
  status: DatasetSyncStatus;
  rows: number | undefined;
  changed: number | undefined;
  asOf: string | undefined;
  sourceUrl: string | undefined;
  /** The load's version id (vintage + checksum) when it loaded. */
  version?: string;
  seconds: number;
  /** Why it failed or was skipped (for the operator: files, lines); empty when it loaded. */
  message: string;
  /** The same in one sentence for readers (no paths, no commands); undefined when it loaded. */
  reason?: string;
  /**
   * Skipped because these datasets it needs did not load: a failure of this load's inputs, recorded
   * as failed (a `skipped` attempt means the source has nothing to load in this setup).
   */
  blockedBy?: string[];
}

export type SyncProgressEvent =
  | { type: 'start'; dataset: string; index: number; count: number }
  | { type: 'progress'; dataset: string; done: number; total: number }
  | { type: 'finish'; dataset: string; result: DatasetSyncResult };

export interface SyncReport {
  runId: string;
  results: DatasetSyncResult[];
  /** True when no dataset failed. */
  ok: boolean;
}

export interface RunSyncOptions {
  /** Datasets to sync (their missing dependencies are added); default: every `syncByDefault` one. */
  names?: readonly string[];
  /** With no names: include datasets that are not synced by default (e.g. HMDA). */
  all?: boolean;
  /** Command-line options passed to every dataset (`--years`, `--states`…). */
  options?: Record<string, string | boolean>;
  logger: Logger;
  config: Config;
  clock?: Clock;
  onProgress?: (event: SyncProgressEvent) => void;
  /** Overrides how files are read (tests); default: MDS_SOURCE_DIR or the publishers. */
  sourceReader?: Pick<SyncContext, 'readSource' | 'readOptionalSource'>;
  /** Told after each dataset publishes, e.g. `services.datasets.invalidate()`. */
  onPublished?: (result: DatasetSyncResult) => void;
  /** Stops before the next dataset (server shutdown). */
  signal?: AbortSignal;
}

/** Another process (or this one) holds the sync lock. */
export class SyncInProgressError extends Error {
  constructor() {
    super('Another sync is already running against this database (advisory lock held); wait for it to finish and retry.');
    this.name = 'SyncInProgressError';
  }
}

/** A dataset name that no definition has, or a dependency cycle. */
export class SyncPlanError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SyncPlanError';
  }
}

/**
 * The definitions to run, dependencies first. `loaded` names datasets already in the database: a
 * dependency that is loaded is not added to an explicit selection.
 */
export function planSync(
  definitions: readonly DatasetDefinition[],
  { names, all = false, loaded = new Set<string>() }: { names?: readonly string[]; all?: boolean; loaded?: ReadonlySet<string> } = {},
): DatasetDefinition[] {
  const byName = new Map(definitions.map((definition) => [definition.name, definition]));
  for (const name of names ?? []) {
    if (!byName.has(name)) {
      throw new SyncPlanError(`Unknown dataset "${name}". Known datasets: ${[...byName.keys()].sort().join(', ') || '(none)'}.`);
    }
  }
  const wanted = new Set<string>(
    names && names.length > 0 ? names : definitions.filter((d) => all || d.syncByDefault !== false).map((d) => d.name),
  );
  const explicit = names !== undefined && names.length > 0;
  const ordered: DatasetDefinition[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string, trail: string[]): void => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') throw new SyncPlanError(`Dataset dependency cycle: ${[...trail, name].join(' → ')}.`);
    const definition = byName.get(name);
    if (!definition) throw new SyncPlanError(`Dataset "${trail.at(-1)}" depends on unknown dataset "${name}".`);
    state.set(name, 'visiting');
    for (const dependency of definition.dependsOn ?? []) {
      if (wanted.has(dependency) || !explicit || !loaded.has(dependency)) visit(dependency, [...trail, name]);
    }
    state.set(name, 'done');
    ordered.push(definition);
  };
  for (const definition of definitions) if (wanted.has(definition.name)) visit(definition.name, []);
  return ordered;
}

async function loadedDatasets(db: Queryable): Promise<Set<string>> {
  const { rows } = await db.query<{ name: string }>('SELECT name FROM datasets');
  return new Set(rows.map((row) => row.name));
}

async function publish(tx: Queryable, name: string, loaded: DatasetLoadResult, loadedAt: Date): Promise<void> {
  await tx.query(
    `INSERT INTO datasets (name, as_of, source_url, checksum, row_count, loaded_at, details)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (name) DO UPDATE SET as_of = EXCLUDED.as_of, source_url = EXCLUDED.source_url,
       checksum = EXCLUDED.checksum, row_count = EXCLUDED.row_count, loaded_at = EXCLUDED.loaded_at,
       details = EXCLUDED.details`,
    [
      name,
      loaded.asOf,
      loaded.sourceUrl,
      loaded.checksum,
      loaded.rows,
      loadedAt.toISOString(),
      JSON.stringify({ ...loaded.details, changed: loaded.changed }),
    ],
  );
}

function checkResult(name: string, loaded: DatasetLoadResult): void {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(loaded.asOf)) throw new Error(`Dataset ${name} reported an invalid as-of date "${loaded.asOf}".`);
  if (!Number.isInteger(loaded.rows) || loaded.rows < 0) throw new Error(`Dataset ${name} reported an invalid row count.`);
}

interface LoadOneContext {
  options: RunSyncOptions;
  reader: Pick<SyncContext, 'readSource' | 'readOptionalSource'>;
  clock: Clock;
  loadedBefore: ReadonlySet<string>;
  unavailable: Set<string>;
}

/** One dataset's load in its own transaction: its result, never a throw. */
async function loadOne(
  db: Database,
  definition: DatasetDefinition,
  { options, reader, clock, loadedBefore, unavailable }: LoadOneContext,
): Promise<{ result: DatasetSyncResult; checksum: string | undefined }> {
  const name = definition.name;
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  const none = { rows: undefined, changed: undefined, asOf: undefined, sourceUrl: undefined };
  const missing = (definition.dependsOn ?? []).filter((dependency) => unavailable.has(dependency));
  if (missing.length > 0) {
    unavailable.add(name);
    const message = `needs ${missing.join(', ')}, which did not load`;
    return {
      result: { name, status: 'skipped', ...none, seconds: 0, message, reason: dependencyReason(missing), blockedBy: missing },
      checksum: undefined,
    };
  }
  // What was read, for the failure's sentence; the bytes are not kept here, or a load of many files
  // (a file per year, as the HMDA aggregates and the loan limits) would hold all of them to its end.
  const files: Pick<SourceFile, 'entry' | 'origin'>[] = [];
  let unreadable: SourceEntry | undefined;
  const context: SyncContext = {
    config: options.config,
    logger: options.logger.child({ dataset: name }),
    clock,
    options: options.options ?? {},
    async readSource(entry: SourceEntry) {
      const file = await reader.readSource(entry).catch((error: unknown) => {
        unreadable = entry;
        throw error;
      });
      files.push({ entry: file.entry, origin: file.origin });
      return file;
    },
    async readOptionalSource(entry: SourceEntry) {
      const file = await reader.readOptionalSource(entry).catch((error: unknown) => {
        unreadable = entry;
        throw error;
      });
      if (file) files.push({ entry: file.entry, origin: file.origin });
      return file;
    },
    progress(done, total) {
      options.onProgress?.({ type: 'progress', dataset: name, done, total });
    },
  };
  try {
    // Opened at the load's first statement: files are read and parsed before the database is held.
    const loaded = await withDeferredTransaction(db, async (tx) => {
      const value = await definition.load(tx, context);
      checkResult(name, value);
      const publishedAt = clock();
      await publish(tx, name, value, publishedAt);
      const recorded = await recordVersion(tx, definition, value, publishedAt);
      if (recorded.archived) context.logger.info({ version: recorded.version, pruned: recorded.pruned }, 'dataset version recorded');
      return { ...value, version: recorded.version };
    });
    const result: DatasetSyncResult = {
      name,
      status: 'ok',
      rows: loaded.rows,
      changed: loaded.changed,
      asOf: loaded.asOf,
      sourceUrl: loaded.sourceUrl,
      version: loaded.version,
      seconds: seconds(),
      message: '',
    };
    return { result, checksum: loaded.checksum };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (!loadedBefore.has(name)) unavailable.add(name);
    // A dataset that cannot apply here (e.g. a network-only source under MDS_SOURCE_DIR) says so: skipped, not failed.
    if (error instanceof DatasetSkippedError) {
      options.logger.info({ dataset: name, reason: message }, 'dataset skipped');
      return { result: { name, status: 'skipped', ...none, seconds: seconds(), message, reason: message }, checksum: undefined };
    }
    const reason = failureReason(error, { files, unreadable });
    options.logger.warn({ dataset: name, err: message, reason }, 'dataset sync failed; the previous load stays served');
    return { result: { name, status: 'failed', ...none, seconds: seconds(), message, reason }, checksum: undefined };
  }
}

/**
 * Syncs the selected datasets. Throws SyncInProgressError when another sync holds the lock and
 * SyncPlanError for an unknown dataset name; dataset failures are reported in the results instead.
 */
export async function runSync(db: Database, definitions: readonly DatasetDefinition[], options: RunSyncOptions): Promise<SyncReport> {
  const outcome = await withSyncLock(db, () => runSyncHoldingLock(db, definitions, options));
  if (!outcome.acquired) throw new SyncInProgressError();
  return outcome.value;
}

/**
 * The sync itself, for a caller that holds the sync lock (runSync, or the main thread for the
 * background sync's thread: ./run-in-thread.ts). `db` may be another connection to the same database.
 */
export async function runSyncHoldingLock(
  db: Database,
  definitions: readonly DatasetDefinition[],
  options: RunSyncOptions,
): Promise<SyncReport> {
  const clock = options.clock ?? (() => new Date());
  const runId = randomUUID();
  const reader = options.sourceReader ?? createSourceReader({ sourceDir: options.config.sourceDir });

  const loadedBefore = await loadedDatasets(db);
  const plan = planSync(definitions, { names: options.names, all: options.all, loaded: loadedBefore });
  const results: DatasetSyncResult[] = [];
  const unavailable = new Set<string>(); // failed or skipped in this run and never loaded before
  const warn = (what: string) => (error: unknown) => options.logger.warn({ err: (error as Error).message }, what);

  // Whatever is still 'running' belongs to a sync that died: this one holds the lock.
  await closeInterrupted(db).catch(warn('could not close the attempts of an interrupted sync'));
  const attemptIds = await queueAttempts(
    db,
    runId,
    plan.map((definition) => definition.name),
    clock(),
  ).catch((error: unknown) => {
    warn('could not record the datasets this sync will load')(error);
    return new Map<string, number>();
  });
  const started = new Set<string>();
  try {
    for (const [index, definition] of plan.entries()) {
      if (options.signal?.aborted) break;
      const name = definition.name;
      started.add(name);
      options.onProgress?.({ type: 'start', dataset: name, index, count: plan.length });
      const startedAt = clock();
      const attemptId = attemptIds.get(name);
      if (attemptId !== undefined) await markStarted(db, attemptId, startedAt).catch(warn('could not record the start of a load'));
      const { result, checksum } = await loadOne(db, definition, { options, reader, clock, loadedBefore, unavailable });
      try {
        await finishAttempt(db, { id: attemptId, runId, startedAt, finishedAt: clock(), checksum }, result);
      } catch (error) {
        options.logger.warn({ dataset: name, err: (error as Error).message }, 'could not record the sync run');
      }
      results.push(result);
      if (result.status === 'ok') options.onPublished?.(result);
      options.onProgress?.({ type: 'finish', dataset: name, result });
    }
  } finally {
    const unstarted = plan.filter((definition) => !started.has(definition.name)).map((definition) => attemptIds.get(definition.name));
    await dropUnstarted(
      db,
      unstarted.filter((id): id is number => id !== undefined),
    ).catch(warn('could not drop the attempts a stopped sync never started'));
  }
  return { runId, results, ok: results.every((result) => result.status !== 'failed') };
}

/** Parses a comma-separated option (`--years 2024,2025`) into trimmed, non-empty values. */
export function listOption(options: Record<string, string | boolean>, name: string): string[] | undefined {
  const value = options[name];
  if (typeof value !== 'string') return undefined;
  const items = value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  return items.length > 0 ? items : undefined;
}

/** `--years 2024,2025` or `--years 2018-2021` as numbers; undefined when the option is absent. */
export function yearsOption(options: Record<string, string | boolean>): number[] | undefined {
  const items = listOption(options, 'years');
  if (!items) return undefined;
  const years = new Set<number>();
  for (const item of items) {
    const range = /^(\d{4})-(\d{4})$/.exec(item);
    if (range) {
      for (let year = Number(range[1]); year <= Number(range[2]); year += 1) years.add(year);
    } else if (/^\d{4}$/.test(item)) {
      years.add(Number(item));
    } else {
      throw new SyncPlanError(`--years: "${item}" is not a year (use 2024, 2022,2023 or 2018-2021).`);
    }
  }
  return [...years].sort((a, b) => a - b);
}
