// The MCP endpoint itself: stateless Streamable HTTP at /api/mcp, Host/Origin checks, JSON or SSE
// as the client asks, tool errors as `isError` results rather than transport failures, and every MCP
// method (every call of a batch too) counted against the caller's one rate-limit budget.
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
      env: { RATE_LIMIT_ANON_PER_MINUTE: '6', RATE_LIMIT_KEY_PER_MINUTE: '10', RATE_LIMIT_PER_HOUR: '0' },
    });
    server = await listen(testApp.app);
  });
  afterAll(async () => {
    await server.close();
    await testApp.close();
    await database.drop();
  });

  const post = (body: unknown, headers: Record<string, string> = {}) =>
    rawRequest(`${server.url}/api/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(body),
    });
  const modernMeta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

  it("counts every MCP method and every call of a batch against the caller's one budget, with the RateLimit headers", async () => {
    const remaining: string[] = [];
    const counted = async (body: unknown, headers: Record<string, string> = {}) => {
      const response = await post(body, headers);
      expect(response.status, JSON.stringify(body)).toBe(200);
      expect(response.headers['ratelimit-limit']).toBe('6');
      remaining.push(String(response.headers['ratelimit-remaining']));
      return response;
    };
    await counted(JSON.parse(initialize));
    await counted({ jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: 'mds://glossary/escrow-cushion' } });
    await counted({ jsonrpc: '2.0', id: 3, method: 'prompts/get', params: { name: 'explain_a_term', arguments: { term: 'APR' } } });
    await counted({
      jsonrpc: '2.0',
      id: 4,
      method: 'completion/complete',
      params: { ref: { type: 'ref/prompt', name: 'explain_a_term' }, argument: { name: 'term', value: 'es' } },
    });
    // A batch (2025-03-26) counts each of its calls.
    await counted([
      { jsonrpc: '2.0', id: 5, method: 'tools/list' },
      { jsonrpc: '2.0', id: 6, method: 'resources/templates/list' },
    ]);
    expect(remaining).toEqual(['5', '4', '3', '2', '0']);
    // The budget is spent, whatever the method or the protocol version.
    const refused = await post(
      { jsonrpc: '2.0', id: 'over', method: 'resources/read', params: { uri: 'mds://glossary/escrow-cushion', _meta: modernMeta } },
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'resources/read', 'mcp-name': 'mds://glossary/escrow-cushion' },
    );
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    expect(JSON.parse(refused.body)).toMatchObject({
      id: 'over',
      error: { code: -32001, message: expect.stringMatching(/Rate limit of 6 requests/) },
    });
    // And REST, sharing the budget, is refused too.
    expect((await fetch(`${server.url}/api/v1/glossary?term=APR`)).status).toBe(429);
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
