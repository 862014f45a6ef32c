// What the app is built from. Tests build their own (an in-memory database, a fixed clock) and pass
// them to createApp; server.ts builds the real ones.
import type { Config } from './config.ts';
import type { Database } from './platform/db/database.ts';
import type { Logger } from './platform/logger.ts';
import type { Services } from './services.ts';

export type Clock = () => Date;

export interface CoreDeps {
  config: Config;
  db: Database;
  logger: Logger;
  clock: Clock;
}

export interface AppDeps extends CoreDeps {
  services: Services;
}
