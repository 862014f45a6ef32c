// What the service needs before its app is loaded: configuration, the logger, and the embedded
// database, which starts opening here, on a thread of its own, so that it opens while the rest of
// the app's modules load (about a second) instead of after. Kept to a few small imports for that
// reason: api/main.ts and scripts/start.ts import the app only after calling boot(). PostgreSQL is
// connected to later, by startServer(): its connections are answered on this thread, which the
// module loading keeps busy, so they would only wait (and time out on a loaded machine).
import { loadConfig, type Config } from './config.ts';
import type { Database } from './platform/db/database.ts';
import { openDatabase } from './platform/db/open.ts';
import { recordStartingServer } from './mcp/local-server.ts';
import { bufferedStdout, createLogger, type BufferedLogOutput, type Logger } from './platform/logger.ts';

export interface Booted {
  config: Config;
  logger: Logger;
  /** Standard output's buffer: flushed before every exit (./server.ts main()). */
  output: BufferedLogOutput;
  /** The embedded database, opening; awaited (and its failure reported) by startServer(). */
  database: Promise<Database> | undefined;
}

export function boot(): Booted {
  const config = loadConfig();
  const output = bufferedStdout();
  const logger = createLogger(config.LOG_LEVEL, output.stream);
  // Once the folder is ours, a `npm run mcp:stdio` started meanwhile waits for this server's address.
  const onFolderLocked = () => recordStartingServer(config.dataDir);
  const database = config.DATABASE_URL === undefined ? openDatabase(config, logger, { onFolderLocked }) : undefined;
  // Not yet awaited: without a handler a failure would end the process before startServer() reports it.
  database?.catch(() => undefined);
  return { config, logger, output, database };
}
