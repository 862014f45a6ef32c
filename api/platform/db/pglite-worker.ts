// The embedded database on a thread of its own (./pglite-thread.ts), behind the same Database
// interface as in-thread PGlite and PostgreSQL. PGlite executes SQL synchronously inside its
// WebAssembly module: on the main thread a sync's bulk insert or a recomputation held every request
// for seconds. Here the main thread only posts statements and awaits their answers (./pglite-proxy.ts).
import fs from 'node:fs';
import { MessageChannel, Worker } from 'node:worker_threads';
import type { Database } from './database.ts';
import { acquireFolderLock, inProcessAdvisoryLocks } from './pglite.ts';
import { createPgliteProxy } from './pglite-proxy.ts';

/** Opens PGlite in `folder` (created when missing) on its own thread; `onLocked` once the folder is ours. */
export async function createPgliteWorkerDatabase(folder: string, onLocked?: () => void): Promise<Database> {
  fs.mkdirSync(folder, { recursive: true });
  const releaseLock = acquireFolderLock(folder);
  onLocked?.();
  // A smaller young generation than V8's default: the thread's short-lived objects are each query's
  // rows on their way to the main thread, and its idle heap is resident memory of the service. 8 MB
  // as the sync's thread (api/sync/run-in-thread.ts) and about the main thread's (allocator-settings.ts).
  const worker = new Worker(new URL('./pglite-thread.ts', import.meta.url), {
    workerData: { folder },
    resourceLimits: { maxYoungGenerationSizeMb: 8 },
  });
  const proxy = createPgliteProxy(worker);
  worker.on('error', (error) => proxy.fail(error));
  worker.on('exit', (code) => proxy.fail(new Error(`The embedded database's thread stopped (exit code ${code}).`)));

  try {
    await proxy.opened;
  } catch (error) {
    await worker.terminate();
    releaseLock();
    throw error;
  }

  return {
    ...proxy.database,
    // The advisory locks stay on this (the main) thread: every sync takes the sync lock here before
    // any thread runs its loads (../../sync/run-in-thread.ts), so one in-process map is all of them.
    withAdvisoryLock: inProcessAdvisoryLocks(),
    async connectThread() {
      const { port1, port2 } = new MessageChannel();
      await proxy.request({ op: 'connect', port: port2 }, [port2]);
      return { kind: 'pglite', port: port1 };
    },
    async close() {
      try {
        if (!proxy.failed) await proxy.request({ op: 'close' });
      } finally {
        await worker.terminate();
        releaseLock();
      }
    },
  };
}
