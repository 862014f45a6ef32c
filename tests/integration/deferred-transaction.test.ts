// withDeferredTransaction: the transaction begins at the work's first statement, so the embedded
// database (one transaction at a time) keeps answering others while the work is still parsing; what
// the work writes is committed together, or rolled back together when it throws.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withDeferredTransaction } from '../../api/platform/db/deferred-transaction.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.ts';

describe.each(databaseKinds)('withDeferredTransaction on %s', (kind) => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase(kind);
    await test.db.exec('CREATE TABLE written (id integer PRIMARY KEY)');
  });
  afterAll(() => test.drop());
  const ids = async () => (await test.db.query<{ id: number }>('SELECT id FROM written ORDER BY id')).rows.map((row) => row.id);

  it('holds nothing while the work has not asked for the database yet', async () => {
    let release!: () => void;
    const parsing = new Promise<void>((resolve) => (release = resolve));
    const work = withDeferredTransaction(test.db, async (tx) => {
      await parsing;
      await tx.query('INSERT INTO written VALUES (1)');
      return 'done';
    });
    // With the transaction open from the start, this statement would wait for `release` (PGlite).
    expect((await test.db.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    release();
    expect(await work).toBe('done');
    expect(await ids()).toEqual([1]);
  });

  it('commits every statement of the work together', async () => {
    await withDeferredTransaction(test.db, async (tx) => {
      await tx.query('INSERT INTO written VALUES (2)');
      await tx.query('INSERT INTO written VALUES (3)');
    });
    expect(await ids()).toEqual([1, 2, 3]);
  });

  it('rolls back what the work wrote when it throws, and passes its error on', async () => {
    const failing = withDeferredTransaction(test.db, async (tx) => {
      await tx.query('INSERT INTO written VALUES (4)');
      throw new Error('the file has a broken row');
    });
    await expect(failing).rejects.toThrow('the file has a broken row');
    expect(await ids()).toEqual([1, 2, 3]);
  });

  it('opens no transaction for work that fails before its first statement', async () => {
    let began = false;
    const spy = { transaction: <T>(work: Parameters<typeof test.db.transaction<T>>[0]) => ((began = true), test.db.transaction(work)) };
    await expect(withDeferredTransaction(spy, () => Promise.reject(new Error('unreadable file')))).rejects.toThrow('unreadable file');
    expect(began).toBe(false);
  });
});
