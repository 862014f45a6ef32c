// The server's background sync on a thread of its own (./sync-thread.ts): the loads parse tens of
// megabytes of CSV, JSON and XML and build the rows to write, stretches of up to seconds of CPU that,
// on the main thread, held every request waiting. The command line (`npm run sync`) has no requests
// to serve and keeps running runSync in its own thread.
//
// The sync lock is taken here, on the main thread's connection, for the whole life of the thread,
// rather than by the thread: then it means what it always meant. With PostgreSQL it is an advisory
// lock of a session of this process (it dies with the process, so another instance takes over);
// with the embedded database it is the main thread's in-process map, which the dataset status
// (syncLockHeld: "loading since" or "died mid-way"), the rate-estimate job and the HMDA first load
// read and take on this thread. And a thread that crashes cannot leave it held: it is released here
// when the thread is gone, whatever it did.
import { Worker } from 'node:worker_threads';
import type { CoreDeps } from '../platform/core-deps.ts';
import type { Logger } from '../platform/logger.ts';
import { withSyncLock } from '../platform/db/sync-lock.ts';
import { SyncInProgressError, type DatasetSyncResult, type SyncReport } from './runner.ts';
import type { SyncThreadInput, SyncThreadNews, SyncThreadRequest } from './sync-thread-messages.ts';

/** After an abort, how long the thread may finish the load under way before it is stopped. */
const ABORT_GRACE_MS = 10_000;

const REGISTRY = new URL('./registry.ts', import.meta.url);

export interface ThreadSyncRequest {
  /** Datasets to sync; undefined: the default ones. */
  names: readonly string[] | undefined;
  logger: Logger;
  /** Stops before the next dataset; the thread is terminated if it has not ended ABORT_GRACE_MS later. */
  signal?: AbortSignal;
  onPublished?: (result: DatasetSyncResult) => void;
  /** The module whose `datasetDefinitions` the thread syncs; default: the registry. */
  definitionsModule?: URL;
}

/**
 * runSync's report, with the loads run on a thread of their own. Throws SyncInProgressError when
 * another sync holds the lock, and an error naming the thread's failure when it crashed.
 */
export async function runSyncInThread(deps: Pick<CoreDeps, 'config' | 'db'>, request: ThreadSyncRequest): Promise<SyncReport> {
  const outcome = await withSyncLock(deps.db, () => syncOnThread(deps, request));
  if (!outcome.acquired) throw new SyncInProgressError();
  return outcome.value;
}

async function syncOnThread({ config, db }: Pick<CoreDeps, 'config' | 'db'>, request: ThreadSyncRequest): Promise<SyncReport> {
  if (db.connectThread === undefined) throw new Error('This database cannot be reached from another thread.');
  const connection = await db.connectThread();
  const input: SyncThreadInput = {
    connection,
    config,
    names: request.names,
    definitionsModule: (request.definitionsModule ?? REGISTRY).href,
    log: { level: request.logger.level, bindings: request.logger.bindings() },
  };
  const worker = new Worker(new URL('./sync-thread.ts', import.meta.url), {
    workerData: input,
    transferList: connection.kind === 'pglite' ? [connection.port] : [],
    // A young generation of 8 MB (as the PGlite thread's) rather than V8's default: the loads' garbage
    // is short-lived rows and strings, and this heap's pages add to the main heap's at the sync's peak
    // (one start-up sync each: peak RSS 832 and 851 MiB without a limit, 704 MiB with 16 MB; 8 MB
    // with the main thread's smaller young generation: 542–551 MiB for the API alone). Old space is
    // not capped: a large load cannot run out of it.
    resourceLimits: { maxYoungGenerationSizeMb: 8 },
  });

  let killTimer: NodeJS.Timeout | undefined;
  const abort = () => {
    worker.postMessage({ type: 'abort' } satisfies SyncThreadRequest);
    // A load under way finishes first (its transaction commits or rolls back); one that never does is cut off.
    killTimer = setTimeout(() => void worker.terminate(), ABORT_GRACE_MS);
    killTimer.unref();
  };
  if (request.signal?.aborted) abort();
  else request.signal?.addEventListener('abort', abort, { once: true });

  try {
    return await new Promise<SyncReport>((resolve, reject) => {
      worker.on('message', (news: SyncThreadNews) => {
        if (news.type === 'published') request.onPublished?.(news.result);
        else resolve(news.report);
      });
      worker.on('error', (error) => reject(new Error(`The sync thread failed: ${error.message}`, { cause: error })));
      // After an answer (either of the above) this changes nothing.
      worker.on('exit', (code) => reject(new Error(`The sync thread ended (exit code ${code}) before it finished the sync.`)));
    });
  } finally {
    request.signal?.removeEventListener('abort', abort);
    clearTimeout(killTimer);
    // Its report is in: nothing in it (a download's idle socket) may keep it, and its memory, alive.
    await worker.terminate();
  }
}
