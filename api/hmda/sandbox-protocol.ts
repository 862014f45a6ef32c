// Messages between the service and a sandbox process (sandbox.ts ↔ sandbox-worker.ts).
import type { JsonRow } from './duck.ts';

export interface WorkerSettings {
  root: string;
  threads: number;
  /** DuckDB memory_limit of the process's engine. */
  memoryLimit: string;
}

export interface RunRequest {
  type: 'run';
  id: number;
  sql: string;
  timeoutMs: number;
  rowCap: number;
  byteCap: number;
}

/**
 * Writes every row of a query to Parquet, then the same rows to CSV, in the exports folder (paths
 * chosen by the service, inside the warehouse folder the process may write to).
 */
export interface ExportRequest {
  type: 'export';
  id: number;
  sql: string;
  timeoutMs: number;
  parquetPath: string;
  csvPath: string;
  /** Bytes both files together may take; a write past it is stopped and answered `over-budget`. */
  maxBytes: number;
}

export type WorkerRequest = RunRequest | ExportRequest;

export type TruncatedReason = 'rows' | 'bytes';

export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'start-failed'; detail: string }
  | {
      type: 'result';
      id: number;
      columns: string[];
      rows: JsonRow[];
      truncated: TruncatedReason | null;
      bytes: number;
    }
  /** Every row written to both files. */
  | { type: 'exported'; id: number; rows: number }
  /** The files reached the export's byte budget; the write was stopped (the service removes them). */
  | { type: 'over-budget'; id: number; maxBytes: number }
  /** The guard refused the query (nothing ran). */
  | { type: 'refused'; id: number; reason: string; detail: string }
  /** The query ran, but its result cannot be given as JSON (values nested too deep); `message` says so to the caller. */
  | { type: 'unanswerable'; id: number; reason: string; message: string }
  /** The engine raised an error; `detail` is its raw text, for the log only. */
  | { type: 'failed'; id: number; detail: string; position?: number };
