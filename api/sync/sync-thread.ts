// The background sync's thread: the dataset loads (reading, parsing and checking the publishers'
// files, building the rows) run here, on a connection of their own, so the event loop that answers
// requests only hears that a dataset was published. The main thread holds the sync lock for the
// whole run (./run-in-thread.ts); this thread starts once it is taken and ends with the sync.
import { parentPort, workerData } from 'node:worker_threads';
import { pino } from 'pino';
import { openThreadConnection } from '../platform/db/thread-connection.ts';
import { createLogger } from '../platform/logger.ts';
import { reduceMemoryNow } from '../platform/memory/full-gc.ts';
import { runSyncHoldingLock } from './runner.ts';
import type { SyncThreadInput, SyncThreadNews, SyncThreadRequest } from './sync-thread-messages.ts';
import type { DatasetDefinition } from './types.ts';

const input = workerData as SyncThreadInput;
const port = parentPort!;
const tell = (news: SyncThreadNews) => port.postMessage(news);

const controller = new AbortController();
port.on('message', (request: SyncThreadRequest) => {
  if (request.type === 'abort') controller.abort();
});

// Written straight to standard output from this thread (synchronously, so a line is out before the
// thread ends), with the main thread's level and bindings: the same lines as an in-process sync's.
const root = createLogger(input.log.level, pino.destination({ dest: 1, sync: true }));
const inherited = Object.fromEntries(Object.entries(input.log.bindings).filter(([key]) => !(key in root.bindings())));
const logger = root.child(inherited);

const { datasetDefinitions } = (await import(input.definitionsModule)) as { datasetDefinitions: readonly DatasetDefinition[] };
const db = await openThreadConnection(input.connection, logger);
const report = await runSyncHoldingLock(db, datasetDefinitions, {
  names: input.names,
  logger,
  config: input.config,
  signal: controller.signal,
  onPublished: (result) => tell({ type: 'published', result }),
  // This thread answers no requests, so a pause here delays no one. After each dataset, one
  // memory-reducing collection gives back what its load left (buffers promoted while it waited on the
  // database, freed pages) before the next load adds its own: the thread's heap is part of the peak.
  onProgress: (event) => {
    if (event.type === 'finish') reduceMemoryNow();
  },
}).finally(() =>
  db.close().catch((error: unknown) => logger.warn({ err: (error as Error).message }, 'could not close the sync thread connection')),
);
tell({ type: 'finished', report });
port.unref();
