// The embedded database seen from a thread that does not run it: statements are posted to the PGlite
// thread (./pglite-thread.ts) and their answers awaited. The same proxy talks over the Worker (the
// main thread, ./pglite-worker.ts) or over a MessagePort the main thread handed to another thread
// (the background sync's, ./pglite-port.ts).
import type { Transferable } from 'node:worker_threads';
import type { Database, Queryable, QueryResult } from './database.ts';
import type { ThreadReply, ThreadRequest } from './pglite-messages.ts';

type Waiter = { resolve: (reply: ThreadReply & { ok: true }) => void; reject: (error: Error) => void };
type Answered = ThreadReply & { ok: true };

/** What the proxy posts to and hears from: a Worker or a MessagePort. */
export interface PgliteEndpoint {
  postMessage(message: ThreadRequest, transfer?: readonly Transferable[]): void;
  on(event: 'message', listener: (message: ThreadReply) => void): unknown;
}

export interface PgliteProxy {
  /** Statements, transactions and memory release through the thread; the owner adds locks and closing. */
  database: Pick<Database, 'kind' | 'query' | 'exec' | 'transaction'> & Required<Pick<Database, 'releaseMemory'>>;
  /** Resolves when the thread says the database is open for this client (its answer with id 0). */
  opened: Promise<void>;
  /** Sends one request (transferring `transfer`) and resolves with its answer. */
  request(request: DistributiveOmit<ThreadRequest, 'id'>, transfer?: readonly Transferable[]): Promise<Answered>;
  /** Resolves once no request of this client is waiting for an answer and no transaction is open. */
  settled(): Promise<void>;
  /** Rejects everything waiting, and every later request, with `error` (the thread or port is gone). */
  fail(error: Error): void;
  readonly failed: boolean;
}

type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never;

/** An error thrown in the thread, rebuilt with its fields (a PostgreSQL `code`, `detail`, ...). */
function rebuildError(fields: Record<string, unknown>): Error {
  const error = new Error(String(fields.message ?? 'embedded database error'));
  return Object.assign(error, fields);
}

export function createPgliteProxy(endpoint: PgliteEndpoint): PgliteProxy {
  const waiting = new Map<number, Waiter>();
  /** Transactions' second answers: committed or rolled back. */
  const ending = new Map<number, Waiter>();
  let nextId = 1;
  let failure: Error | undefined;
  let onSettled: (() => void)[] = [];

  const checkSettled = () => {
    if (waiting.size > 0 || ending.size > 0) return;
    const settledNow = onSettled;
    onSettled = [];
    for (const resolve of settledNow) resolve();
  };
  const fail = (error: Error) => {
    failure ??= error;
    for (const waiter of [...waiting.values(), ...ending.values()]) waiter.reject(error);
    waiting.clear();
    ending.clear();
    checkSettled();
  };
  endpoint.on('message', (message: ThreadReply) => {
    const waiter = message.ended ? ending.get(message.id) : waiting.get(message.id);
    if (waiter === undefined) return;
    (message.ended ? ending : waiting).delete(message.id);
    if (message.ok) waiter.resolve(message);
    else waiter.reject(rebuildError(message.error));
    checkSettled();
  });

  const opened = new Promise<void>((resolve, reject) => {
    waiting.set(0, { resolve: () => resolve(), reject });
  });
  // Observed here, so a client that never awaits it leaves no unhandled rejection behind.
  opened.catch(() => undefined);

  const send = (
    request: ThreadRequest,
    { expectEnd = false, transfer }: { expectEnd?: boolean; transfer?: readonly Transferable[] } = {},
  ): { answered: Promise<Answered>; ended?: Promise<unknown> } => {
    if (failure !== undefined) return { answered: Promise.reject(failure) };
    const answered = new Promise<Answered>((resolve, reject) => waiting.set(request.id, { resolve, reject }));
    const ended = expectEnd ? new Promise((resolve, reject) => ending.set(request.id, { resolve, reject })) : undefined;
    endpoint.postMessage(request, transfer);
    return ended === undefined ? { answered } : { answered, ended };
  };
  const request = (body: DistributiveOmit<ThreadRequest, 'id'>, transfer?: readonly Transferable[]) =>
    send({ ...body, id: nextId++ } as ThreadRequest, transfer === undefined ? {} : { transfer }).answered;

  /** Ends transaction `tx`: answered on its `begin` id (see `ending`), so nothing waits on this message. */
  const endTransaction = (tx: number, commit: boolean) => {
    if (failure === undefined) endpoint.postMessage({ id: nextId++, op: 'end', tx, commit });
  };

  const queryOn = (tx: number | undefined): Queryable => ({
    async query<Row>(sql: string, params?: readonly unknown[]): Promise<QueryResult<Row>> {
      const answer = await request({
        op: 'query',
        sql,
        ...(params === undefined ? {} : { params }),
        ...(tx === undefined ? {} : { tx }),
      });
      return answer.result as QueryResult<Row>;
    },
  });

  return {
    database: {
      kind: 'pglite',
      query: queryOn(undefined).query,
      async exec(sql) {
        await request({ op: 'exec', sql });
      },
      async transaction(work) {
        const id = nextId++;
        const { answered, ended } = send({ id, op: 'begin' }, { expectEnd: true });
        // Observed at once, so a thread that fails before `work` finishes is no unhandled rejection.
        ended?.catch(() => undefined);
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
      async releaseMemory() {
        if (failure === undefined) await request({ op: 'release-memory' });
      },
    },
    opened,
    request,
    settled() {
      return new Promise<void>((resolve) => {
        onSettled.push(resolve);
        checkSettled();
      });
    },
    fail,
    get failed() {
      return failure !== undefined;
    },
  };
}
