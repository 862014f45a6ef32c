// The same 8 tools through the official SDK clients of both protocol eras, against synced official
// data: the v1 client at 2025-11-25 (an `initialize` handshake) and the v2 client pinned to
// 2026-07-28 (stateless, `server/discover`) get the same answers from one server definition, and a
// series read at 2026-07-28 says it stays valid until its publisher's next scheduled release.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import type { Client } from '@modelcontextprotocol/client';
import { buildTestApp, listen, type TestApp } from '../support/app.ts';
import type { TestDatabase } from '../support/databases.ts';
import { connectMcp } from '../support/mcp-client.ts';
import { connectModernMcp } from '../support/mcp-modern-client.ts';
import { hasSourceData } from '../support/source-data.ts';
import { syncedTestDatabase } from '../support/synced.ts';
import { extractWarehouse, tempDir } from './hmda-fixtures.ts';

const DATASETS = [
  'loan_limits_conforming',
  'loan_limits_fha',
  'pmms',
  'optimal_blue',
  'economic_calendar',
  'bills',
  'search_index',
  'statistics',
];

/** One realistic call of each tool (docs/mcp.md's eleven). */
const CALLS: [string, Record<string, unknown>][] = [
  ['get_mortgage_rates', { state: 'TX', fico: 745, down_payment: 10 }],
  ['get_loan_limits', { state: 'CA', county: 'Los Angeles' }],
  ['lookup_glossary_term', { term: 'PMI' }],
  ['get_statistics', { category: 'loan_types' }],
  ['get_economic_calendar', { from: '2026-12-01', to: '2026-12-31', category: ['fed'] }],
  ['search_content', { query: 'escrow cushion', limit: 5 }],
  ['get_congress_bills', { query: 'FHA' }],
  ['query_hmda', { preset: 'approvals' }],
  ['find_series', { query: '30-year rate' }],
  ['analyze_data', { operation: 'extremes', series: 'pmms/30-year', from: '2020', to: '2021' }],
  ['get_escrow_months', { state: 'TX', closing_month: 3 }],
];

/** Sunday 2026-11-22, noon UTC: the next PMMS release is Wednesday the 25th (Thanksgiving falls on the Thursday). */
const NOW = new Date('2026-11-22T12:00:00Z');

describe.skipIf(!hasSourceData)('the tools at 2025-11-25 and at 2026-07-28', () => {
  let database: TestDatabase;
  let testApp: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let legacy: LegacyClient;
  let modern: Client;
  let hmdaDir: string;

  beforeAll(async () => {
    database = await syncedTestDatabase('pglite', DATASETS);
    hmdaDir = tempDir('mcp-eras-hmda');
    await extractWarehouse(hmdaDir);
    testApp = await buildTestApp(database.db, { env: { HMDA_DIR: hmdaDir }, clock: () => NOW });
    server = await listen(testApp.app);
    const account = await testApp.deps.services.access.keys.findOrCreateAccountByEmail('eras@example.org');
    const { key } = await testApp.deps.services.access.keys.createKey(account.id, 'eras');
    legacy = await connectMcp(server.url, { 'X-API-Key': key });
    modern = await connectModernMcp(server.url, { 'X-API-Key': key });
  }, 600_000);
  afterAll(async () => {
    await legacy?.close();
    await modern?.close();
    await server?.close();
    await testApp?.close();
    await database?.drop();
    if (hmdaDir) fs.rmSync(hmdaDir, { recursive: true, force: true });
  });

  it('lists the same tools to both clients', async () => {
    const [before, after] = await Promise.all([legacy.listTools(), modern.listTools()]);
    expect(after.tools.map((tool) => tool.name)).toEqual(before.tools.map((tool) => tool.name));
    expect(after.tools.map((tool) => tool.name).sort()).toEqual(CALLS.map(([name]) => name).sort());
    expect(after.tools.map((tool) => tool.inputSchema)).toEqual(before.tools.map((tool) => tool.inputSchema));
  });

  for (const [name, args] of CALLS) {
    it(`${name}: the same answer at both eras`, async () => {
      const [before, after] = await Promise.all([legacy.callTool({ name, arguments: args }), modern.callTool({ name, arguments: args })]);
      expect(before.isError, JSON.stringify(before.content)).toBeFalsy();
      expect(after.isError).toBeFalsy();
      expect(after.structuredContent).toEqual(before.structuredContent);
      expect(after.content).toEqual(before.content);
      expect((after.structuredContent as { sources?: unknown[] }).sources?.length).toBeGreaterThan(0);
    });
  }

  it("says a PMMS series stays valid until Freddie Mac's next weekly release", async () => {
    const response = await fetch(`${server.url}/api/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'resources/read',
        'mcp-name': 'mds://series/pmms/30-year?from=2026-01-01',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'resources/read',
        params: {
          uri: 'mds://series/pmms/30-year?from=2026-01-01',
          _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} },
        },
      }),
    });
    const { result } = (await response.json()) as { result: { ttlMs: number; cacheScope: string } };
    expect(result.cacheScope).toBe('public');
    expect(result.ttlMs).toBe(Date.parse('2026-11-25T00:00:00Z') - NOW.getTime());
  });
});
