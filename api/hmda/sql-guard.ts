// Decides what a custom query may reference from DuckDB's own parse of it (`json_serialize_sql`),
// not from names in the text: one SELECT whose tables are the warehouse views `lar` and `lenders` or
// WITH names visible where they are used, whose table functions are range/generate_series/unnest,
// and whose every function call is on the allowlist of sql-functions.ts. The walk follows the
// binder's scopes: a WITH name is visible in its own query (and, for a recursive one, in itself),
// never elsewhere, so `pg_settings` declared in one subquery cannot make the catalog view of that
// name readable in another. WITH names may not reuse a catalog name at all, so a scope the
// walk got wrong still cannot reach the catalog.
import { BadRequestError } from '../platform/errors.ts';
import { AGGREGATE_BY_NAME, AGGREGATES, ALLOWED_TABLE_FUNCTIONS } from './sql-functions.ts';

export const MAX_QUERY_LENGTH = 20_000;
export const QUERYABLE_TABLES: readonly string[] = ['lar', 'lenders'];

/** What the engine knows, looked up once per engine (sql-catalog.ts). */
export interface GuardCatalog {
  /** Function names a query may call: the allowlist, less macros whose bodies call anything else. */
  functions: ReadonlySet<string>;
  /** Tables and views an unqualified name can resolve to (schemas main and pg_catalog; lower case). */
  catalogNames: ReadonlySet<string>;
}

/** A refusal: the query is not run. `reason` is short and stable, for the log. */
export class SqlRefusedError extends BadRequestError {
  readonly reason: string;
  readonly detail: string;
  constructor(reason: string, detail: string) {
    super(
      `Custom SQL refused: ${detail}. Send one read-only SELECT (or WITH … SELECT) over the lar and lenders views; see the HMDA warehouse documentation (/docs/hmda-warehouse on this site) for their columns.`,
    );
    this.reason = reason;
    this.detail = detail;
  }
}

const QUERY_NODES = new Set(['SELECT_NODE', 'SET_OPERATION_NODE', 'RECURSIVE_CTE_NODE', 'CTE_NODE']);
const TABLE_REFS = new Set(['BASE_TABLE', 'JOIN', 'SUBQUERY', 'TABLE_FUNCTION', 'EMPTY', 'EXPRESSION_LIST', 'PIVOT']);
const EXPRESSION_CLASSES = new Set([
  'CONSTANT',
  'COLUMN_REF',
  'FUNCTION',
  'AGGREGATE',
  'WINDOW',
  'CASE',
  'CAST',
  'COMPARISON',
  'CONJUNCTION',
  'OPERATOR',
  'BETWEEN',
  'SUBQUERY',
  'STAR',
  'LAMBDA',
  'LAMBDA_REF',
  'COLLATE',
  'POSITIONAL_REFERENCE',
]);
const AGGREGATE_NAMES = new Set(AGGREGATES);

/**
 * The text with string literals emptied, comments blanked and identifier quotes removed: lets the
 * sandbox tell "two statements" from "one statement DuckDB expands into two" (PIVOT without IN).
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

/** Checks that need no parser: a string, not empty, not too long, no control or invisible characters. */
export function checkText(sql: unknown): string {
  if (typeof sql !== 'string' || sql.trim() === '') throw new SqlRefusedError('empty', 'the query is empty');
  if (sql.length > MAX_QUERY_LENGTH) throw new SqlRefusedError('too_long', `the query is longer than ${MAX_QUERY_LENGTH} characters`);
  // Invisible and control characters can hide a statement from a reader of the log.
  if (/[\p{Cc}\p{Cf}\u2028\u2029]/u.test(sql.replace(/[\t\n\r]/g, ''))) {
    throw new SqlRefusedError('invisible_characters', 'the query contains control or invisible Unicode characters');
  }
  return sql;
}

/** True when the text holds a second statement after a semicolon (outside literals and comments). */
export function hasSeveralStatements(sql: string): boolean {
  return /;\s*\S/.test(stripForScan(sql));
}

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const lower = (value: unknown): string => text(value).toLowerCase();

/** Walks one parsed statement; throws SqlRefusedError at the first thing it may not reference. */
class ScopedWalk {
  private readonly catalog: GuardCatalog;
  constructor(catalog: GuardCatalog) {
    this.catalog = catalog;
  }

  query(node: Node, scope: ReadonlySet<string>): void {
    const type = text(node.type);
    if (!QUERY_NODES.has(type)) throw new SqlRefusedError('statement_type', `${type || 'this statement'} is not allowed`);
    let inner = new Set(scope);
    const entries = (isNode(node.cte_map) && Array.isArray(node.cte_map.map) ? node.cte_map.map : []) as Node[];
    for (const entry of entries) {
      const name = lower(entry.key);
      if (this.catalog.catalogNames.has(name) && !QUERYABLE_TABLES.includes(name)) {
        throw new SqlRefusedError('cte_shadows_catalog', `the WITH name "${name}" is reserved; choose another name`);
      }
      // A WITH entry sees the entries before it; itself only when recursive (RECURSIVE_CTE_NODE below).
      const value = isNode(entry.value) ? entry.value : {};
      const body = isNode(value.query) && isNode(value.query.node) ? value.query.node : undefined;
      if (!body) throw new SqlRefusedError('unparsed', `the WITH entry "${name}" could not be read`);
      this.query(body, inner);
      inner = new Set(inner).add(name);
    }
    if (type === 'RECURSIVE_CTE_NODE' || type === 'CTE_NODE') {
      const own = lower(node.cte_name);
      if (own !== '') inner.add(own);
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'cte_map') continue;
      if (type === 'CTE_NODE' && key === 'query')
        this.any(value, scope); // the materialised body does not see its own name
      else this.any(value, inner);
    }
  }

  any(value: unknown, scope: ReadonlySet<string>): void {
    if (Array.isArray(value)) {
      for (const item of value) this.any(item, scope);
      return;
    }
    if (!isNode(value)) return;
    if ('class' in value) return this.expression(value, scope);
    const type = text(value.type);
    if (QUERY_NODES.has(type) || (type.endsWith('_NODE') && 'modifiers' in value)) return this.query(value, scope);
    if ('sample' in value || TABLE_REFS.has(type) || type.endsWith('_REF')) return this.tableRef(value, scope);
    for (const inner of Object.values(value)) this.any(inner, scope);
  }

  tableRef(node: Node, scope: ReadonlySet<string>): void {
    const type = text(node.type);
    if (!TABLE_REFS.has(type)) {
      throw new SqlRefusedError(
        'table_ref',
        type === 'SHOW_REF' ? 'DESCRIBE, SHOW and SUMMARIZE are not allowed' : `${type || 'this FROM item'} is not allowed`,
      );
    }
    if (type === 'BASE_TABLE') {
      const table = lower(node.table_name);
      if (text(node.schema_name) !== '' || text(node.catalog_name) !== '') {
        const qualified = [text(node.catalog_name), text(node.schema_name), table].filter(Boolean).join('.');
        throw new SqlRefusedError('qualified_table', `only the lar and lenders views can be queried, not ${qualified}`);
      }
      if (!scope.has(table) && !QUERYABLE_TABLES.includes(table)) {
        throw new SqlRefusedError(
          'table',
          `only the lar and lenders views (and WITH names, where they are visible) can be queried, not "${table}"`,
        );
      }
    }
    if (type === 'TABLE_FUNCTION') {
      const call = isNode(node.function) ? node.function : {};
      const name = lower(call.function_name);
      if (!ALLOWED_TABLE_FUNCTIONS.has(name) || text(call.schema) !== '' || text(call.catalog) !== '') {
        throw new SqlRefusedError(
          'table_function',
          `the table function ${name || '(unnamed)'}() is not allowed; only range, generate_series and unnest are`,
        );
      }
      this.any(call.children, scope);
    }
    if (type === 'PIVOT' && Array.isArray(node.pivots) && (node.pivots as Node[]).some((pivot) => text(pivot.pivot_enum) !== '')) {
      throw new SqlRefusedError('pivot_enum', 'PIVOT … IN must list its values, not name a type');
    }
    for (const [key, value] of Object.entries(node)) {
      if (type === 'TABLE_FUNCTION' && key === 'function') continue;
      this.any(value, scope);
    }
  }

  expression(node: Node, scope: ReadonlySet<string>): void {
    const kind = text(node.class);
    if (kind === 'PARAMETER')
      throw new SqlRefusedError('parameter', 'parameters ($1, ?) are not supported; write the values into the query');
    if (!EXPRESSION_CLASSES.has(kind))
      throw new SqlRefusedError('expression', `${kind.toLowerCase() || 'this'} expressions are not allowed`);
    if (kind === 'FUNCTION' || kind === 'AGGREGATE' || kind === 'WINDOW') this.functionCall(node);
    for (const value of Object.values(node)) this.any(value, scope);
  }

  functionCall(node: Node): void {
    const name = lower(node.function_name);
    const schema = lower(node.schema);
    // The parser itself writes main.list_value for [1, 2] and main.struct_pack for {'a': 1}.
    if ((schema !== '' && schema !== 'main') || text(node.catalog) !== '') {
      throw new SqlRefusedError(
        'qualified_function',
        `qualified function names (${[text(node.catalog), schema, name].filter(Boolean).join('.')}) are not allowed`,
      );
    }
    if (!this.catalog.functions.has(name)) throw new SqlRefusedError('function', `the function ${name}() is not available in custom SQL`);
    if (AGGREGATE_BY_NAME.has(name)) {
      const named = Array.isArray(node.children) ? (node.children as unknown[])[1] : undefined;
      const constant = isNode(named) && named.class === 'CONSTANT' && isNode(named.value) ? named.value.value : undefined;
      if (typeof constant !== 'string' || !AGGREGATE_NAMES.has(constant.toLowerCase())) {
        throw new SqlRefusedError('function', `${name}() must name one of the allowed aggregates in a string constant`);
      }
    }
  }
}

/** Why DuckDB could not serialise a query: a syntax error, or a statement that is not one SELECT. */
export interface SerialiseError {
  type: string;
  message: string;
  /** Character offset of a syntax error. */
  position?: number;
}

function parseTree(serialised: string): Node {
  try {
    const tree = JSON.parse(serialised) as unknown;
    if (isNode(tree)) return tree;
  } catch {
    // fall through
  }
  throw new SqlRefusedError('unparsed', 'the query could not be read');
}

/**
 * Checks DuckDB's serialised syntax tree of the query. A tree DuckDB could not produce (not a
 * SELECT, a syntax error) is left to the caller, who knows the text: `error_message` is returned.
 */
export function checkSyntaxTree(serialised: string, catalog: GuardCatalog): { error?: SerialiseError } {
  const tree = parseTree(serialised);
  if (tree.error === true) {
    const position = Number(tree.position);
    return {
      error: { type: text(tree.error_type), message: text(tree.error_message), ...(Number.isInteger(position) ? { position } : {}) },
    };
  }
  const statements = Array.isArray(tree.statements) ? (tree.statements as unknown[]) : [];
  if (statements.length !== 1) throw new SqlRefusedError('several_statements', 'only one statement is allowed');
  const statement = statements[0];
  if (!isNode(statement) || !isNode(statement.node)) throw new SqlRefusedError('unparsed', 'the query could not be read');
  const named = statement.named_param_map;
  if (Array.isArray(named) ? named.length > 0 : isNode(named) && Object.keys(named).length > 0) {
    throw new SqlRefusedError('parameter', 'parameters ($1, ?) are not supported; write the values into the query');
  }
  new ScopedWalk(catalog).query(statement.node, new Set());
  return {};
}

/**
 * The verdict on one custom query from DuckDB's serialised parse of it: throws SqlRefusedError for
 * anything it may not do; returns a syntax error (the engine's text, for sql-errors.ts) when
 * DuckDB could not parse it; returns {} when the query may be prepared.
 */
export function checkQuery(
  sql: string,
  serialised: string,
  catalog: GuardCatalog,
): { syntaxError?: { detail: string; position?: number } } {
  const { error } = checkSyntaxTree(serialised, catalog);
  if (!error) return {};
  if (error.type === 'parser')
    return {
      syntaxError: { detail: `Parser Error: ${error.message}`, ...(error.position !== undefined ? { position: error.position } : {}) },
    };
  // DuckDB serialises SELECT statements only: anything else is refused, for the reason it is.
  if (hasSeveralStatements(sql)) throw new SqlRefusedError('several_statements', 'only one statement is allowed');
  if (/\bpivot\b/i.test(stripForScan(sql))) {
    // Without IN, DuckDB runs a second statement (CREATE TYPE) to find the values first.
    throw new SqlRefusedError(
      'pivot_without_in',
      'PIVOT must list the values it turns into columns, e.g. PIVOT lar ON loan_type IN (1, 2, 3, 4) USING count(*)',
    );
  }
  throw new SqlRefusedError('statement_type', 'only SELECT statements are allowed');
}

/**
 * The allowlist less every macro whose body calls something not on it (or reads a table): DuckDB
 * expands macros after the names are checked, so a macro is allowed for what it runs, not its name.
 * `bodies` holds the serialised tree of `SELECT <body>` for every definition of each allowed macro.
 */
export function allowedMacroBodies(
  allowed: ReadonlySet<string>,
  bodies: ReadonlyMap<string, string[]>,
  catalogNames: ReadonlySet<string>,
): Set<string> {
  const functions = new Set(allowed);
  for (let changed = true; changed;) {
    changed = false;
    for (const [name, trees] of bodies) {
      if (!functions.has(name)) continue;
      const plain = trees.every((serialised) => {
        try {
          return checkSyntaxTree(serialised, { functions, catalogNames }).error === undefined;
        } catch {
          return false;
        }
      });
      if (!plain) {
        functions.delete(name);
        changed = true;
      }
    }
  }
  return functions;
}
