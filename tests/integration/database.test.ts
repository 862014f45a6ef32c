import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceUnavailableError } from '../../api/platform/errors.ts';
import { runMigrations } from '../../api/platform/db/migrate.ts';
import { POSTGRES_ADMIN_URL, databaseKinds, createTestDatabase, type TestDatabase } from '../support/databases.ts';

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

describe('a PostgreSQL connection that dies while checked out', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase('postgres');
  });
  afterAll(() => test.drop());

  /** Terminates the server process behind `pid`, as a database restart or a failover would. */
  async function terminateBackend(pid: number): Promise<void> {
    const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await admin.connect();
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    await admin.end();
    // Let the client read the termination notice and the socket's end while it runs no query: the
    // moment at which a connection without an error listener takes the whole process down.
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  const backendPid = async (queryable: { query: TestDatabase['db']['query'] }) =>
    (await queryable.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;

  it('fails the transaction with a 503, keeps the process alive and serves the next query', async () => {
    await expect(
      test.db.transaction(async (tx) => {
        await terminateBackend(await backendPid(tx));
        await tx.query('SELECT 1');
      }),
    ).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect((await test.db.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('ends an advisory lock whose connection died without crashing, and the lock can be taken again', async () => {
    let lockPid = 0;
    const held = await test.db.withAdvisoryLock(77, async () => {
      const { rows } = await test.db.query<{ pid: number }>("SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objid = 77");
      lockPid = rows[0]!.pid;
      await terminateBackend(lockPid);
      return 'work done';
    });
    expect(held).toEqual({ acquired: true, value: 'work done' });
    expect(await test.db.withAdvisoryLock(77, async () => 'again')).toEqual({ acquired: true, value: 'again' });
  });
});
