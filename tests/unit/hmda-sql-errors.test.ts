// DuckDB's error text becomes our own sentences: names are echoed only when the caller wrote them,
// and no engine prefix, candidate list, caret, path or setting reaches the caller.
import { describe, expect, it } from 'vitest';
import { describeEngineError } from '../../api/hmda/sql-errors.ts';

const messageOf = (raw: string, sql: string, position?: number) => {
  const failure = describeEngineError(raw, sql, position);
  return failure.kind === 'user' ? failure.message : failure.kind;
};

describe('engine errors in our words', () => {
  it.each([
    [
      'Binder Error: Referenced column "foo" not found in FROM clause!\nCandidate bindings: "loan_type"\n\nLINE 1: select foo from lar\n               ^',
      'select foo from lar',
      /column "foo" does not exist; the lar and lenders columns are listed/,
    ],
    [
      'Binder Error: Table "lar" does not have a column named "x"\n\nCandidate bindings: : "amt"',
      'select lar.x from lar',
      /"lar" has no column named "x"/,
    ],
    [
      'Binder Error: column "loan_type" must appear in the GROUP BY clause or must be part of an aggregate function.\nEither add it',
      'select loan_type, count(*) from lar',
      /column "loan_type" must be in GROUP BY/,
    ],
    [
      'Binder Error: Ambiguous reference to column name "lei" (use: "lar.lei" or "l2.lei")',
      'select lei from lar, lar l2',
      /"lei" is ambiguous/,
    ],
    [
      "Binder Error: No function matches the given name and argument types 'sum(VARCHAR)'. You might need to add explicit type casts.\n\tCandidate functions:\n\tsum(DECIMAL) -> DECIMAL",
      'select sum(lei) from lar',
      /sum\(\) does not take arguments of these types/,
    ],
    [
      "Conversion Error: Could not convert string 'abc' to INT32\n\nLINE 1: select 'abc'::INT",
      "select 'abc'::INT",
      /could not be converted to INT32; use TRY_CAST/,
    ],
    ['Out of Range Error: Overflow in addition of INT32 (2147483647 + 1)!', 'select 2147483647::INT + 1', /out of range for its type/],
    ['Invalid Input Error: missing ): (', "select regexp_matches('a', '(')", /a function was given an input it cannot use/],
    ['Parser Error: syntax error at or near "FORM"', 'SELECT *\nFORM lar', /syntax error at or near "FORM" \(line 2\)/],
    ['Parser Error: syntax error at end of input', 'SELECT * FROM', /ends before it is complete/],
    [
      'Catalog Error: Table with name nosuch does not exist!\nDid you mean "pg_sequences"?',
      'select * from nosuch',
      /table "nosuch" does not exist/,
    ],
  ])('%#', (raw, sql, expected) => {
    const message = messageOf(raw, sql, raw.startsWith('Parser') ? sql.indexOf('FORM') : undefined);
    expect(message).toMatch(expected);
    expect(message).not.toMatch(/Binder Error|Candidate|LINE \d|\^|Did you mean|pg_sequences|INT32 \(/);
  });

  it('echoes no name the caller did not write', () => {
    // The engine suggests names (other columns, catalog views): none of them is repeated.
    const message = messageOf('Binder Error: Table "secret_table" does not have a column named "home_directory"', 'select x from y');
    expect(message).not.toMatch(/secret_table|home_directory/);
    expect(messageOf('Catalog Error: Table with name /home/user/.duckdb does not exist!', 'select 1')).not.toContain('/home');
  });

  it('tells time, memory and engine faults apart from the caller’s mistakes', () => {
    expect(describeEngineError('INTERRUPT Error: Interrupted!', '')).toEqual({ kind: 'timeout' });
    expect(describeEngineError('Out of Memory Error: Failed to allocate block of 8589934592 bytes (bad allocation)', '')).toEqual({
      kind: 'memory',
    });
    expect(describeEngineError('IO Error: No files found that match the pattern "/srv/hmda/lar/*/*/*.parquet"', '')).toEqual({
      kind: 'internal',
      reason: 'io',
    });
    expect(describeEngineError('something odd', '')).toMatchObject({ kind: 'internal' });
  });
});
