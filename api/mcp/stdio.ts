// The MCP server over stdio, for desktop clients that launch it as a command. Same server factory
// and services as /api/mcp, in either era: the SDK's stdio entry lets the opening message choose
// (2026-07-28's `server/discover` or per-request envelope, or a 2025-era `initialize`) and pins the
// connection to one instance. Logs go to stderr: stdout carries the protocol.
//
// With the embedded database, which one process may open, a running server may already hold the
// data folder: then this process relays to that server's /api/mcp (the address it recorded in the
// folder) instead of opening the database. Anything that stops it from serving is one sentence on
// stderr and exit code 1, never a stack trace, since a desktop client shows stderr to its user.
// The services and the MCP server (about a second of CPU to load) are imported only once this
// process has the database: relaying, or refusing to start, needs neither.
import { loadConfig, type Config } from '../config.ts';
import { createLogger, type Logger } from '../platform/logger.ts';
import { openDatabase } from '../platform/db/open.ts';
import { DatabaseInUseError } from '../platform/db/pglite.ts';
import type { Database } from '../platform/db/database.ts';
import { ANONYMOUS, type McpCaller } from './request-caller.ts';
import { readLocalServer, type LocalServerRecord } from './local-server.ts';
import { relayStdioToServer, serverAnswers } from './stdio-relay.ts';
import { pino } from 'pino';

/** A reason to stop that the user can act on: printed as it is, without a stack. */
export class StdioStartError extends Error {}

type Opened = { kind: 'database'; db: Database } | { kind: 'relay'; url: string };

/** A starting server records its address once it listens, after its migrations: give it that long. */
const SERVER_START_WAIT_MS = 15_000;
const POLL_MS = 250;

/**
 * The server that holds the folder (process `holder`), once it has recorded its address; undefined
 * when the holder recorded nothing (no server: `npm run sync`, the keys CLI, another stdio process)
 * or did not listen in time. A server records its pid just after it takes the folder, so a holder
 * without a record gets a second look before it is judged.
 */
async function waitForHolderAddress(dataDir: string, holder: number | undefined): Promise<LocalServerRecord | undefined> {
  const deadline = Date.now() + SERVER_START_WAIT_MS;
  for (let look = 1; ; look += 1) {
    const record = readLocalServer(dataDir);
    if (record?.url !== undefined) return record;
    const starting = record !== undefined && (holder === undefined || record.pid === holder);
    if ((!starting && look > 1) || Date.now() >= deadline) return undefined;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Opens the database, or finds the running server that holds it. */
async function openOrFindServer(config: Config, logger: Logger): Promise<Opened> {
  try {
    return { kind: 'database', db: await openDatabase(config, logger) };
  } catch (error) {
    if (!(error instanceof DatabaseInUseError)) throw error;
    const server = await waitForHolderAddress(config.dataDir, error.holder);
    if (server?.url !== undefined && (await serverAnswers(server.url))) return { kind: 'relay', url: server.url };
    const holder = error.holder === undefined ? 'another process' : `process ${error.holder}`;
    const why =
      server?.url === undefined ? 'which recorded no server address to relay to' : `whose server at ${server.url} does not answer`;
    throw new StdioStartError(
      `The embedded database in ${config.dataDir} is in use by ${holder}, ${why}: stop that process, or set DATABASE_URL so both can use PostgreSQL.`,
    );
  }
}

export async function runStdioServer(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL === 'silent' ? 'silent' : 'warn', pino.destination(2));
  // A key in MDS_API_KEY unlocks query_hmda for the local user, as X-API-Key does over HTTP.
  const apiKey = process.env.MDS_API_KEY;
  const opened = await openOrFindServer(config, logger);
  if (opened.kind === 'relay') {
    logger.warn({ server: opened.url }, 'the embedded database is held by a running server: relaying MCP to it');
    const relay = await relayStdioToServer(opened.url, apiKey);
    await relay.finished;
    process.exit(0);
  }
  const { db } = opened;
  const [{ closeServices, createServices }, { createMcpServer }, { serveStdio }] = await Promise.all([
    import('../services.ts'),
    import('./server.ts'),
    import('@modelcontextprotocol/server/stdio'),
  ]);
  const core = { config, db, logger, clock: () => new Date() };
  const services = await createServices(core);
  const deps = { ...core, services };
  let caller: McpCaller = ANONYMOUS;
  if (apiKey) {
    const identity = await services.access.authenticate({ headers: { 'x-api-key': apiKey }, query: {}, ip: '127.0.0.1' } as never);
    if (identity.kind === 'key') caller = { kind: 'key', keyId: identity.keyId, accountId: identity.accountId };
  }
  // One process, one connection: nothing here hears of another process's syncs, so no subscriptions.
  const connection = serveStdio(({ era }) => createMcpServer(deps, { era, caller, notices: false }), {
    onerror: (error) => logger.debug({ err: error }, 'mcp stdio message refused'),
  });
  const shutdown = async () => {
    await connection.close();
    await closeServices(services);
    await db.close();
    process.exit(0);
  };
  process.stdin.on('close', () => void shutdown());
  process.once('SIGTERM', () => void shutdown());
  process.once('SIGINT', () => void shutdown());
}
