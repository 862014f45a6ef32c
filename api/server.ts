// Starts the service: configuration, database (migrated), services, the app, and a listener with
// graceful shutdown. On SIGTERM/SIGINT it stops accepting, lets in-flight requests finish (up to
// SHUTDOWN_TIMEOUT_MS), then closes services and the database pool and exits 0.
import fs from 'node:fs';
import path from 'node:path';
import http from 'node:http';
import { pathToFileURL } from 'node:url';
import type { RequestHandler } from 'express';
import { loadConfig, type Config } from './config.ts';
import { createLogger, type Logger } from './platform/logger.ts';
import { openDatabase } from './platform/db/open.ts';
import { openExtraAcceptSockets } from './platform/http/accept-sockets.ts';
import { answerClientError } from './platform/http/client-errors.ts';
import { createApp } from './app.ts';
import type { StaticSite } from './platform/static/static-site.ts';
import { closeServices, createServices } from './services.ts';
import { startBackgroundJobs } from './jobs.ts';
import { startIdleMemoryRelease } from './platform/memory/idle-release.ts';
import { recordLocalServer } from './mcp/local-server.ts';
import type { AppDeps } from './deps.ts';
import type { Database } from './platform/db/database.ts';
import { boot, type Booted } from './boot.ts';
import { cacheCounts, turnCachesOff } from './platform/cache-meter.ts';

export interface RunningServer {
  server: http.Server;
  deps: AppDeps;
  url: string;
  /** The built site in memory: put() adds or replaces a file (e.g. one written after a sync). */
  site: StaticSite;
  /** Stops accepting, drains in-flight requests, releases resources. Safe to call twice. */
  close(): Promise<void>;
}

/** Loads the Astro handler for on-demand pages when the site was built with them. */
export async function loadSsrHandler(config: Config): Promise<RequestHandler | undefined> {
  const entry = path.join(config.distDir, 'server', 'entry.mjs');
  if (!fs.existsSync(entry)) return undefined;
  const module = (await import(pathToFileURL(entry).href)) as { handler?: RequestHandler };
  return module.handler;
}

/** Starts the service; `database` when it is already opening (./boot.ts), otherwise opened here. */
export async function startServer(
  config: Config = loadConfig(),
  logger: Logger = createLogger(config.LOG_LEVEL),
  database: Promise<Database> = openDatabase(config, logger),
): Promise<RunningServer> {
  // The on-demand pages' handler loads while the database is still opening.
  const [db, ssrHandler] = await Promise.all([database, loadSsrHandler(config)]);
  // Before any cache is built: each reads whether it is off when it is made.
  turnCachesOff(config.CACHES_OFF);
  const core = { config, db, logger, clock: () => new Date() };
  const services = await createServices(core);
  const deps: AppDeps = { ...core, services };
  const { handler, site, mcp } = createApp(deps, { ssrHandler });

  const server = http.createServer(handler);
  server.keepAliveTimeout = 65_000; // longer than common load balancers' idle timeout
  server.headersTimeout = 66_000;
  server.requestTimeout = 120_000;
  server.maxHeadersCount = 100;
  // Oversized heads (431) and malformed requests get a readable `{error, status}` body.
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // A deep accept queue (Node's default is 511; the kernel caps it at net.core.somaxconn): with a
    // burst of 1,000 new connections the default overflowed and clients saw resets (npm run soak).
    server.listen({ port: config.PORT, host: config.HOST, backlog: 4096, reusePort: config.ACCEPT_SOCKETS > 1 }, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.PORT;
  const closeExtraSockets = await openExtraAcceptSockets(server, config.HOST, port, config.ACCEPT_SOCKETS - 1);
  const url = `http://127.0.0.1:${port}`;
  // The embedded database is this process's alone: say where we answer, for `npm run mcp:stdio`
  // (before the 'listening' line, which tools and tests take as the sign that the server is ready).
  const forgetAddress = db.kind === 'pglite' ? recordLocalServer(config.dataDir, url) : () => undefined;
  logger.info({ url, database: db.kind }, 'listening');

  const stopJobs = startBackgroundJobs(deps);
  const stopMemoryRelease = startIdleMemoryRelease({ logger, releaseDatabase: db.releaseMemory?.bind(db) });
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      logger.info('shutting down: draining in-flight requests');
      // From now on every new response says it closes its connection, so a client moves on instead
      // of sending its next request into a closing socket. The listener is swapped rather than
      // checking a flag on every request before.
      server.removeListener('request', handler);
      server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
        res.setHeader('Connection', 'close');
        handler(req, res);
      });
      stopJobs();
      stopMemoryRelease();
      forgetAddress();
      // Open MCP subscriptions hear that they end (rather than a dropped connection), then close.
      await mcp.close().catch((error: unknown) => logger.warn({ err: error }, 'closing MCP subscriptions failed'));
      // The extra sockets' close waits for the connections they accepted, as server.close does for its own.
      const drained = Promise.all([new Promise<void>((resolve) => server.close(() => resolve())), closeExtraSockets()]);
      // server.close() closes only the connections idle at that moment; a keep-alive connection busy
      // then (a load balancer's, a client streaming /ask) becomes idle after its answer and would
      // hold the process until SHUTDOWN_TIMEOUT_MS, so idle ones are closed as they appear.
      server.closeIdleConnections();
      const idleSweep = setInterval(() => server.closeIdleConnections(), 100);
      const timer = setTimeout(() => server.closeAllConnections(), config.SHUTDOWN_TIMEOUT_MS);
      await drained;
      clearInterval(idleSweep);
      clearTimeout(timer);
      await closeServices(services);
      await db.close();
      // What each cache on the request path answered over the process's life (npm run bench caches reads it).
      logger.info({ caches: cacheCounts(), off: config.CACHES_OFF }, 'shut down');
    })());
  return { server, deps, url, site, close };
}

/**
 * Entry point: start, and exit cleanly on SIGTERM/SIGINT. Logs go to standard output through a
 * buffered writer (one access-log line per request stays cheap); every way out of the process writes
 * the buffered lines first, so none is lost.
 */
export async function main({ config, logger, output, database }: Booted = boot()): Promise<void> {
  // Crashes (an uncaught exception or unhandled rejection): the monitor runs before Node's own
  // report and exit, which it leaves unchanged; there is no event loop turn left, hence sync.
  process.on('uncaughtExceptionMonitor', (error, origin) => {
    logger.fatal({ err: error, origin }, 'fatal error');
    output.flushSync();
  });
  const exit = async (code: number) => {
    await output.flush();
    process.exit(code);
  };
  let running: RunningServer;
  try {
    running = await startServer(config, logger, database);
  } catch (error) {
    logger.fatal({ err: error }, 'failed to start');
    await exit(1);
    return;
  }
  const stop = (signal: string) => {
    logger.info({ signal }, 'signal received');
    running.close().then(
      () => exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'error during shutdown');
        return exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}
