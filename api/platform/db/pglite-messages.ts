// The messages between an embedded-database proxy (./pglite-proxy.ts: the main thread's, over the
// Worker, and any other thread's, over a MessagePort) and the thread that runs PGlite
// (./pglite-thread.ts).
import type { MessagePort } from 'node:worker_threads';
import type { QueryResult } from './database.ts';

export type ThreadRequest =
  | { id: number; op: 'query'; sql: string; params?: readonly unknown[]; tx?: number }
  | { id: number; op: 'exec'; sql: string }
  | { id: number; op: 'begin' }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'close' }
  | { id: number; op: 'release-memory' }
  /** How many other threads' clients are attached (a sync's): answered as `clients`. */
  | { id: number; op: 'clients' }
  /** A second client: the thread answers `port`'s requests too (transferred with this message). */
  | { id: number; op: 'connect'; port: MessagePort };

/**
 * `id` 0 says the database is open (to the Worker, and to each connected port). A transaction's
 * `begin` is answered twice: once when it has begun, and again with `ended` when it has committed
 * or rolled back.
 */
export type ThreadReply =
  | { id: number; ok: true; result?: QueryResult<unknown>; ended?: boolean; clients?: number }
  | { id: number; ok: false; error: Record<string, unknown>; ended?: boolean };
