// The embedded database's own thread: PGlite (PostgreSQL compiled to WebAssembly) runs here, so a
// long statement of a sync or a warehouse load never holds the event loop that answers requests.
// It answers the messages of ./pglite-worker.ts one by one; each carries an id its answer repeats.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { PGLITE_START_PARAMS, wrap } from './pglite.ts';
import type { Queryable } from './database.ts';
import type { ThreadRequest, ThreadReply } from './pglite-messages.ts';
import { reduceMemoryNow } from '../memory/full-gc.ts';

const port = parentPort!;
const { folder } = workerData as { folder: string };
const db = await PGlite.create(folder, { startParams: PGLITE_START_PARAMS });
const queryable = wrap(db);

/** Open transactions: their queryable, and how to end them (commit = resolve, roll back = reject). */
const transactions = new Map<number, { tx: Queryable; end: (commit: boolean) => void }>();
class RolledBack extends Error {}

const reply = (message: ThreadReply) => port.postMessage(message);

/** An error as plain fields, so the main thread can rebuild one with the same code and message. */
function describeError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error))
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
  return { ...fields, name: error.name, message: error.message };
}

function begin(id: number): void {
  db.transaction(async (tx: Transaction) => {
    const ended = new Promise<void>((resolve, reject) => {
      transactions.set(id, { tx: wrap(tx), end: (commit) => (commit ? resolve() : reject(new RolledBack())) });
    });
    reply({ id, ok: true });
    await ended;
  })
    .then(
      () => reply({ id, ok: true, ended: true }),
      (error: unknown) =>
        reply(error instanceof RolledBack ? { id, ok: true, ended: true } : { id, ok: false, ended: true, error: describeError(error) }),
    )
    .finally(() => transactions.delete(id));
}

async function answer(request: ThreadRequest): Promise<void> {
  switch (request.op) {
    case 'begin':
      return begin(request.id);
    case 'end':
      // The transaction's own promise replies (with `ended`), once PGlite has committed or rolled back.
      transactions.get(request.tx)?.end(request.commit);
      return;
    case 'close':
      await db.close();
      reply({ id: request.id, ok: true });
      return;
    case 'release-memory':
      // This thread's heap pages freed by its collections stay pooled until a memory-reducing one.
      reduceMemoryNow();
      reply({ id: request.id, ok: true });
      return;
    case 'exec':
      await db.exec(request.sql);
      reply({ id: request.id, ok: true });
      return;
    case 'query': {
      const target = request.tx === undefined ? queryable : transactions.get(request.tx)?.tx;
      if (target === undefined) throw new Error('The transaction this statement belongs to has ended.');
      reply({ id: request.id, ok: true, result: await target.query(request.sql, request.params) });
      return;
    }
  }
}

port.on('message', (request: ThreadRequest) => {
  answer(request).catch((error: unknown) => reply({ id: request.id, ok: false, error: describeError(error) }));
});
reply({ id: 0, ok: true });
