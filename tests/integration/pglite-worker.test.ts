// The embedded database on its own thread (the default of `npm start`): statements, transactions
// committed and rolled back, PostgreSQL's error codes, and the point of it: the main thread keeps
// running while a long statement executes. (A second process on the same folder is refused: see
// server-lifecycle.test.ts.)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../api/platform/db/database.ts';
import { createPgliteWorkerDatabase } from '../../api/platform/db/pglite-worker.ts';
import { createPglitePortDatabase } from '../../api/platform/db/pglite-port.ts';

describe('PGlite on a thread of its own', () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'mds-pglite-worker-'));
  let db: Database;
  const replaced: { ms: number }[] = [];

  beforeAll(async () => {
    db = await createPgliteWorkerDatabase(folder, { onReplaced: (details) => replaced.push(details) });
    await db.exec('CREATE TABLE items (id int PRIMARY KEY, payload bytea, at timestamptz)');
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('answers statements with their values as PGlite gives them', async () => {
    await db.query('INSERT INTO items VALUES ($1, $2, $3)', [1, new Uint8Array([1, 2, 3]), new Date('2026-01-02T03:04:05Z')]);
    const { rows } = await db.query<{ id: number; payload: Uint8Array; at: Date }>('SELECT * FROM items WHERE id = $1', [1]);
    expect(rows[0]!.payload).toEqual(new Uint8Array([1, 2, 3]));
    expect(rows[0]!.at.toISOString()).toBe('2026-01-02T03:04:05.000Z');
  });

  it('commits a transaction that resolves and rolls back one that throws', async () => {
    await db.transaction(async (tx) => {
      await tx.query('INSERT INTO items (id) VALUES (2)');
      await tx.query('INSERT INTO items (id) VALUES (3)');
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO items (id) VALUES (4)');
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    const { rows } = await db.query<{ id: number }>('SELECT id FROM items ORDER BY id');
    expect(rows.map((row) => row.id)).toEqual([1, 2, 3]);
  });

  it('keeps PostgreSQL error codes, so callers can tell a conflict from a fault', async () => {
    await expect(db.query('INSERT INTO items (id) VALUES (1)')).rejects.toMatchObject({ code: '23505' });
    await expect(db.transaction((tx) => tx.query('SELECT * FROM no_such_table'))).rejects.toMatchObject({ code: '42P01' });
    // The database is still usable after both.
    expect((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM items')).rows[0]!.n).toBe(3);
  });

  it('lets the main thread run while a long statement executes', async () => {
    let turns = 0;
    const timer = setInterval(() => (turns += 1), 1);
    try {
      await db.query('SELECT count(*) FROM generate_series(1, 2000000)');
    } finally {
      clearInterval(timer);
    }
    // In-thread PGlite runs a statement synchronously: no timer could fire until it returned.
    expect(turns).toBeGreaterThan(1);
  });

  it('gives back the pooled memory of its thread on request and keeps answering', async () => {
    await db.query('SELECT count(*) FROM generate_series(1, 200000)');
    await db.releaseMemory!();
    expect((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM items')).rows[0]!.n).toBe(3);
  });

  it("starts its thread again once another thread's client (a sync) has gone, losing no statement", async () => {
    const connection = await db.connectThread!();
    if (connection.kind !== 'pglite') throw new Error('expected a port');
    const sync = await createPglitePortDatabase(connection.port);
    await sync.query('INSERT INTO items (id) VALUES (10)');
    // While the other client is attached, only the heap's pages go back.
    await db.releaseMemory!();
    expect(replaced).toEqual([]);
    await sync.close();

    // The port's close reaches the database's thread on its own time: ask until it has.
    const deadline = Date.now() + 20_000;
    while (replaced.length === 0 && Date.now() < deadline) {
      // Statements sent around the replacement all answer, from the same data on disk.
      const counts = await Promise.all([
        db.query<{ n: number }>('SELECT count(*)::int AS n FROM items'),
        db.releaseMemory!().then(() => db.query<{ n: number }>('SELECT count(*)::int AS n FROM items')),
        db.transaction((tx) => tx.query<{ n: number }>('SELECT count(*)::int AS n FROM items')),
      ]);
      expect(counts.map((count) => count.rows[0]!.n)).toEqual([4, 4, 4]);
    }
    expect(replaced).toHaveLength(1);
    expect((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM items')).rows[0]!.n).toBe(4);
    // Served no other thread since: the next release does not start it again.
    await db.releaseMemory!();
    expect(replaced).toHaveLength(1);
  });
});
