// Turns DuckDB's error text into our own sentences for the caller. Engine messages carry file
// paths, candidate lists and internals; none of that is passed on. A name is echoed only when the
// caller's own SQL contains it, so an answer never says more than the caller already wrote.

export type EngineFailure =
  | { kind: 'user'; reason: string; message: string }
  | { kind: 'timeout' }
  | { kind: 'memory' }
  /** Not the caller's mistake (a broken warehouse file, an engine fault): a 500, logged in full. */
  | { kind: 'internal'; reason: string };

const COLUMNS_HINT = 'the lar and lenders columns are listed in the HMDA warehouse documentation (/docs/hmda-warehouse on this site)';

/** The name (or token), when the caller wrote it (case-insensitive) and it is short and printable. */
function echo(name: string | undefined, sql: string): string | undefined {
  if (!name || name.length > 64 || /[\p{Cc}\p{Cf}]/u.test(name)) return undefined;
  return sql.toLowerCase().includes(name.toLowerCase()) ? name : undefined;
}

const quoted = (name: string | undefined) => (name ? `"${name}"` : 'a name');

/** " (line N)" from the engine's LINE marker or a character offset into the caller's SQL. */
function lineOf(message: string, sql = '', position?: number): string {
  const line = position !== undefined ? sql.slice(0, position).split('\n').length : Number(/\bLINE (\d+):/.exec(message)?.[1]);
  return Number.isInteger(line) && line > 0 ? ` (line ${line})` : '';
}

function parserSentence(detail: string, sql: string, position?: number): string {
  const where = lineOf(detail, sql, position);
  const near = echo(/syntax error at or near "([^"]*)"/.exec(detail)?.[1], sql);
  if (near) return `syntax error at or near "${near}"${where}`;
  if (/syntax error at end of input/.test(detail)) return 'the query ends before it is complete';
  if (/unterminated quoted/.test(detail)) return `a quoted string or name is not closed${where}`;
  return `syntax error${where}`;
}

function binderSentence(detail: string, sql: string): string {
  let match: RegExpExecArray | null;
  if ((match = /Referenced column "([^"]+)" not found/.exec(detail)))
    return `column ${quoted(echo(match[1], sql))} does not exist; ${COLUMNS_HINT}`;
  if ((match = /Table "([^"]+)" does not have a column named "([^"]+)"/.exec(detail))) {
    return `${quoted(echo(match[1], sql))} has no column named ${quoted(echo(match[2], sql))}; ${COLUMNS_HINT}`;
  }
  if ((match = /column "([^"]+)" must appear in the GROUP BY clause/.exec(detail))) {
    return `column ${quoted(echo(match[1], sql))} must be in GROUP BY or inside an aggregate such as any_value()`;
  }
  if ((match = /Ambiguous reference to column name "([^"]+)"/.exec(detail))) {
    return `column ${quoted(echo(match[1], sql))} is ambiguous; prefix it with its table name or alias`;
  }
  if ((match = /No function matches the given name and argument types '([\p{L}\p{N}_]+)\(/u.exec(detail))) {
    const name = echo(match[1], sql);
    return `${name ? `${name}()` : 'a function'} does not take arguments of these types; add explicit casts (CAST(x AS DOUBLE))`;
  }
  if ((match = /Column "([^"]+)" does not exist on (left|right) side of join/.exec(detail))) {
    return `the USING column ${quoted(echo(match[1], sql))} does not exist on the ${match[2]} side of the join`;
  }
  if (/Set operations can only apply to expressions with the same number of result columns/.test(detail)) {
    return 'both sides of UNION, EXCEPT or INTERSECT must have the same number of columns';
  }
  if (/ORDER term out of range/.test(detail)) return 'an ORDER BY position is larger than the number of columns';
  if (/GROUP BY term out of range/.test(detail)) return 'a GROUP BY position is larger than the number of columns';
  if (/aggregate function calls cannot be nested/i.test(detail)) return 'aggregate functions cannot be nested';
  if (/WHERE clause cannot contain aggregates/i.test(detail)) return 'WHERE cannot use aggregates; use HAVING';
  return `a name or type in the query does not fit the lar and lenders views${lineOf(detail)}`;
}

/** The error DuckDB raised while parsing, planning or running the caller's query, in our words. */
export function describeEngineError(raw: string, sql: string, position?: number): EngineFailure {
  const match = /^([A-Za-z ]+?) Error: ([\s\S]*)$/.exec(raw.trim());
  const kind = (match?.[1] ?? '').toLowerCase();
  const detail = match?.[2] ?? raw;
  // DuckDB reports a failed allocation (an address-space limit reached) as an internal error: the
  // query asked for more memory than it may have, like an "Out of Memory Error".
  if ((kind === 'internal' || kind === 'fatal') && /memory allocation fail|out of memory/i.test(detail)) return { kind: 'memory' };
  switch (kind) {
    case 'interrupt':
      return { kind: 'timeout' };
    case 'out of memory':
      return { kind: 'memory' };
    case 'parser':
      return { kind: 'user', reason: 'syntax', message: `Custom SQL could not be parsed: ${parserSentence(detail, sql, position)}.` };
    case 'binder':
      return { kind: 'user', reason: 'binder', message: `Custom SQL could not be run: ${binderSentence(detail, sql)}.` };
    case 'catalog': {
      const table = /Table with name ([^\s!]+) does not exist/.exec(detail)?.[1];
      const message = table
        ? `table ${quoted(echo(table, sql))} does not exist; only lar, lenders and WITH names can be queried`
        : `a name in the query does not exist; ${COLUMNS_HINT}`;
      return { kind: 'user', reason: 'catalog', message: `Custom SQL could not be run: ${message}.` };
    }
    case 'conversion': {
      const target = /(?:to|destination type) ([A-Z][A-Z0-9_]*)\b/.exec(detail)?.[1];
      return {
        kind: 'user',
        reason: 'conversion',
        message: `Custom SQL failed: a value could not be converted${target ? ` to ${target}` : ''}; use TRY_CAST to get NULL instead of an error.`,
      };
    }
    case 'out of range':
      return {
        kind: 'user',
        reason: 'out_of_range',
        message: 'Custom SQL failed: a number is out of range for its type; cast to BIGINT or DOUBLE first.',
      };
    case 'invalid input':
      return {
        kind: 'user',
        reason: 'invalid_input',
        message:
          'Custom SQL failed: a function was given an input it cannot use (for example a malformed regular expression, date or format string).',
      };
    case 'not implemented':
      return {
        kind: 'user',
        reason: 'not_implemented',
        message: 'Custom SQL could not be run: it uses a feature DuckDB does not support in this form.',
      };
    default:
      return { kind: 'internal', reason: kind === '' ? 'engine' : kind.replace(/\s+/g, '_') };
  }
}

/**
 * Whether the engine that raised this error may be unusable for the next query: a failed allocation
 * leaves its address space reserved; an internal or fatal error may invalidate the database
 * ("database has been invalidated because of a previous fatal error"). Anything not recognised as
 * the caller's own mistake counts, since a spare engine is cheaper than a broken one.
 */
export function engineUnusableAfter(raw: string, sql: string): boolean {
  if (/\b(INTERNAL|FATAL) Error\b|invalidated/i.test(raw)) return true;
  const kind = describeEngineError(raw, sql).kind;
  return kind === 'memory' || kind === 'internal';
}
