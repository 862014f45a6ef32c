// The embedded database's own thread: PGlite (PostgreSQL compiled to WebAssembly) runs here, so a
// long statement of a sync or a warehouse load never holds the event loop that answers requests.
// It answers the messages of ./pglite-proxy.ts one by one; each carries an id its answer repeats.
// The main thread is its first client (over the Worker); another thread (the background sync's)
// becomes one more through a MessagePort the main thread hands over with a `connect` request.
import fs from 'node:fs';
import path from 'node:path';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { PGLITE_START_PARAMS, wrap } from './pglite.ts';
import type { Queryable } from './database.ts';
import type { ThreadRequest, ThreadReply } from './pglite-messages.ts';
import { reduceMemoryNow } from '../memory/full-gc.ts';
import { readTemplate } from './pglite-template.ts';

const { folder } = workerData as { folder: string };
// A new folder starts from the empty database made ahead of the service, when there is one
// (./pglite-template.ts): PGlite's initdb would otherwise run here, at about a GiB.
const template = fs.existsSync(path.join(folder, 'PG_VERSION')) ? undefined : readTemplate();
const db = await PGlite.create(folder, { startParams: PGLITE_START_PARAMS, ...(template ? { loadDataDir: template } : {}) });
// Opening leaves garbage that only a collection of this thread's small heap frees, and its heap
// rarely needs one: on a new folder the copy's or initdb's memory, and on any folder the unpacked
// file-system bundle (~150 MiB). Until then it is resident memory of the service.
reduceMemoryNow();
const queryable = wrap(db);

class RolledBack extends Error {}

/** Clients attached besides the main thread (a sync's thread while it runs). */
let otherClients = 0;

/** An error as plain fields, so the main thread can rebuild one with the same code and message. */
function describeError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error))
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
  return { ...fields, name: error.name, message: error.message };
}

/**
 * Answers one client's requests. Request ids and open transactions are the client's own, so two
 * clients' ids never meet. `owner` is the main thread: only it closes the database; any other
 * client's `close` (or its thread ending, which closes its port) only detaches it.
 */
function serve(port: MessagePort, { owner }: { owner: boolean }): void {
  /** Open transactions: their queryable, and how to end them (commit = resolve, roll back = reject). */
  const transactions = new Map<number, { tx: Queryable; end: (commit: boolean) => void }>();
  let detached = false;

  const reply = (message: ThreadReply) => {
    if (!detached) port.postMessage(message);
  };

  // A client that went away mid-transaction (its thread crashed or was terminated) sends no `end`:
  // its transactions roll back here, or PGlite, which runs one transaction at a time, would wait
  // for them forever and with it every other client.
  const detach = () => {
    if (detached) return;
    detached = true;
    if (!owner) otherClients -= 1;
    for (const transaction of transactions.values()) transaction.end(false);
    port.close();
  };
  if (!owner) {
    otherClients += 1;
    port.on('close', detach);
  }

  function begin(id: number): void {
    db.transaction(async (tx: Transaction) => {
      if (detached) throw new RolledBack(); // begun only after its client went away
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
      case 'connect':
        serve(request.port, { owner: false });
        reply({ id: request.id, ok: true });
        return;
      case 'close':
        if (!owner) {
          reply({ id: request.id, ok: true });
          detach();
          return;
        }
        await db.close();
        reply({ id: request.id, ok: true });
        return;
      case 'clients':
        reply({ id: request.id, ok: true, clients: otherClients });
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
}

serve(parentPort!, { owner: true });
