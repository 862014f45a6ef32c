// The custom-SQL guard on DuckDB's own parse: every attack in the fixture is refused before anything
// runs, WITH names are visible only where the binder sees them (even with the reserved-name rule
// off), built-in macros are judged by their bodies, and ordinary analytical SQL passes.
import fs from 'node:fs';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../api/config.ts';
import { lookUpCatalog, serialiseSql } from '../../api/hmda/sql-catalog.ts';
import { ALLOWED_FUNCTIONS } from '../../api/hmda/sql-functions.ts';
import {
  allowedMacroBodies,
  checkQuery,
  checkText,
  hasSeveralStatements,
  SqlRefusedError,
  stripForScan,
  type GuardCatalog,
} from '../../api/hmda/sql-guard.ts';

/** The attack list, with its `\n` and `\u{…}` escapes decoded. */
function attacks(): string[] {
  return fs
    .readFileSync(path.join(PROJECT_ROOT, 'tests', 'fixtures', 'hmda-sql-attacks.txt'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) =>
      line.replace(/\\n/g, '\n').replace(/\\u\{([0-9A-Fa-f]+)\}/g, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16))),
    );
}

const ORDINARY = [
  'SELECT year, count(*) FROM lar GROUP BY ALL',
  'WITH top AS (SELECT lei, count(*) n FROM lar GROUP BY lei) SELECT * FROM top JOIN lenders USING (lei) ORDER BY n DESC LIMIT 5',
  'SELECT * FROM (SELECT * FROM lar) s WHERE s.loan_amount > (SELECT avg(loan_amount) FROM lar)',
  'SELECT * FROM range(3) UNION ALL SELECT 1',
  'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT * FROM r',
  'WITH a AS (SELECT 1 AS x), b AS (SELECT x + 1 AS y FROM a) SELECT * FROM b',
  'SELECT * FROM (WITH x AS (SELECT 1 AS a) SELECT * FROM x) s, (WITH x AS (SELECT 2 AS b) SELECT * FROM x) t',
  'PIVOT lar ON loan_type IN (1, 2, 3, 4) USING count(*) GROUP BY action_taken',
  'SELECT * FROM lar PIVOT (count(*) FOR loan_type IN (1, 2))',
  "SELECT coalesce(interest_rate, 0), ifnull(rate_spread, 0), CASE WHEN loan_amount > 5e5 THEN 'jumbo' END, TRY_CAST(debt_to_income_ratio AS INTEGER) FROM lar",
  "SELECT list_sum([1, 2]), list_transform([1, 2], x -> x * 2), list_filter([1], lambda x: x > 0), {'a': 1}.a, split_part('a-b', '-', 2), geomean(loan_amount) FROM lar",
  'SELECT loan_type, count(*) FILTER (WHERE action_taken = 1), round(median(interest_rate), 3), nullif(count(*), 0) FROM lar GROUP BY GROUPING SETS ((loan_type), ()) ORDER BY grouping(loan_type)',
  'SELECT row_number() OVER w, lag(loan_amount) OVER w FROM lar WINDOW w AS (ORDER BY loan_amount) QUALIFY row_number() OVER w < 3',
  "SELECT COLUMNS('derived_.*'), * EXCLUDE (lei) FROM lar",
  "SELECT strftime(DATE '2022-01-01', '%Y'), INTERVAL 1 DAY, current_date, derived_race ILIKE 'w%', state || county_code FROM lar",
  'FROM lar SELECT count(*)',
  'WITH x AS (SELECT 1 AS a) SELECT * FROM x UNION ALL SELECT * FROM x',
  'WITH x AS (WITH y AS (SELECT 1 AS a) SELECT * FROM y) SELECT (SELECT a FROM x), EXISTS (SELECT 1 FROM x)',
];

describe('text checks', () => {
  it('blanks literals and comments and drops identifier quotes', () => {
    const scanned = stripForScan(`SELECT 'COPY; x' /* DROP */ , "read_csv"('a') -- ATTACH`);
    expect(scanned.replace(/\s+/g, ' ')).toBe(`SELECT '' , read_csv('') `);
  });

  it('tells a second statement from a semicolon in a literal or at the end', () => {
    expect(hasSeveralStatements("SELECT 'a;b';")).toBe(false);
    expect(hasSeveralStatements('SELECT 1 -- x;y\n')).toBe(false);
    expect(hasSeveralStatements('SELECT 1; SELECT 2')).toBe(true);
  });

  it.each([
    ['SELECT 1\u200B', 'invisible_characters'],
    ['SELECT 1\u0000', 'invisible_characters'],
    ['', 'empty'],
    [42, 'empty'],
    ['x'.repeat(20_001), 'too_long'],
  ])('refuses case %#', (sql, reason) => {
    expect(() => checkText(sql)).toThrow(SqlRefusedError);
    expect(() => checkText(sql)).toThrow(expect.objectContaining({ reason }));
  });
});

describe('the guard on DuckDB’s parse', () => {
  let instance: DuckDBInstance;
  let connection: DuckDBConnection;
  let catalog: GuardCatalog;
  /** The guard's verdict: 'ok', 'syntax' or the refusal's reason. */
  const verdict = async (sql: string, against: GuardCatalog = catalog): Promise<string> => {
    try {
      return checkQuery(sql, await serialiseSql(connection, sql), against).syntaxError ? 'syntax' : 'ok';
    } catch (error) {
      if (error instanceof SqlRefusedError) return error.reason;
      throw error;
    }
  };

  beforeAll(async () => {
    instance = await DuckDBInstance.create(':memory:');
    connection = await instance.connect();
    catalog = await lookUpCatalog(connection);
  });
  afterAll(() => {
    connection.closeSync();
    instance.closeSync();
  });

  it('knows every allowlisted function in this DuckDB, macros included', () => {
    expect([...ALLOWED_FUNCTIONS].filter((name) => !catalog.functions.has(name))).toEqual([]);
    expect(catalog.catalogNames).toContain('pg_settings');
    expect(catalog.catalogNames).toContain('duckdb_tables');
  });

  it('passes ordinary analytical SQL', async () => {
    for (const sql of ORDINARY) expect(await verdict(sql), sql).toBe('ok');
  });

  it('refuses every attack in the fixture before anything runs', async () => {
    const list = attacks();
    expect(list.length).toBeGreaterThan(120);
    for (const sql of list) {
      let outcome: string;
      try {
        outcome = await verdict(checkText(sql));
      } catch (error) {
        outcome = error instanceof SqlRefusedError ? error.reason : 'threw';
      }
      expect(['ok', 'threw'], `not refused: ${JSON.stringify(sql)}`).not.toContain(outcome);
    }
  });

  it('keeps WITH names in their scope even when they may reuse catalog names', async () => {
    // With the reserved-name rule off, only the scoped walk stands between a WITH name and the catalog.
    const scopesOnly: GuardCatalog = { functions: catalog.functions, catalogNames: new Set() };
    for (const sql of [
      'SELECT * FROM (WITH duckdb_tables AS (SELECT 1) SELECT * FROM duckdb_tables) t, duckdb_tables',
      'SELECT (SELECT 1 FROM (WITH pg_settings AS (SELECT 1) SELECT 1)), (SELECT setting FROM pg_settings)',
      'WITH a AS (SELECT * FROM pg_settings), pg_settings AS (SELECT 1) SELECT * FROM a',
      'WITH pg_settings AS (SELECT * FROM pg_settings) SELECT * FROM pg_settings',
      'SELECT * FROM (WITH x AS (SELECT 1) SELECT 1) UNION ALL SELECT * FROM x',
    ]) {
      expect(await verdict(sql, scopesOnly), sql).toBe('table');
    }
    expect(await verdict('WITH pg_settings AS (SELECT 1) SELECT * FROM pg_settings', scopesOnly)).toBe('ok');
    expect(await verdict('WITH pg_settings AS (SELECT 1) SELECT * FROM pg_settings')).toBe('cte_shadows_catalog');
  });

  it('judges a built-in macro by what it expands to, not by its name', async () => {
    // Macros whose bodies read the catalog, settings or a clock: refused even if someone allowlists them.
    const reaching = ['pg_get_viewdef', 'format_type', 'get_block_size', 'current_catalog', 'current_database', 'pg_sleep'];
    const bodies = new Map<string, string[]>();
    const reader = await connection.runAndReadAll(
      `SELECT function_name, list(macro_definition) FROM duckdb_functions() WHERE function_type = 'macro' AND function_name IN (${reaching.map((name) => `'${name}'`).join(', ')}) GROUP BY ALL`,
    );
    for (const [name, definitions] of reader.getRowsJS()) {
      bodies.set(String(name), await Promise.all((definitions as string[]).map((body) => serialiseSql(connection, `SELECT ${body}`))));
    }
    expect([...bodies.keys()].sort()).toEqual([...reaching].sort());
    const widened = allowedMacroBodies(new Set([...catalog.functions, ...reaching]), bodies, catalog.catalogNames);
    for (const name of reaching) expect(widened.has(name), name).toBe(false);
    // A macro over allowed functions stays: nullif expands to CASE, list_sum to list_aggr(l, 'sum').
    expect(widened.has('nullif') && widened.has('list_sum')).toBe(true);
  });

  it('refuses a PIVOT without IN for that reason, not as several statements', async () => {
    expect(await verdict('PIVOT lar ON loan_type USING count(*)')).toBe('pivot_without_in');
    expect(await verdict('SELECT * FROM (PIVOT lar ON loan_type USING count(*))')).toBe('pivot_without_in');
    expect(await verdict('SELECT 1; SELECT 2')).toBe('several_statements');
    expect(await verdict('SELEC 1')).toBe('syntax');
  });
});
