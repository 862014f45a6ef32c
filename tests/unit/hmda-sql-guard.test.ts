// The custom-SQL guard: the text scan sees through comments, quotes and invisible characters, and
// the syntax-tree check (on DuckDB's own parse) refuses attacks even when the text scan is bypassed.
import fs from 'node:fs';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../api/config.ts';
import { checkSyntaxTree, checkText, stripForScan } from '../../api/hmda/sql-guard.ts';
import { BadRequestError } from '../../api/platform/http/errors.ts';

describe('text scan', () => {
  it('blanks literals and comments and drops identifier quotes', () => {
    const scanned = stripForScan(`SELECT 'COPY; x' /* DROP */ , "read_csv"('a') -- ATTACH`);
    expect(scanned.replace(/\s+/g, ' ')).toBe(`SELECT '' , read_csv('') `);
  });

  it('accepts ordinary analytical SQL, including words inside string literals', () => {
    const sql = "WITH t AS (SELECT state, count(*) AS n FROM lar WHERE respondent_name = 'Load & Copy Bank; Inc' GROUP BY 1) SELECT * FROM t;";
    expect(checkText(sql)).toBe(sql);
  });

  it.each([
    ['SELECT 1; SELECT 2', /one statement/],
    ['select 1 /* x */ ; copy lar to \'f\'', /one statement/],
    ["SELECT * FROM \"read_csv\"('/etc/passwd')", /READ_CSV is not allowed/],
    ['SELECT 1\u200B', /invisible/],
    ['', /empty/],
    ['x'.repeat(20_001), /longer than/],
  ])('refuses case %#', (sql, message) => {
    expect(() => checkText(sql)).toThrow(message);
    expect(() => checkText(sql)).toThrow(BadRequestError);
  });
});

describe('syntax-tree check', () => {
  let instance: DuckDBInstance;
  const tree = async (sql: string) => {
    const connection = await instance.connect();
    try {
      const reader = await connection.runAndReadAll('SELECT json_serialize_sql($1::VARCHAR)', [sql]);
      return String(reader.getRowsJS()[0]?.[0]);
    } finally {
      connection.closeSync();
    }
  };
  beforeAll(async () => {
    instance = await DuckDBInstance.create(':memory:');
  });
  afterAll(() => instance.closeSync());

  it('allows SELECTs over lar, lenders, CTEs, subqueries and range()', async () => {
    for (const sql of [
      'SELECT year, count(*) FROM lar GROUP BY ALL',
      'WITH top AS (SELECT lei, count(*) n FROM lar GROUP BY lei) SELECT * FROM top JOIN lenders USING (lei) ORDER BY n DESC LIMIT 5',
      'SELECT * FROM (SELECT * FROM lar) s WHERE s.loan_amount > (SELECT avg(loan_amount) FROM lar)',
      'SELECT * FROM range(3) UNION ALL SELECT 1',
    ]) {
      const serialised = await tree(sql);
      expect(() => checkSyntaxTree(serialised), sql).not.toThrow();
    }
  });

  it('refuses, without the text scan, every attack DuckDB can parse', async () => {
    const attacks = fs
      .readFileSync(path.join(PROJECT_ROOT, 'tests', 'fixtures', 'hmda-sql-attacks.txt'), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.startsWith('#') && !line.includes('\\u{'))
      .map((line) => line.replace(/\\n/g, '\n'));
    for (const sql of attacks) {
      const serialised = await tree(sql).catch(() => undefined);
      if (serialised === undefined) continue; // not parseable: DuckDB refuses it anyway
      expect(() => checkSyntaxTree(serialised), sql).toThrow(BadRequestError);
    }
  });
});
