// The MCP endpoint itself: stateless Streamable HTTP at /api/mcp, Host/Origin checks, JSON or SSE
// as the client asks, and tool errors as `isError` results rather than transport failures.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { buildTestApp, listen, type TestApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { rawRequest } from '../support/http.ts';
import { connectMcp, resultText } from '../support/mcp-client.ts';

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

describe('MCP transport at /api/mcp', () => {
  let database: TestDatabase;
  let testApp: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let client: Client;

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    testApp = await buildTestApp(database.db, { env: { RATE_LIMIT_ANON_PER_MINUTE: '0', RATE_LIMIT_PER_HOUR: '0' } });
    server = await listen(testApp.app);
    client = await connectMcp(server.url);
  });
  afterAll(async () => {
    await client.close();
    await server.close();
    await testApp.close();
    await database.drop();
  });

  it('answers a glossary lookup with structured content, text and sources', async () => {
    const result = await client.callTool({ name: 'lookup_glossary_term', arguments: { term: 'APR' } });
    expect(result.isError).toBeFalsy();
    const structured = result.structuredContent as { term: string; definition: string; sources: { url: string }[] };
    expect(structured.term).toMatch(/annual percentage rate/i);
    expect(structured.definition.length).toBeGreaterThan(20);
    expect(structured.sources[0]?.url).toMatch(/\/glossary\/annual-percentage-rate$/);
    expect(resultText(result)).toMatch(/Source:/);
  });

  it('returns bad arguments as an isError result, not a transport failure', async () => {
    const missing = await client.callTool({ name: 'lookup_glossary_term', arguments: {} });
    expect(missing.isError).toBe(true);
    const unknown = await client.callTool({ name: 'lookup_glossary_term', arguments: { term: 'zzqxjw unknown' } });
    expect(unknown.isError).toBe(true);
    expect(resultText(unknown)).toMatch(/No glossary term matches/);
  });

  it('answers JSON when the client lists application/json first, SSE otherwise', async () => {
    const json = await rawRequest(`${server.url}/api/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: initialize,
    });
    expect(json.status).toBe(200);
    expect(json.headers['content-type']).toMatch(/application\/json/);
    expect(JSON.parse(json.body).result.serverInfo.name).toBe('mortgage-data-service');
    const sse = await rawRequest(`${server.url}/api/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream, application/json' },
      body: initialize,
    });
    expect(sse.status).toBe(200);
    expect(sse.headers['content-type']).toMatch(/text\/event-stream/);
    expect(sse.body).toMatch(/^(event: message\n)?(id: .*\n)?data: /m);
  });

  it('refuses foreign Host and Origin headers', async () => {
    const foreignHost = await rawRequest(`${server.url}/api/mcp`, {
      method: 'POST',
      headers: { Host: 'evil.example', 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: initialize,
    });
    expect(foreignHost.status).toBe(403);
    const foreignOrigin = await rawRequest(`${server.url}/api/mcp`, {
      method: 'POST',
      headers: { Origin: 'https://evil.example', 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: initialize,
    });
    expect(foreignOrigin.status).toBe(403);
  });

  it('is stateless: GET and DELETE answer 405', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await rawRequest(`${server.url}/api/mcp`, { method, headers: { Accept: 'text/event-stream' } });
      expect(response.status).toBe(405);
      expect(response.headers.allow).toBe('POST');
    }
  });
});

describe('MCP rate limits', () => {
  let database: TestDatabase;
  let testApp: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    testApp = await buildTestApp(database.db, {
      env: { RATE_LIMIT_ANON_PER_MINUTE: '3', RATE_LIMIT_KEY_PER_MINUTE: '5', RATE_LIMIT_PER_HOUR: '0' },
    });
    server = await listen(testApp.app);
  });
  afterAll(async () => {
    await server.close();
    await testApp.close();
    await database.drop();
  });

  it('counts tool calls, not the handshake, against the same per-minute limit as REST', async () => {
    const client = await connectMcp(server.url);
    try {
      await client.listTools();
      await client.listTools();
      for (let call = 0; call < 3; call += 1) {
        const result = await client.callTool({ name: 'lookup_glossary_term', arguments: { term: 'APR' } });
        expect(result.isError).toBeFalsy();
      }
      await expect(client.callTool({ name: 'lookup_glossary_term', arguments: { term: 'APR' } })).rejects.toThrow(/429|Rate limit/);
    } finally {
      await client.close();
    }
  });

  it('refuses an invalid key on any MCP request with 401', async () => {
    const response = await rawRequest(`${server.url}/api/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'X-API-Key': 'mds_notarealkey_000' },
      body: initialize,
    });
    expect(response.status).toBe(401);
    expect(JSON.parse(response.body).error.message).toMatch(/key/i);
  });
});
