// The MCP protocol's edges on /api/mcp, at both eras: server/discover and what each era advertises
// (no listChanged without a way to deliver it), caching hints, an unknown tool as a protocol error,
// a missing resource as -32002 at the 2025-era versions and -32602 at 2026-07-28 (with its URI),
// JSON-RPC batches at 2025-03-26 only, transport refusals that name the request's id, and one server
// definition built once and reused, not per request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import type { Client } from '@modelcontextprotocol/client';
import { buildTestApp, listen, type TestApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { rawRequest, type RawResponse } from '../support/http.ts';
import { connectMcp } from '../support/mcp-client.ts';
import { connectModernMcp, MODERN_VERSION } from '../support/mcp-modern-client.ts';
import { UNSCHEDULED_TTL_MS } from '../../api/mcp/cache-hints.ts';

const ACCEPT = 'application/json, text/event-stream';
const MODERN_META = { 'io.modelcontextprotocol/protocolVersion': MODERN_VERSION, 'io.modelcontextprotocol/clientCapabilities': {} };

interface RpcAnswer {
  id: unknown;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

describe('MCP protocol edges', () => {
  let database: TestDatabase;
  let testApp: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let legacy: LegacyClient;
  let modern: Client;

  const post = (body: unknown, headers: Record<string, string> = {}): Promise<RawResponse> =>
    rawRequest(`${server.url}/api/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers },
      body: JSON.stringify(body),
    });
  const modernPost = (method: string, params: Record<string, unknown> = {}, name?: string) =>
    post(
      { jsonrpc: '2.0', id: 7, method, params: { ...params, _meta: MODERN_META } },
      { 'mcp-protocol-version': MODERN_VERSION, 'mcp-method': method, ...(name === undefined ? {} : { 'mcp-name': name }) },
    );
  const answer = (response: RawResponse): RpcAnswer => JSON.parse(response.body) as RpcAnswer;

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    testApp = await buildTestApp(database.db, { env: { SYNC_DAILY: 'false' } });
    server = await listen(testApp.app);
    legacy = await connectMcp(server.url);
    modern = await connectModernMcp(server.url);
  });
  afterAll(async () => {
    await legacy?.close();
    await modern?.close();
    await server?.close();
    await testApp?.close();
    await database?.drop();
  });

  it('answers server/discover at 2026-07-28, advertising subscriptions it delivers and lists that never change', async () => {
    const discovered = answer(await modernPost('server/discover')).result!;
    expect(discovered.supportedVersions).toEqual([MODERN_VERSION]);
    expect(discovered.capabilities).toMatchObject({
      tools: { listChanged: false },
      prompts: { listChanged: false },
      resources: { subscribe: true, listChanged: true },
    });
    expect(discovered).toMatchObject({ resultType: 'complete', ttlMs: UNSCHEDULED_TTL_MS, cacheScope: 'public' });
    expect(modern.getProtocolEra()).toBe('modern');
  });

  it('advertises no listChanged and no subscriptions at the 2025-era versions, which have no channel to push on', async () => {
    const initialized = answer(
      await post({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    ).result!;
    expect(initialized.protocolVersion).toBe('2025-11-25');
    expect(initialized.capabilities).toEqual({
      tools: { listChanged: false },
      prompts: { listChanged: false },
      resources: { listChanged: false },
      completions: {},
    });
    expect(legacy.getServerCapabilities()?.resources?.subscribe).toBeUndefined();
  });

  it('says how long each answer stays valid at 2026-07-28: content of this build a day, and nothing at 2025-era versions', async () => {
    const read = await modern.readResource({ uri: 'mds://glossary/escrow-cushion' });
    expect((read.contents[0] as { text?: string }).text).toMatch(/^# Escrow cushion/);
    const raw = answer(
      await modernPost('resources/read', { uri: 'mds://glossary/escrow-cushion' }, 'mds://glossary/escrow-cushion'),
    ).result!;
    expect(raw).toMatchObject({ ttlMs: UNSCHEDULED_TTL_MS, cacheScope: 'public' });
    const tools = answer(await modernPost('tools/list')).result!;
    expect(tools).toMatchObject({ cacheScope: 'public' });
    const legacyRead = await legacy.readResource({ uri: 'mds://glossary/escrow-cushion' });
    expect(legacyRead).not.toHaveProperty('ttlMs');
  });

  it('answers an unknown tool with the protocol error, at both eras', async () => {
    await expect(legacy.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await expect(modern.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toMatchObject({ code: -32602 });
  });

  it('answers a resource that does not exist with -32002 at 2025-11-25 and -32602 at 2026-07-28, with its URI', async () => {
    for (const uri of ['mds://glossary/no-such-term', 'mds://nowhere/at-all']) {
      await expect(legacy.readResource({ uri }), uri).rejects.toMatchObject({ code: -32002, data: { uri } });
      await expect(modern.readResource({ uri }), uri).rejects.toMatchObject({ code: -32602, data: { uri } });
    }
  });

  it('reads a JSON-RPC batch at 2025-03-26 and refuses one at a later version', async () => {
    const batch = [
      { jsonrpc: '2.0', id: 'a', method: 'tools/list' },
      { jsonrpc: '2.0', id: 'b', method: 'resources/read', params: { uri: 'mds://glossary/escrow-cushion' } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
    ];
    const read = await post(batch);
    expect(read.status).toBe(200);
    const answers = JSON.parse(read.body) as RpcAnswer[];
    expect(answers.map((entry) => entry.id).sort()).toEqual(['a', 'b']);
    expect((answers.find((entry) => entry.id === 'a')!.result!.tools as unknown[]).length).toBe(11); // docs/mcp.md: the specification's eight and three more
    const later = await post(batch, { 'mcp-protocol-version': '2025-06-18' });
    expect(later.status).toBe(400);
    expect(answer(later).error).toMatchObject({ code: -32600, message: expect.stringMatching(/batches are part of MCP 2025-03-26 only/) });
  });

  it("names the request's id in transport refusals", async () => {
    const request = { jsonrpc: '2.0', id: 41, method: 'tools/list' };
    const notAcceptable = await post(request, { accept: 'application/json' });
    expect(notAcceptable.status).toBe(406);
    expect(answer(notAcceptable).id).toBe(41);
    const badVersion = await post(request, { 'mcp-protocol-version': '1999-01-01' });
    expect(badVersion.status).toBe(400);
    expect(answer(badVersion)).toMatchObject({ id: 41, error: { message: expect.stringMatching(/Unsupported protocol version/) } });
    const foreign = await post(request, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(answer(foreign).id).toBe(41);
    const unsupportedModern = await post(
      {
        jsonrpc: '2.0',
        id: 'm',
        method: 'tools/list',
        params: { _meta: { ...MODERN_META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } },
      },
      { 'mcp-protocol-version': '2099-01-01', 'mcp-method': 'tools/list' },
    );
    expect(answer(unsupportedModern)).toMatchObject({ id: 'm', error: { code: -32022 } });
  });

  it('builds the server once and reuses it, request after request, at either era', async () => {
    for (let round = 0; round < 10; round += 1) {
      await legacy.listTools();
      await modern.listTools();
    }
    // Every request of this file, one after another: one instance per era (a third at most, had one
    // request arrived while the last one's instance was still being given back).
    expect(testApp.mcp.built).toBeGreaterThanOrEqual(2);
    expect(testApp.mcp.built).toBeLessThanOrEqual(3);
  });
});
