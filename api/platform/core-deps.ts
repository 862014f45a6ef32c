// What the process provides before any service exists: configuration, the database, the logger and
// the clock. Tests build their own (an in-memory database, a fixed clock); server.ts builds the real
// ones. A module takes the part it uses (`Pick<CoreDeps, 'db' | 'clock'>`), never the whole app.
import type { Config } from '../config.ts';
import type { Database } from './db/database.ts';
import type { Logger } from './logger.ts';
import type { Clock } from './clock.ts';

export interface CoreDeps {
  config: Config;
  db: Database;
  logger: Logger;
  clock: Clock;
}
