// The messages between the main thread's embedded-database proxy (./pglite-worker.ts) and the
// thread that runs PGlite (./pglite-thread.ts).
import type { QueryResult } from './database.ts';

export type ThreadRequest =
  | { id: number; op: 'query'; sql: string; params?: readonly unknown[]; tx?: number }
  | { id: number; op: 'exec'; sql: string }
  | { id: number; op: 'begin' }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'close' }
  | { id: number; op: 'release-memory' };

/**
 * `id` 0 says the database is open. A transaction's `begin` is answered twice: once when it has
 * begun, and again with `ended` when it has committed or rolled back.
 */
export type ThreadReply =
  | { id: number; ok: true; result?: QueryResult<unknown>; ended?: boolean }
  | { id: number; ok: false; error: Record<string, unknown>; ended?: boolean };
