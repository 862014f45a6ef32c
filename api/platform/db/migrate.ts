// Applies the SQL files in ./migrations in name order, each once, each in its own transaction. The
// same files run on PostgreSQL and PGlite, so they use only plain PostgreSQL SQL. Capabilities add a
// file numbered in their own range (see migrations/README.md).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AdvisoryLocks, type Database } from './database.ts';

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export function listMigrations(dir = MIGRATIONS_DIR): { name: string; sql: string }[] {
  return fs
    .readdirSync(dir)
    .filter((file) => file.endsWith('.sql'))
    .sort()
    .map((name) => ({ name, sql: fs.readFileSync(path.join(dir, name), 'utf8') }));
}

/** Returns the names of the migrations applied by this call (empty when the schema was current). */
export async function runMigrations(db: Database, dir = MIGRATIONS_DIR): Promise<string[]> {
  // Several instances may start together against one PostgreSQL: the lock makes them take turns.
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const outcome = await db.withAdvisoryLock(AdvisoryLocks.migrations, () => applyPending(db, dir));
    if (outcome.acquired) return outcome.value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('Timed out waiting for another instance to finish migrations.');
}

async function applyPending(db: Database, dir: string): Promise<string[]> {
  await db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
  const { rows } = await db.query<{ name: string }>('SELECT name FROM schema_migrations');
  const done = new Set(rows.map((row) => row.name));
  const applied: string[] = [];
  for (const migration of listMigrations(dir)) {
    if (done.has(migration.name)) continue;
    await db.transaction(async (tx) => {
      await tx.query(migration.sql);
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [migration.name]);
    });
    applied.push(migration.name);
  }
  return applied;
}
