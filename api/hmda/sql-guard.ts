// Checks a custom query before it reaches DuckDB: one read-only SELECT over `lar`, `lenders` and its
// own CTEs, nothing that touches files, settings, extensions or other databases. DuckDB's own parser
// decides (statement count, statement type, the syntax tree); a text denylist is defence in depth.
import { BadRequestError } from '../platform/http/errors.ts';

export const MAX_QUERY_LENGTH = 20_000;
export const QUERYABLE_TABLES = ['lar', 'lenders'] as const;

/** Table functions a query may call; every other one (read_csv, glob, duckdb_settings…) is refused. */
const ALLOWED_TABLE_FUNCTIONS = new Set(['range', 'generate_series', 'unnest']);

/** Scalar functions that reveal configuration or reach outside the query. */
const DENIED_FUNCTION = /^(read_|duckdb_|pragma_|parquet_|sqlite_|iceberg_|delta_|glob$|getenv$|current_setting$|sniff_csv$|query$|query_table$|json_execute_serialized_sql$|which_secret$|load_|install_|enable_|disable_|set_|checkpoint$|force_checkpoint$|import_|export_|test_|icu_|current_schemas?$|current_database$)/i;

/** Words that only appear in statements we refuse; matched outside string literals and comments. */
const DENIED_WORDS =
  /\b(copy|attach|detach|install|load|pragma|export|import|checkpoint|vacuum|read_\w+|parquet_\w+|glob|getenv|duckdb_\w+|pragma_\w+|current_setting|sniff_csv|query_table|json_execute_serialized_sql|sqlite_\w+|read_text|read_blob)\b/i;
const DENIED_LEADING = /^\s*\(*\s*(set|reset|call|create|drop|alter|insert|update|delete|use|begin|commit|rollback|abort|prepare|execute|deallocate|describe|show|summarize|explain|analyze|load|install|update_extensions)\b/i;

const ALLOWED_FROM_TYPES = new Set(['BASE_TABLE', 'JOIN', 'SUBQUERY', 'TABLE_FUNCTION', 'EMPTY', 'EXPRESSION_LIST', 'PIVOT']);
const ALLOWED_NODE_TYPES = new Set(['SELECT_NODE', 'SET_OPERATION_NODE', 'RECURSIVE_CTE_NODE', 'CTE_NODE']);

const refuse = (why: string) =>
  new BadRequestError(
    `Custom SQL refused: ${why}. Send one read-only SELECT (or WITH … SELECT) over the lar and lenders views; see the HMDA section of the README for their columns.`,
  );

/**
 * The text with string literals emptied, comments blanked and identifier quotes removed, so that
 * `"read_csv"(…)` and `/* … *\/ COPY` are seen for what they are.
 */
export function stripForScan(sql: string): string {
  let out = '';
  let index = 0;
  while (index < sql.length) {
    const char = sql[index];
    const next = sql[index + 1];
    if (char === "'") {
      index += 1;
      while (index < sql.length) {
        if (sql[index] === "'" && sql[index + 1] === "'") index += 2;
        else if (sql[index] === "'") break;
        else index += 1;
      }
      index += 1;
      out += "''";
    } else if (char === '-' && next === '-') {
      while (index < sql.length && sql[index] !== '\n') index += 1;
      out += ' ';
    } else if (char === '/' && next === '*') {
      let depth = 1;
      index += 2;
      while (index < sql.length && depth > 0) {
        if (sql[index] === '/' && sql[index + 1] === '*') {
          depth += 1;
          index += 2;
        } else if (sql[index] === '*' && sql[index + 1] === '/') {
          depth -= 1;
          index += 2;
        } else {
          index += 1;
        }
      }
      out += ' ';
    } else if (char === '"') {
      index += 1;
    } else {
      out += char;
      index += 1;
    }
  }
  return out;
}

/** Checks that need no parser: size, invisible or control characters, denied words. */
export function checkText(sql: unknown): string {
  if (typeof sql !== 'string' || sql.trim() === '') throw refuse('the query is empty');
  if (sql.length > MAX_QUERY_LENGTH) throw refuse(`the query is longer than ${MAX_QUERY_LENGTH} characters`);
  // Invisible and control characters can hide a statement from a reader (and from a denylist).
  if (/[\p{Cc}\p{Cf}\u2028\u2029]/u.test(sql.replace(/[\t\n\r]/g, ''))) {
    throw refuse('the query contains control or invisible Unicode characters');
  }
  const scanned = stripForScan(sql);
  if (/;\s*\S/.test(scanned)) throw refuse('only one statement is allowed');
  if (DENIED_LEADING.test(scanned)) throw refuse('only SELECT statements are allowed');
  const word = DENIED_WORDS.exec(scanned);
  if (word) throw refuse(`${word[1]?.toUpperCase()} is not allowed`);
  return sql;
}

type Node = Record<string, unknown>;

function walk(value: unknown, visit: (node: Node) => void): void {
  if (Array.isArray(value)) {
    for (const item of value) walk(item, visit);
  } else if (value && typeof value === 'object') {
    visit(value as Node);
    for (const inner of Object.values(value as Node)) walk(inner, visit);
  }
}

/** Checks DuckDB's serialised syntax tree (`json_serialize_sql`) of the query. */
export function checkSyntaxTree(serialised: string): void {
  let tree: Node;
  try {
    tree = JSON.parse(serialised) as Node;
  } catch {
    throw refuse('the query could not be parsed');
  }
  if (tree.error === true) {
    const message = typeof tree.error_message === 'string' ? tree.error_message : 'not a SELECT statement';
    throw refuse(/only SELECT/i.test(message) ? 'only SELECT statements are allowed' : message.split('\n')[0] ?? message);
  }
  const statements = Array.isArray(tree.statements) ? tree.statements : [];
  if (statements.length !== 1) throw refuse('only one statement is allowed');

  const cteNames = new Set<string>();
  walk(statements, (node) => {
    const map = (node.cte_map as Node | undefined)?.map;
    if (Array.isArray(map)) for (const entry of map) cteNames.add(String((entry as Node).key).toLowerCase());
  });
  walk(statements, (node) => {
    const type = typeof node.type === 'string' ? node.type : '';
    if ('class' in node) {
      // An expression: only parameters and function calls matter here.
      if (node.class === 'PARAMETER') throw refuse('parameters ($1, ?) are not supported; write the values into the query');
      if (node.class !== 'FUNCTION' && node.class !== 'AGGREGATE' && node.class !== 'WINDOW') return;
      const name = String(node.function_name ?? '');
      if (DENIED_FUNCTION.test(name)) throw refuse(`the function ${name} is not allowed`);
      if ((node.schema ?? '') !== '' || (node.catalog ?? '') !== '') throw refuse(`qualified function names (${String(node.schema)}.${name}) are not allowed`);
    } else if (type.endsWith('_NODE') && 'modifiers' in node) {
      if (!ALLOWED_NODE_TYPES.has(type)) throw refuse(`${type} is not allowed`);
    } else if ('sample' in node && type !== '') {
      // A table reference.
      if (!ALLOWED_FROM_TYPES.has(type)) throw refuse(`${type === 'SHOW_REF' ? 'DESCRIBE, SHOW and SUMMARIZE are' : `${type} is`} not allowed`);
      if (type === 'BASE_TABLE') {
        const table = String(node.table_name ?? '').toLowerCase();
        if ((node.schema_name ?? '') !== '' || (node.catalog_name ?? '') !== '') {
          throw refuse(`only the lar and lenders views can be queried, not ${String(node.catalog_name || node.schema_name)}.${table}`);
        }
        if (!(QUERYABLE_TABLES as readonly string[]).includes(table) && !cteNames.has(table)) {
          throw refuse(`only the lar and lenders views (and your own WITH names) can be queried, not "${table}"`);
        }
      } else if (type === 'TABLE_FUNCTION') {
        const fn = (node.function as Node | undefined)?.function_name;
        if (typeof fn !== 'string' || !ALLOWED_TABLE_FUNCTIONS.has(fn.toLowerCase())) throw refuse(`the table function ${String(fn)} is not allowed`);
      }
    }
  });
}
