// The county count table is read one year's document at a time: all of them in one answer (eight
// documents of a few MB) grew the embedded database's WebAssembly memory for good and was the
// largest single step of a restart's peak. The table is the same either way: a year without a
// document falls back to that year's rows, and a code first seen in a later year has its column.
import { describe, expect, it } from 'vitest';
import type { Queryable, QueryResult } from '../../api/platform/db/database.ts';
import { readCountTable } from '../../api/hmda-aggregates/count-table.ts';
import type { Dimensions } from '../../api/hmda-aggregates/reads.ts';

const documents: Record<number, Record<string, Dimensions>> = {
  2022: { '06037': { action_taken: { '1': 10, '3': 4 } }, '36061': { action_taken: { '1': 7 } } },
  2024: { '06037': { action_taken: { '1': 12, '3': 5 }, loan_type: { '2': 3 } } },
};
/** A year loaded before the documents existed: only its per-county rows. */
const rowsOnly: Record<number, Record<string, Dimensions>> = { 2023: { '06037': { action_taken: { '1': 11 } } } };

/** Answers the reads of the count table; records how many document rows each answer held. */
function fakeDatabase(): Queryable & { documentRowsPerAnswer: number[] } {
  const documentRowsPerAnswer: number[] = [];
  const answer = <Row>(rows: unknown[]): QueryResult<Row> => ({ rows: rows as Row[], rowCount: rows.length });
  return {
    documentRowsPerAnswer,
    async query<Row>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<Row>> {
      if (/SELECT DISTINCT year FROM hmda_aggregates/.test(sql)) return answer([{ year: 2022 }, { year: 2023 }, { year: 2024 }]);
      if (/FROM hmda_county_counts/.test(sql)) {
        const years = params.length > 0 ? [Number(params[0])] : Object.keys(documents).map(Number);
        const rows = years
          .filter((year) => documents[year])
          .map((year) => ({
            year,
            body: Object.entries(documents[year] ?? {})
              .map(([fips, counts]) => `${fips} ${JSON.stringify(counts)}`)
              .join('\n'),
          }));
        documentRowsPerAnswer.push(rows.length);
        return answer(rows);
      }
      if (/FROM hmda_county_aggregates/.test(sql))
        return answer(Object.entries(rowsOnly[Number(params[0])] ?? {}).map(([fips, counts]) => ({ fips, counts })));
      throw new Error(`unexpected query: ${sql}`);
    },
  };
}

describe('the HMDA county count table', () => {
  it('reads one year’s document per answer and sums every year, with or without a document', async () => {
    const db = fakeDatabase();
    const table = await readCountTable(db, 'county');
    expect(db.documentRowsPerAnswer.every((rows) => rows <= 1)).toBe(true);
    expect(table.years).toEqual([2022, 2023, 2024]);
    expect(table.geos).toEqual(['06037', '36061']);
    const la = table.geos.indexOf('06037');
    const manhattan = table.geos.indexOf('36061');
    expect(table.yearsOf(la)).toEqual([2022, 2023, 2024]);
    expect(table.yearsOf(manhattan)).toEqual([2022]);
    expect(table.sum(la, 0, { dimension: 'action_taken' })).toBe(14);
    expect(table.sum(la, 1, { dimension: 'action_taken', codes: ['1'] })).toBe(11);
    expect(table.sum(la, 2, { dimension: 'action_taken', except: ['3'] })).toBe(12);
    // A dimension first seen in the last year: absent before it is a zero, not a neighbour's column.
    expect(table.sum(la, 2, { dimension: 'loan_type' })).toBe(3);
    expect(table.sum(la, 0, { dimension: 'loan_type' })).toBe(0);
    expect(table.sum(manhattan, 1, { dimension: 'action_taken' })).toBeUndefined();
  });
});
