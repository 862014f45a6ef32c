// The database seam: one small interface that both PostgreSQL (pg) and embedded PGlite implement, so
// every capability writes plain SQL once and runs on either.
import type { MessagePort } from 'node:worker_threads';

export interface QueryResult<Row> {
  rows: Row[];
  rowCount: number;
}

export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<Row>>;
}

export interface Database extends Queryable {
  readonly kind: 'postgres' | 'pglite';
  /** Runs several statements separated by semicolons (migrations); no parameters. */
  exec(sql: string): Promise<void>;
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Runs `work` while holding the advisory lock `key`, so only one process (or instance behind a load
   * balancer) does it at a time. Resolves to `{ acquired: false }` without running `work` when another
   * holder has the lock.
   */
  withAdvisoryLock<T>(key: number, work: () => Promise<T>): Promise<{ acquired: true; value: T } | { acquired: false }>;
  close(): Promise<void>;
  /**
   * Gives back memory the database holds in this process beyond its live data (the embedded
   * database's thread: its garbage collector's pooled pages, or, once a sync's thread has used it
   * and nothing does, the whole thread, started again; ./pglite-worker.ts). Absent where there is
   * none to give.
   */
  releaseMemory?(): Promise<void>;
  /**
   * What another thread needs to open a connection of its own to this database (./thread-connection.ts):
   * PostgreSQL's URL, or a port the embedded database's thread also answers. Absent where no other
   * thread can reach it (in-thread PGlite: tests and the command line).
   */
  connectThread?(): Promise<ThreadConnection>;
}

/** Sent to a worker thread (a MessagePort in its transfer list) so it can open the same database. */
export type ThreadConnection = { kind: 'postgres'; url: string } | { kind: 'pglite'; port: MessagePort };

/** Advisory-lock keys, one per job that must not run twice at once. */
export const AdvisoryLocks = {
  migrations: 4_711_001,
  sync: 4_711_002,
  precompute: 4_711_003,
} as const;
