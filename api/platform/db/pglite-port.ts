// The embedded database from a thread other than the main one: the PGlite thread answers a
// MessagePort the main thread connected for it (Database.connectThread) as it answers the main thread.
import type { MessagePort } from 'node:worker_threads';
import type { Database } from './database.ts';
import { createPgliteProxy } from './pglite-proxy.ts';

export async function createPglitePortDatabase(port: MessagePort): Promise<Database> {
  const proxy = createPgliteProxy(port);
  port.on('close', () => proxy.fail(new Error("The embedded database's thread closed this connection.")));
  await proxy.opened;
  return {
    ...proxy.database,
    // The embedded database's advisory locks are an in-process map on the main thread, which takes
    // them for this thread's work (the sync lock: ../../sync/run-in-thread.ts); a second map here
    // would not see the first.
    async withAdvisoryLock() {
      throw new Error('Advisory locks of the embedded database are taken on the main thread.');
    },
    async close() {
      // Only this client detaches: closing the port ends its transactions in the PGlite thread.
      port.close();
    },
  };
}
