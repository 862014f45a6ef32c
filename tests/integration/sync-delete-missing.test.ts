// deleteMissingRows removes exactly the rows a new load no longer has, also when a key column is a
// date (read back as a JS Date by the drivers, not as the 'YYYY-MM-DD' the loader kept).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteMissingRows } from '../../api/sync/upsert.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.ts';

describe.each(databaseKinds)('deleteMissingRows on %s', (kind) => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase(kind);
    await test.db.exec('CREATE TABLE dated (series text, day date, value numeric, PRIMARY KEY (series, day))');
    await test.db.query(
      "INSERT INTO dated VALUES ('A', '2026-01-01', 1), ('A', '2026-01-08', 2), ('A', '2026-01-15', 3), ('B', '2026-01-01', 4)",
    );
  });
  afterAll(() => test.drop());

  it('keeps the rows still present and deletes only the missing one', async () => {
    const deleted = await test.db.transaction((tx) =>
      deleteMissingRows(tx, {
        table: 'dated',
        key: ['series', 'day'],
        scope: "series = 'A'",
        keep: [
          ['A', '2026-01-01'],
          ['A', '2026-01-15'],
        ],
      }),
    );
    expect(deleted).toBe(1);
    const { rows } = await test.db.query<{ series: string; day: string }>(
      'SELECT series, day::text AS day FROM dated ORDER BY series, day',
    );
    expect(rows).toEqual([
      { series: 'A', day: '2026-01-01' },
      { series: 'A', day: '2026-01-15' },
      { series: 'B', day: '2026-01-01' },
    ]);
  });
});
