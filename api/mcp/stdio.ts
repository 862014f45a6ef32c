// The MCP server over stdio, for desktop clients that launch it as a command. Same server factory
// and services as /api/mcp. Logs go to stderr: stdout carries the protocol.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { loadConfig } from '../config.ts';
import { createLogger } from '../platform/logger.ts';
import { openDatabase } from '../platform/db/open.ts';
import { closeServices, createServices } from '../services.ts';
import { createMcpServer } from './server.ts';
import { pino } from 'pino';

export async function runStdioServer(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL === 'silent' ? 'silent' : 'warn', pino.destination(2));
  const db = await openDatabase(config, logger);
  const core = { config, db, logger, clock: () => new Date() };
  const services = await createServices(core);
  const deps = { ...core, services };
  // A key in MDS_API_KEY unlocks query_hmda for the local user, as X-API-Key does over HTTP.
  const apiKey = process.env.MDS_API_KEY;
  let caller: Parameters<typeof createMcpServer>[1] = { kind: 'anonymous' };
  if (apiKey) {
    const identity = await services.access.authenticate({ headers: { 'x-api-key': apiKey }, query: {}, ip: '127.0.0.1' } as never);
    if (identity.kind === 'key') caller = { kind: 'key', keyId: identity.keyId, accountId: identity.accountId };
  }
  const server = createMcpServer(deps, caller);
  const shutdown = async () => {
    await server.close();
    await closeServices(services);
    await db.close();
    process.exit(0);
  };
  process.stdin.on('close', () => void shutdown());
  process.once('SIGTERM', () => void shutdown());
  process.once('SIGINT', () => void shutdown());
  await server.connect(new StdioServerTransport());
}
