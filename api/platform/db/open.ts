// Chooses the database from configuration: PostgreSQL when DATABASE_URL is set, otherwise PGlite
// under DATA_DIR on a thread of its own (./pglite-worker.ts). Migrations run here so every caller
// gets a ready schema.
import path from 'node:path';
import type { Config } from '../../config.ts';
import type { Database } from './database.ts';
import type { Logger } from '../logger.ts';
import { createPostgresDatabase } from './postgres.ts';
import { createPgliteWorkerDatabase } from './pglite-worker.ts';
import { isUnavailableError } from './postgres.ts';
import { ServiceUnavailableError } from '../errors.ts';
import { runMigrations } from './migrate.ts';

export interface OpenOptions {
  /** Called once the embedded database's folder is this process's (before it has opened). */
  onFolderLocked?: () => void;
}

export async function openDatabase(
  config: Pick<Config, 'DATABASE_URL' | 'dataDir'>,
  logger: Logger,
  options: OpenOptions = {},
): Promise<Database> {
  const db =
    config.DATABASE_URL !== undefined
      ? createPostgresDatabase(config.DATABASE_URL, logger)
      : await createPgliteWorkerDatabase(path.join(config.dataDir, 'pglite'), {
          ...(options.onFolderLocked ? { onLocked: options.onFolderLocked } : {}),
          onReplaced: ({ ms }) => logger.info({ ms }, "embedded database's thread started again to give back a sync's memory"),
        });
  try {
    const applied = await runMigrations(db);
    if (applied.length > 0) logger.info({ applied, database: db.kind }, 'migrations applied');
  } catch (error) {
    await db.close().catch(() => undefined);
    if (config.DATABASE_URL !== undefined && (isUnavailableError(error) || error instanceof ServiceUnavailableError)) {
      throw new Error(
        `PostgreSQL at ${serverOf(config.DATABASE_URL)} (DATABASE_URL) is not reachable: start it, fix DATABASE_URL, or unset it to use the embedded database.`,
        { cause: error },
      );
    }
    throw error;
  }
  return db;
}

/** Host, port and database of a connection URL, without its user or password. */
function serverOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}${parsed.port === '' ? '' : `:${parsed.port}`}${parsed.pathname}`;
  } catch {
    return 'the configured address';
  }
}
