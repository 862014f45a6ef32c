// upsertRows writes each batch as one JSON text converted by the table's own column types: every
// kind of value the loaders write comes back as written, an identical second write changes nothing,
// and only rows whose values differ count as changed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertRows } from '../../api/sync/upsert.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.ts';

const COLUMNS = ['series', 'day', 'value', 'units', 'active', 'label', 'detail', 'recorded_at'];
const ROWS = [
  ['A', '2026-01-01', 6.125, 1, true, 'O\'Brien "quoted" \\ back', { source: 'FHFA', years: [2025, 2026] }, '2026-01-01T12:00:00Z'],
  ['A', '2026-01-08', 832750, 4, false, 'Doña Ana · 東京', null, null],
  ['B', '2026-01-01', null, null, null, null, { nested: { empty: [] } }, '2025-12-31T23:59:59.5Z'],
];

describe.each(databaseKinds)('upsertRows on %s', (kind) => {
  let test: TestDatabase;
  type Row = Record<string, unknown> & { recorded_at: Date | null };
  /** The rows as stored, the timestamps as ISO text (drivers return them as Date). */
  const read = async () => {
    const { rows } = await test.db.query<Row>(
      `SELECT series, day::text AS day, value::text AS value, units, active, label, detail, recorded_at FROM typed ORDER BY series, day`,
    );
    return rows.map((row): Record<string, unknown> => ({ ...row, recorded_at: row.recorded_at?.toISOString() ?? null }));
  };
  const write = (rows: readonly (readonly unknown[])[], batchSize?: number) =>
    test.db.transaction((tx) => upsertRows(tx, { table: 'typed', key: ['series', 'day'], columns: COLUMNS, rows, batchSize }));

  beforeAll(async () => {
    test = await createTestDatabase(kind);
    await test.db.exec(
      `CREATE TABLE typed (series text, day date, value numeric, units smallint, active boolean, label text, detail jsonb,
                           recorded_at timestamptz, PRIMARY KEY (series, day))`,
    );
  });
  afterAll(() => test.drop());

  it('writes every kind of value as given, in batches', async () => {
    expect(await write(ROWS, 2)).toBe(3);
    expect(await read()).toEqual([
      {
        series: 'A',
        day: '2026-01-01',
        value: '6.125',
        units: 1,
        active: true,
        label: 'O\'Brien "quoted" \\ back',
        detail: { source: 'FHFA', years: [2025, 2026] },
        recorded_at: '2026-01-01T12:00:00.000Z',
      },
      {
        series: 'A',
        day: '2026-01-08',
        value: '832750',
        units: 4,
        active: false,
        label: 'Doña Ana · 東京',
        detail: null,
        recorded_at: null,
      },
      {
        series: 'B',
        day: '2026-01-01',
        value: null,
        units: null,
        active: null,
        label: null,
        detail: { nested: { empty: [] } },
        recorded_at: '2025-12-31T23:59:59.500Z',
      },
    ]);
  });

  it('counts nothing for an identical second write, and only the rows whose values differ', async () => {
    expect(await write(ROWS)).toBe(0);
    const revised = ROWS.map((row) => (row[0] === 'B' ? ['B', '2026-01-01', 7, ...row.slice(3)] : row));
    expect(await write([...revised, ['C', '2026-02-01', 1, 1, true, 'new', null, null]])).toBe(2);
    expect((await read()).map((row) => [row.series, row.value])).toEqual([
      ['A', '6.125'],
      ['A', '832750'],
      ['B', '7'],
      ['C', '1'],
    ]);
  });

  it('refuses a row whose number of values does not match the columns', async () => {
    await expect(write([['A', '2026-01-01']])).rejects.toThrow(/has 2 values; expected 8/);
  });
});
