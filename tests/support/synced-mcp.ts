// What the MCP tests over synced data share: a scratch database synced with the datasets a file
// reads, the app over it with rate limits off (a test's many calls are not an abuse), a listening
// server and an MCP client, closed in the reverse order.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { buildTestApp, listen, type TestApp } from './app.ts';
import type { TestDatabase } from './databases.ts';
import { connectMcp } from './mcp-client.ts';
import { syncedTestDatabase } from './synced.ts';

export interface SyncedMcp {
  database: TestDatabase;
  testApp: TestApp;
  client: Client;
  /** The listening server's address, for REST requests beside the MCP ones. */
  url: string;
  close(): Promise<void>;
}

export async function startSyncedMcp(datasets: readonly string[], options: { clock?: () => Date } = {}): Promise<SyncedMcp> {
  const database = await syncedTestDatabase('pglite', datasets);
  const testApp = await buildTestApp(database.db, {
    env: { RATE_LIMIT_ANON_PER_MINUTE: '0', RATE_LIMIT_PER_HOUR: '0' },
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const server = await listen(testApp.app);
  const client = await connectMcp(server.url);
  return {
    database,
    testApp,
    client,
    url: server.url,
    async close() {
      await client.close();
      await server.close();
      await testApp.close();
      await database.drop();
    },
  };
}
