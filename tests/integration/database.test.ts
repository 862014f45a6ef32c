import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMigrations } from '../../api/platform/db/migrate.ts';
import { databaseKinds, createTestDatabase, type TestDatabase } from '../support/databases.ts';

describe.each(databaseKinds)('database on %s', (kind) => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase(kind);
  });
  afterAll(() => test.drop());

  it('applies migrations once: a second run applies nothing', async () => {
    expect(await runMigrations(test.db)).toEqual([]);
    const { rows } = await test.db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
    expect(rows.map((row) => row.name)).toContain('0001_datasets.sql');
  });

  it('commits a transaction that resolves and rolls back one that throws', async () => {
    await test.db.transaction(async (tx) => {
      await tx.query("INSERT INTO datasets (name, source_url, row_count) VALUES ('kept', 'https://example.gov', 1)");
    });
    await expect(
      test.db.transaction(async (tx) => {
        await tx.query("INSERT INTO datasets (name, source_url, row_count) VALUES ('dropped', 'https://example.gov', 1)");
        throw new Error('validation failed');
      }),
    ).rejects.toThrow('validation failed');
    const { rows } = await test.db.query<{ name: string }>('SELECT name FROM datasets ORDER BY name');
    expect(rows.map((row) => row.name)).toEqual(['kept']);
  });

  it('lets only one holder take an advisory lock at a time', async () => {
    let inner: { acquired: boolean } | undefined;
    const outer = await test.db.withAdvisoryLock(99, async () => {
      inner = await test.db.withAdvisoryLock(99, async () => 'second');
      return 'first';
    });
    expect(outer).toEqual({ acquired: true, value: 'first' });
    expect(inner).toEqual({ acquired: false });
    expect(await test.db.withAdvisoryLock(99, async () => 'again')).toEqual({ acquired: true, value: 'again' });
  });
});
