// What the main thread and the background sync's thread (./sync-thread.ts) tell each other.
import type { Config } from '../config.ts';
import type { ThreadConnection } from '../platform/db/database.ts';
import type { DatasetSyncResult, SyncReport } from './runner.ts';

/** The thread's workerData (a pglite connection's port travels in the transfer list). */
export interface SyncThreadInput {
  connection: ThreadConnection;
  config: Config;
  /** Datasets to sync; undefined: the default ones. */
  names: readonly string[] | undefined;
  /** The module whose `datasetDefinitions` the thread loads: the registry (tests give their own). */
  definitionsModule: string;
  /** The main thread's logger, rebuilt in the thread: its level and its child bindings. */
  log: { level: string; bindings: Record<string, unknown> };
}

/** Main thread → sync thread: stop before the next dataset (shutdown). */
export type SyncThreadRequest = { type: 'abort' };

/** Sync thread → main thread: a dataset published, then the whole report (runSync's). */
export type SyncThreadNews = { type: 'published'; result: DatasetSyncResult } | { type: 'finished'; report: SyncReport };
