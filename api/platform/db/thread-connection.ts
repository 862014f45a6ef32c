// Opens, in a worker thread, the database the main thread described with Database.connectThread.
// Migrations are not run: the main thread opened the database (./open.ts) and ran them already.
import type { Database, ThreadConnection } from './database.ts';
import type { Logger } from '../logger.ts';
import { createPglitePortDatabase } from './pglite-port.ts';
import { createPostgresDatabase } from './postgres.ts';

export async function openThreadConnection(connection: ThreadConnection, logger: Logger): Promise<Database> {
  return connection.kind === 'postgres' ? createPostgresDatabase(connection.url, logger) : await createPglitePortDatabase(connection.port);
}
