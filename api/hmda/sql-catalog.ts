// What the engine itself knows that the guard needs: its serialised parse of a query, the
// allowlisted functions it really has (macros kept only when their bodies are plain), and the
// table and view names an unqualified name could resolve to.
import type { DuckDBConnection } from '@duckdb/node-api';
import { literal } from './duck.ts';
import { ALLOWED_FUNCTIONS } from './sql-functions.ts';
import { allowedMacroBodies, type GuardCatalog } from './sql-guard.ts';

/** DuckDB's serialised syntax tree of `sql` (JSON text), or of the error that stopped the parse. */
export async function serialiseSql(connection: DuckDBConnection, sql: string): Promise<string> {
  return String((await connection.runAndReadAll('SELECT json_serialize_sql($1::VARCHAR)', [sql])).getRowsJS()[0]?.[0] ?? '');
}

/** The allowlist as this engine has it: names it lacks dropped, macros judged by their bodies. */
export async function lookUpCatalog(connection: DuckDBConnection): Promise<GuardCatalog> {
  const names = [...ALLOWED_FUNCTIONS];
  const functions = await connection.runAndReadAll(
    // Table macros are only reachable from FROM, where only range, generate_series and unnest are allowed.
    `SELECT lower(function_name), list(macro_definition) FILTER (WHERE function_type = 'macro')
     FROM duckdb_functions() WHERE lower(function_name) IN (${names.map(literal).join(', ')}) GROUP BY ALL`,
  );
  const catalogNames = new Set(
    (
      await connection.runAndReadAll(
        // The schemas an unqualified name is looked up in.
        `SELECT lower(view_name) FROM duckdb_views() WHERE schema_name IN ('main', 'pg_catalog')
         UNION SELECT lower(table_name) FROM duckdb_tables() WHERE schema_name IN ('main', 'pg_catalog')`,
      )
    )
      .getRowsJS()
      .map(([name]) => String(name)),
  );
  const present = new Set<string>();
  const bodies = new Map<string, string[]>();
  for (const [name, definitions] of functions.getRowsJS()) {
    present.add(String(name));
    const list = Array.isArray(definitions) ? definitions.map(String) : [];
    if (list.length > 0) {
      const trees: string[] = [];
      for (const body of list) trees.push(await serialiseSql(connection, `SELECT ${body}`));
      bodies.set(String(name), trees);
    }
  }
  return { functions: allowedMacroBodies(present, bodies, catalogNames), catalogNames };
}
