// Small DuckDB helpers shared by the ingest, the warehouse and the query service: opening an
// instance with only the built-in extensions, quoting our own paths, and turning result rows into
// plain JSON values (DuckDB hands back bigint, Date and typed values JSON cannot hold).
import type { DuckDBConnection, DuckDBInstance, DuckDBResultReader } from '@duckdb/node-api';

export interface InstanceOptions {
  threads: number;
  memoryLimit: string;
}

/** An in-memory DuckDB that never downloads or auto-loads extensions (parquet, json, icu are built in). */
export async function openInstance(options: InstanceOptions): Promise<DuckDBInstance> {
  // Loaded on first use: the native library costs every start ~0.1 s and its memory, and a
  // service whose warehouse is never queried never needs it.
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(':memory:', {
    threads: String(options.threads),
    memory_limit: options.memoryLimit,
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
  });
  const connection = await instance.connect();
  try {
    // Footers of the warehouse files are read once, not on every query (the cache checks mtimes).
    await connection.run('SET GLOBAL parquet_metadata_cache = true');
  } finally {
    connection.closeSync();
  }
  return instance;
}

/** A SQL string literal for a value we own (file paths): single quotes doubled. */
export function literal(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** A SQL identifier for a name we read from the engine (a column of our own export file): double quotes doubled. */
const identifier = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Writes an export's Parquet file again as CSV: the same rows in the same order. Floating-point
 * columns' NaN and infinities are written as JSON answers give them ('NaN', 'Infinity', '-Infinity';
 * DuckDB's CSV says nan, inf, -inf), so an export reads the same in both forms; a NULL stays an
 * empty cell. (Inside a list or struct, a value is DuckDB's own text of it.)
 */
export async function copyParquetToCsv(connection: DuckDBConnection, parquetPath: string, csvPath: string): Promise<void> {
  const source = `read_parquet(${literal(parquetPath)})`;
  const columns = (await connection.runAndReadAll(`DESCRIBE SELECT * FROM ${source}`)).getRowObjectsJS() as {
    column_name: string;
    column_type: string;
  }[];
  const selected = columns.map(({ column_name: name, column_type: type }) => {
    const column = identifier(name);
    if (type !== 'DOUBLE' && type !== 'FLOAT') return column;
    return `CASE WHEN isnan(${column}) THEN 'NaN' WHEN isinf(${column}) THEN CASE WHEN ${column} > 0 THEN 'Infinity' ELSE '-Infinity' END ELSE CAST(${column} AS VARCHAR) END AS ${column}`;
  });
  await connection.run(`COPY (SELECT ${selected.join(', ')} FROM ${source}) TO ${literal(csvPath)} (FORMAT csv, HEADER true)`);
}

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export function toJsonValue(value: unknown): JsonValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(toJsonValue);
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([key, inner]) => [key, toJsonValue(inner)]));
  }
  return String(value);
}

export type JsonRow = Record<string, JsonValue>;

export function readerRows(reader: DuckDBResultReader): JsonRow[] {
  return reader.getRowObjectsJS().map((row) => toJsonValue(row) as JsonRow);
}
