// Builds the real app around a test database, optionally listening on a random port.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, type AppOptions } from '../../api/app.ts';
import { loadConfig, type Config } from '../../api/config.ts';
import type { AppDeps } from '../../api/deps.ts';
import type { Database } from '../../api/platform/db/database.ts';
import { createLogger, type Logger } from '../../api/platform/logger.ts';
import { createServices, closeServices } from '../../api/services.ts';
import type { McpEndpoint } from '../../api/mcp/http.ts';

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
    SYNC_ON_START: 'false',
    SYNC_DAILY: 'false',
    BASE_URL: 'http://localhost:3000',
    // Rate limits off unless a test turns them on: suites make many requests from one address.
    RATE_LIMIT_ANON_PER_MINUTE: '0',
    RATE_LIMIT_KEY_PER_MINUTE: '0',
    RATE_LIMIT_PER_HOUR: '0',
    ...overrides,
  });
}

export interface TestApp {
  deps: AppDeps;
  /** The server's request listener (the front door, then the Express app), as `npm start` serves it. */
  app: http.RequestListener;
  /** The MCP endpoint (how many server instances it built). */
  mcp: McpEndpoint;
  close(): Promise<void>;
}

export async function buildTestApp(
  db: Database,
  {
    env = {},
    clock,
    options = {},
    logger,
  }: { env?: Record<string, string>; clock?: () => Date; options?: AppOptions; logger?: Logger } = {},
): Promise<TestApp> {
  const config = testConfig(env);
  const core = { config, db, logger: logger ?? createLogger(config.LOG_LEVEL), clock: clock ?? (() => new Date()) };
  const services = await createServices(core);
  const deps: AppDeps = { ...core, services };
  const { handler, mcp } = createApp(deps, options);
  return { deps, app: handler, mcp, close: () => closeServices(services) };
}

/** Listens on 127.0.0.1 with a random port; returns the base URL and a stopper. */
export async function listen(app: http.RequestListener): Promise<{ url: string; server: http.Server; close: () => Promise<void> }> {
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
