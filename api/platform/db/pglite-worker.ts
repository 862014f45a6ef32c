// The embedded database on a thread of its own (./pglite-thread.ts), behind the same Database
// interface as in-thread PGlite and PostgreSQL. PGlite executes SQL synchronously inside its
// WebAssembly module: on the main thread a sync's bulk insert or a recomputation held every request
// for seconds. Here the main thread only posts statements and awaits their answers.
import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { Database, Queryable, QueryResult } from './database.ts';
import { acquireFolderLock, inProcessAdvisoryLocks } from './pglite.ts';
import type { ThreadReply, ThreadRequest } from './pglite-messages.ts';

type Waiter = { resolve: (reply: ThreadReply & { ok: true }) => void; reject: (error: Error) => void };

/** An error thrown in the thread, rebuilt with its fields (a PostgreSQL `code`, `detail`, ...). */
function rebuildError(fields: Record<string, unknown>): Error {
  const error = new Error(String(fields.message ?? 'embedded database error'));
  return Object.assign(error, fields);
}

/** Opens PGlite in `folder` (created when missing) on its own thread. */
export async function createPgliteWorkerDatabase(folder: string): Promise<Database> {
  fs.mkdirSync(folder, { recursive: true });
  const releaseLock = acquireFolderLock(folder);
  // A smaller young generation than V8's default: the thread's short-lived objects are each query's
  // rows on their way to the main thread, and its idle heap is resident memory of the service.
  const worker = new Worker(new URL('./pglite-thread.ts', import.meta.url), {
    workerData: { folder },
    resourceLimits: { maxYoungGenerationSizeMb: 16 },
  });
  const waiting = new Map<number, Waiter>();
  /** Transactions' second answers: committed or rolled back. */
  const ending = new Map<number, Waiter>();
  let nextId = 1;
  let failure: Error | undefined;

  const failAll = (error: Error) => {
    failure = error;
    for (const waiter of [...waiting.values(), ...ending.values()]) waiter.reject(error);
    waiting.clear();
    ending.clear();
  };
  worker.on('message', (message: ThreadReply) => {
    const waiter = message.ended ? ending.get(message.id) : waiting.get(message.id);
    if (waiter === undefined) return;
    (message.ended ? ending : waiting).delete(message.id);
    if (message.ok) waiter.resolve(message);
    else waiter.reject(rebuildError(message.error));
  });
  worker.on('error', (error) => failAll(error));
  worker.on('exit', (code) => failAll(new Error(`The embedded database's thread stopped (exit code ${code}).`)));

  const send = (request: ThreadRequest, expectEnd = false): { answered: Promise<ThreadReply & { ok: true }>; ended?: Promise<unknown> } => {
    if (failure !== undefined) return { answered: Promise.reject(failure) };
    const answered = new Promise<ThreadReply & { ok: true }>((resolve, reject) => waiting.set(request.id, { resolve, reject }));
    const ended = expectEnd ? new Promise((resolve, reject) => ending.set(request.id, { resolve, reject })) : undefined;
    worker.postMessage(request);
    return ended === undefined ? { answered } : { answered, ended };
  };

  const opened = new Promise<void>((resolve, reject) => {
    waiting.set(0, { resolve: () => resolve(), reject });
  });
  try {
    await opened;
  } catch (error) {
    await worker.terminate();
    releaseLock();
    throw error;
  }

  /** Ends transaction `tx`: answered on its `begin` id (see `ending`), so nothing waits on this message. */
  const endTransaction = (tx: number, commit: boolean) => {
    if (failure === undefined) worker.postMessage({ id: nextId++, op: 'end', tx, commit } satisfies ThreadRequest);
  };

  const queryOn = (tx: number | undefined): Queryable => ({
    async query<Row>(sql: string, params?: readonly unknown[]): Promise<QueryResult<Row>> {
      const { answered } = send({
        id: nextId++,
        op: 'query',
        sql,
        ...(params === undefined ? {} : { params }),
        ...(tx === undefined ? {} : { tx }),
      });
      return (await answered).result as QueryResult<Row>;
    },
  });
  const main = queryOn(undefined);

  return {
    kind: 'pglite',
    query: main.query,
    async exec(sql) {
      await send({ id: nextId++, op: 'exec', sql }).answered;
    },
    async transaction(work) {
      const id = nextId++;
      const { answered, ended } = send({ id, op: 'begin' }, true);
      // Observed at once, so a thread that fails before `work` finishes is no unhandled rejection.
      ended!.catch(() => undefined);
      await answered;
      let value;
      try {
        value = await work(queryOn(id));
      } catch (error) {
        endTransaction(id, false);
        await ended!.catch(() => undefined);
        throw error;
      }
      endTransaction(id, true);
      await ended;
      return value;
    },
    withAdvisoryLock: inProcessAdvisoryLocks(),
    async releaseMemory() {
      if (failure === undefined) await send({ id: nextId++, op: 'release-memory' }).answered;
    },
    async close() {
      try {
        if (failure === undefined) await send({ id: nextId++, op: 'close' }).answered;
      } finally {
        await worker.terminate();
        releaseLock();
      }
    },
  };
}
