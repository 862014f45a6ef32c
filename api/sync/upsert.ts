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
  rows: readonly (readonly unknown[])[];
  /** Rows per INSERT statement; parameters stay below PostgreSQL's 65,535 limit. */
  batchSize?: number;
  /** Called after each batch with the rows written so far (progress bars). */
  onBatch?: (done: number, total: number) => void;
}

/** Inserts or updates `rows`; resolves to the number of rows inserted or actually changed. */
export async function upsertRows(tx: Queryable, spec: UpsertSpec): Promise<number> {
  const table = identifier(spec.table);
  const columns = spec.columns.map(identifier);
  const key = spec.key.map(identifier);
  for (const column of key) {
    if (!columns.includes(column)) throw new Error(`Key column ${column} is not among the columns of ${table}.`);
  }
  const valueColumns = columns.filter((column) => !key.includes(column));
  const maxRows = Math.max(1, Math.floor(30_000 / columns.length));
  const batchSize = Math.min(spec.batchSize ?? 1_000, maxRows);

  const conflict =
    valueColumns.length === 0
      ? `ON CONFLICT (${key.join(', ')}) DO NOTHING`
      : `ON CONFLICT (${key.join(', ')}) DO UPDATE SET ${valueColumns.map((column) => `${column} = EXCLUDED.${column}`).join(', ')} ` +
        `WHERE (${valueColumns.map((column) => `${table}.${column}`).join(', ')}) IS DISTINCT FROM ` +
        `(${valueColumns.map((column) => `EXCLUDED.${column}`).join(', ')})`;

  let changed = 0;
  for (let start = 0; start < spec.rows.length; start += batchSize) {
    const batch = spec.rows.slice(start, start + batchSize);
    const params: unknown[] = [];
    const tuples = batch.map((row) => {
      if (row.length !== columns.length) {
        throw new Error(`Row for ${table} has ${row.length} values; expected ${columns.length}.`);
      }
      const placeholders = row.map((value) => {
        params.push(value);
        return `$${params.length}`;
      });
      return `(${placeholders.join(', ')})`;
    });
    const sql = `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')} ${conflict} RETURNING 1 AS written`;
    const result = await tx.query(sql, params);
    changed += result.rows.length;
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

/** Deletes rows in scope that the new load no longer has; resolves to the number deleted. */
export async function deleteMissingRows(tx: Queryable, spec: DeleteMissingSpec): Promise<number> {
  const table = identifier(spec.table);
  const key = spec.key.map(identifier);
  const asText = (values: readonly unknown[]) => values.map((value) => String(value)).join('\u0000');
  const keep = new Set(spec.keep.map(asText));
  // Keys are read back as text: a `date` column would otherwise come back as a JS Date, whose
  // String() never equals the 'YYYY-MM-DD' the caller kept, and every row would look stale.
  const { rows } = await tx.query<Record<string, unknown>>(
    `SELECT ${key.map((column) => `${column}::text AS ${column}`).join(', ')} FROM ${table} WHERE ${spec.scope}`,
    spec.scopeParams,
  );
  const stale = rows.map((row) => key.map((column) => row[column])).filter((values) => !keep.has(asText(values)));
  let deleted = 0;
  for (let start = 0; start < stale.length; start += 500) {
    const batch = stale.slice(start, start + 500);
    const params: unknown[] = [];
    const tuples = batch.map((values) => `(${values.map((value) => (params.push(value), `$${params.length}`)).join(', ')})`);
    const result = await tx.query(`DELETE FROM ${table} WHERE (${key.join(', ')}) IN (${tuples.join(', ')})`, params);
    deleted += result.rowCount;
  }
  return deleted;
}
