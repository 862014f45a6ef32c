// Chooses the database from configuration: PostgreSQL when DATABASE_URL is set, otherwise PGlite
// under DATA_DIR. Migrations run here so every caller gets a ready schema.
import path from 'node:path';
import type { Config } from '../../config.ts';
import type { Database } from './database.ts';
import type { Logger } from '../logger.ts';
import { createPostgresDatabase } from './postgres.ts';
import { createPgliteDatabase } from './pglite.ts';
import { runMigrations } from './migrate.ts';

export async function openDatabase(config: Pick<Config, 'DATABASE_URL' | 'dataDir'>, logger: Logger): Promise<Database> {
  const db =
    config.DATABASE_URL !== undefined
      ? createPostgresDatabase(config.DATABASE_URL, logger)
      : await createPgliteDatabase(path.join(config.dataDir, 'pglite'));
  try {
    const applied = await runMigrations(db);
    if (applied.length > 0) logger.info({ applied, database: db.kind }, 'migrations applied');
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
  return db;
}
