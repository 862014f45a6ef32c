// Batched upserts on natural keys that count only real changes: a row is written when it is new or
// when one of its values differs, so an identical second sync reports zero changes. Plain SQL that
// runs on PostgreSQL and PGlite alike.
import type { Queryable } from '../platform/db/database.ts';

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

function identifier(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`Not a plain SQL identifier: ${name}`);
  return name;
}

export interface UpsertSpec {
  table: string;
  /** Natural-key columns (a PRIMARY KEY or UNIQUE constraint must cover exactly these). */
  key: readonly string[];
  /** Every column written, key columns included, in the order of each row's values. */
  columns: readonly string[];
  /**
   * Values JSON can carry: strings, numbers, booleans, null, and objects or arrays for json/jsonb
   * columns (a string there would be stored as a JSON string, not parsed).
   */
  rows: readonly (readonly unknown[])[];
  /** Rows per INSERT statement (each statement carries its rows as one JSON text). */
  batchSize?: number;
  /** Called after each batch with the rows written so far (progress bars). */
  onBatch?: (done: number, total: number) => void;
}

/**
 * Rows per statement. Larger batches cost the embedded database memory it keeps: its WebAssembly heap
 * grows to the largest statement and never shrinks (5,000 rows: idle RSS after a full sync about
 * 100 MiB higher than 1,000).
 */
const BATCH_ROWS = 1_000;

/**
 * Inserts or updates `rows`; resolves to the number of rows inserted or actually changed.
 *
 * Each batch travels as one JSON parameter that the database turns into rows of the table's own
 * type (`json_populate_recordset`), so every value is converted by its column's input function. One
 * placeholder per value (thousands per statement) cost more than the writing itself: the embedded
 * database's client encodes each parameter in JavaScript, and the server parses and plans a
 * statement as long as the batch. On the loan-limit sync (52,000 rows into the embedded database) the
 * database thread's CPU went from about 15 s to 8 s (batches of 5,000, a busy machine).
 */
export async function upsertRows(tx: Queryable, spec: UpsertSpec): Promise<number> {
  const table = identifier(spec.table);
  const columns = spec.columns.map(identifier);
  const key = spec.key.map(identifier);
  for (const column of key) {
    if (!columns.includes(column)) throw new Error(`Key column ${column} is not among the columns of ${table}.`);
  }
  const valueColumns = columns.filter((column) => !key.includes(column));
  const batchSize = spec.batchSize ?? BATCH_ROWS;

  const conflict =
    valueColumns.length === 0
      ? `ON CONFLICT (${key.join(', ')}) DO NOTHING`
      : `ON CONFLICT (${key.join(', ')}) DO UPDATE SET ${valueColumns.map((column) => `${column} = EXCLUDED.${column}`).join(', ')} ` +
        `WHERE (${valueColumns.map((column) => `${table}.${column}`).join(', ')}) IS DISTINCT FROM ` +
        `(${valueColumns.map((column) => `EXCLUDED.${column}`).join(', ')})`;
  // Only rows inserted or changed come out of RETURNING; they are counted where they are written.
  const sql =
    `WITH written AS (INSERT INTO ${table} (${columns.join(', ')}) ` +
    `SELECT ${columns.join(', ')} FROM json_populate_recordset(NULL::${table}, $1::json) ${conflict} RETURNING 1) ` +
    `SELECT count(*)::integer AS changed FROM written`;

  let changed = 0;
  for (let start = 0; start < spec.rows.length; start += batchSize) {
    const batch = spec.rows.slice(start, start + batchSize);
    const records = batch.map((row) => {
      if (row.length !== columns.length) {
        throw new Error(`Row for ${table} has ${row.length} values; expected ${columns.length}.`);
      }
      return Object.fromEntries(columns.map((column, index) => [column, row[index] ?? null]));
    });
    const result = await tx.query<{ changed: number }>(sql, [JSON.stringify(records)]);
    changed += result.rows[0]?.changed ?? 0;
    spec.onBatch?.(Math.min(start + batch.length, spec.rows.length), spec.rows.length);
  }
  return changed;
}

export interface DeleteMissingSpec {
  table: string;
  key: readonly string[];
  /** The rows this load covers, e.g. `year = ANY($1)`: only rows in scope may be deleted. */
  scope: string;
  scopeParams?: readonly unknown[];
  /** Keys (values in `key` order) the load just wrote; every other row in scope is deleted. */
  keep: readonly (readonly unknown[])[];
}

/**
 * Deletes rows in scope that the new load no longer has; resolves to the number deleted. The kept keys
 * go to the database in batches of JSON, converted by the key columns' own types (a `date` key
 * compares as a date, however the caller wrote it), into a temporary table that lives as long as the
 * transaction; the database then finds the rest. Reading every key in scope back to compare here
 * cost more than the sync's writing.
 */
export async function deleteMissingRows(tx: Queryable, spec: DeleteMissingSpec): Promise<number> {
  const table = identifier(spec.table);
  const key = spec.key.map(identifier);
  const kept = `kept_${table}`;
  const scopeParams = spec.scopeParams ?? [];
  await tx.query(`DROP TABLE IF EXISTS pg_temp.${kept}`);
  await tx.query(`CREATE TEMP TABLE ${kept} ON COMMIT DROP AS SELECT ${key.join(', ')} FROM ${table} WITH NO DATA`);
  for (let start = 0; start < spec.keep.length; start += BATCH_ROWS) {
    const batch = spec.keep.slice(start, start + BATCH_ROWS);
    const records = batch.map((values) => Object.fromEntries(key.map((column, index) => [column, values[index] ?? null])));
    await tx.query(`INSERT INTO ${kept} SELECT ${key.join(', ')} FROM json_populate_recordset(NULL::${kept}, $1::json)`, [
      JSON.stringify(records),
    ]);
  }
  // Without statistics the planner takes the new table for a few rows and compares every row in
  // scope with every kept key (minutes on PostgreSQL for 80,000 keys); with them it hashes the keys.
  await tx.query(`ANALYZE ${kept}`);
  const matches = key.map((column) => `${kept}.${column} = ${table}.${column}`).join(' AND ');
  const result = await tx.query(
    `DELETE FROM ${table} WHERE (${spec.scope}) AND NOT EXISTS (SELECT 1 FROM ${kept} WHERE ${matches})`,
    scopeParams,
  );
  await tx.query(`DROP TABLE ${kept}`);
  return result.rowCount;
}
