// The embedded database on a thread of its own (./pglite-thread.ts), behind the same Database
// interface as in-thread PGlite and PostgreSQL. PGlite executes SQL synchronously inside its
// WebAssembly module: on the main thread a sync's bulk insert or a recomputation held every request
// for seconds. Here the main thread only posts statements and awaits their answers (./pglite-proxy.ts).
//
// A WebAssembly memory never shrinks: the pages a sync's loads touched (PostgreSQL's buffers, sorts
// and parse trees) stay resident for the life of the thread. So once a thread that served another
// thread's client (a sync) is asked to give memory back while nothing uses it, it is replaced by a
// new thread on the same folder (releaseMemory below), which starts at PGlite's initial size.
import fs from 'node:fs';
import { MessageChannel, Worker } from 'node:worker_threads';
import type { Database } from './database.ts';
import { acquireFolderLock, inProcessAdvisoryLocks } from './pglite.ts';
import { createPgliteProxy, type PgliteProxy } from './pglite-proxy.ts';

interface DatabaseThread {
  worker: Worker;
  proxy: PgliteProxy;
}

/** Starts PGlite's thread on `folder` and waits until the database is open. */
async function startThread(folder: string): Promise<DatabaseThread> {
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
    throw error;
  }
  return { worker, proxy };
}

/** Closes the database (PGlite checkpoints and shuts PostgreSQL down) and ends its thread. */
async function stopThread({ worker, proxy }: DatabaseThread): Promise<void> {
  try {
    if (!proxy.failed) await proxy.request({ op: 'close' });
  } finally {
    await worker.terminate();
  }
}

export interface PgliteWorkerOptions {
  /** Called once the folder is ours. */
  onLocked?: () => void;
  /** Told when the thread was replaced to give its memory back. */
  onReplaced?: (details: { ms: number }) => void;
}

/** Opens PGlite in `folder` (created when missing) on its own thread. */
export async function createPgliteWorkerDatabase(folder: string, options: PgliteWorkerOptions = {}): Promise<Database> {
  fs.mkdirSync(folder, { recursive: true });
  const releaseLock = acquireFolderLock(folder);
  options.onLocked?.();
  let thread: DatabaseThread;
  try {
    thread = await startThread(folder);
  } catch (error) {
    releaseLock();
    throw error;
  }
  /** Whether another thread's client (a sync) has used this thread: its WebAssembly memory grew. */
  let servedAnotherThread = false;
  /** Set while the thread is being replaced: every new call waits for the new one. */
  let replacing: Promise<void> | undefined;

  const current = async (): Promise<PgliteProxy> => {
    while (replacing) await replacing;
    return thread.proxy;
  };

  /**
   * Replaces the thread when nothing uses it: no request of the main thread in flight, no open
   * transaction, no other thread's client attached. Returns whether it did.
   */
  async function replaceWhenUnused(): Promise<boolean> {
    const old = thread;
    await old.proxy.settled();
    const { clients } = await old.proxy.request({ op: 'clients' });
    if ((clients ?? 0) > 0 || old.proxy.failed) return false;
    // A call that took the old thread just before `replacing` was set has sent its statement by now.
    await old.proxy.settled();
    const started = performance.now();
    await stopThread(old);
    // Starting again is what opened the database at start-up; a second try before giving up on it.
    thread = await startThread(folder).catch(() => startThread(folder));
    servedAnotherThread = false;
    options.onReplaced?.({ ms: Math.round(performance.now() - started) });
    return true;
  }

  return {
    kind: 'pglite',
    async query(sql, params) {
      return (await current()).database.query(sql, params);
    },
    async exec(sql) {
      return (await current()).database.exec(sql);
    },
    async transaction(work) {
      return (await current()).database.transaction(work);
    },
    // The advisory locks stay on this (the main) thread: every sync takes the sync lock here before
    // any thread runs its loads (../../sync/run-in-thread.ts), so one in-process map is all of them.
    withAdvisoryLock: inProcessAdvisoryLocks(),
    async connectThread() {
      const proxy = await current();
      servedAnotherThread = true;
      const { port1, port2 } = new MessageChannel();
      await proxy.request({ op: 'connect', port: port2 }, [port2]);
      return { kind: 'pglite', port: port1 };
    },
    async releaseMemory() {
      await current();
      if (servedAnotherThread) {
        const attempt = replaceWhenUnused();
        replacing = attempt.then(
          () => undefined,
          () => undefined,
        );
        try {
          if (await attempt) return;
        } finally {
          replacing = undefined;
        }
      }
      // Otherwise (or while something still uses the thread) only its heap's pooled pages go back.
      await (await current()).database.releaseMemory();
    },
    async close() {
      try {
        await current();
        await stopThread(thread);
      } finally {
        releaseLock();
      }
    },
  };
}
