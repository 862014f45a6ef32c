// What an agent meets over MCP (issue 29), through the official SDK client and the Inspector CLI
// against synced data: schemas that tell the truth (each tool's vocabulary table passes the
// published inputSchema, checked with ajv's 2020-12 build, and the server; invalid calls fail
// both), a listing and answers within a model's budget (tools/list at most 25 KB; every natural
// default call at most 8 KB of text, summary first, with the way to the rest), resources/list in
// pages, caveats in the text, query_hmda saying "not loaded" before "needs a key", aliases alike
// across tools, and the MCP method and tool in the access-log line.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { PROJECT_ROOT } from '../../api/config.ts';
import { createLogger } from '../../api/platform/logger.ts';
import { PAGE_STRUCTURED_BUDGET_BYTES, TOOL_TEXT_BUDGET_BYTES, toolTextBytes } from '../../api/mcp/result-budget.ts';
import { RESOURCES_PAGE_SIZE } from '../../api/mcp/resources.ts';
import { buildTestApp, listen, type TestApp } from '../support/app.ts';
import type { TestDatabase } from '../support/databases.ts';
import { connectMcp, listAllResources, resultText } from '../support/mcp-client.ts';
import { hasSourceData } from '../support/source-data.ts';
import { syncedTestDatabase } from '../support/synced.ts';
import { VOCABULARY, callOf, refusesArguments, type Args } from '../support/mcp-vocabulary.ts';
import { tempDir } from './hmda-fixtures.ts';

const run = promisify(execFile);
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

/** Natural first calls, with no paging or detail asked for. */
const DEFAULT_CALLS: [string, Args][] = [
  ['get_statistics', {}],
  ['get_statistics', { category: 'Loan Types' }],
  ['get_loan_limits', { state: 'CA' }],
  ['get_loan_limits', { state: 'TX' }],
  ['get_loan_limits', { state: 'Texas', county: 'Travis', year: 2026 }],
  ['get_mortgage_rates', {}],
  ['get_mortgage_rates', { state: 'Texas', fico: 745, down_payment: 10, from: '2020' }],
  ['get_economic_calendar', {}],
  ['get_economic_calendar', { from: '2026-01-01', to: '2026-12-31' }],
  ['get_congress_bills', {}],
  ['search_content', { query: 'escrow' }],
  ['search_content', { query: 'loan limits', limit: 50 }],
  ['lookup_glossary_term', { term: 'escrow' }],
  ['query_hmda', { preset: 'rates' }],
];

interface AccessLine {
  msg?: string;
  url?: string;
  status?: number;
  mcpMethod?: string;
  mcpTool?: string;
}

describe.skipIf(!hasSourceData)('what an agent meets over MCP', () => {
  let database: TestDatabase;
  let testApp: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let anonymous: Client;
  let keyed: Client;
  let hmdaDir: string;
  const logged: AccessLine[] = [];

  const call = async (client: Client, name: string, args: Args) => {
    const result = await client.callTool({ name, arguments: args });
    return { result, structured: result.structuredContent as Record<string, unknown>, text: resultText(result) };
  };
  const rest = async (pathAndQuery: string) =>
    (await (await fetch(`${server.url}/api/v1${pathAndQuery}`)).json()) as Record<string, unknown>;

  beforeAll(async () => {
    database = await syncedTestDatabase('pglite', DATASETS);
    // No HMDA records on this server: query_hmda has nothing to answer from.
    hmdaDir = tempDir('mcp-agents-hmda');
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n')) if (line.startsWith('{')) logged.push(JSON.parse(line) as AccessLine);
        done();
      },
    });
    testApp = await buildTestApp(database.db, {
      env: { HMDA_DIR: hmdaDir },
      clock: () => new Date('2026-11-22T12:00:00Z'),
      logger: createLogger('info', sink),
    });
    server = await listen(testApp.app);
    const account = await testApp.deps.services.access.keys.findOrCreateAccountByEmail('mcp-agents@example.org');
    const { key } = await testApp.deps.services.access.keys.createKey(account.id, 'mcp agents');
    anonymous = await connectMcp(server.url);
    keyed = await connectMcp(server.url, { 'X-API-Key': key });
  }, 600_000);

  afterAll(async () => {
    await anonymous?.close();
    await keyed?.close();
    await server?.close();
    await testApp?.close();
    await database?.drop();
    if (hmdaDir) fs.rmSync(hmdaDir, { recursive: true, force: true });
  });

  it('lists the tools in at most 25 KB, each input schema JSON Schema 2020-12 that strict ajv compiles', async () => {
    const listed = await anonymous.listTools();
    expect(Buffer.byteLength(JSON.stringify(listed))).toBeLessThanOrEqual(25_000);
    const ajv = new Ajv2020({ strict: true });
    for (const tool of listed.tools) {
      expect(JSON.stringify(tool)).not.toContain('draft-07');
      expect(() => ajv.compile(tool.inputSchema), tool.name).not.toThrow();
    }
    // What every tool shares is said once, in the server's instructions, not in each tool.
    expect(anonymous.getInstructions()).toMatch(/`as_of` \(YYYY-MM-DD/);
    expect(listed.tools.filter((tool) => (tool.description ?? '').includes('dataset_versions'))).toEqual([]);
  });

  it("accepts each tool's natural calls on both sides, the published schema and the server, and refuses the invalid ones on both", async () => {
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    const { tools } = await anonymous.listTools();
    let answered = 0;
    for (const [name, vocabulary] of Object.entries(VOCABULARY)) {
      const tool = tools.find((candidate) => candidate.name === name)!;
      const valid = ajv.compile(tool.inputSchema);
      const client = name === 'query_hmda' ? keyed : anonymous;
      for (const args of vocabulary.natural) {
        const call = callOf(vocabulary, args);
        expect(valid(call), `${name} schema refuses ${JSON.stringify(call)}: ${JSON.stringify(valid.errors)}`).toBe(true);
        const { result, text } = await callTool(client, name, call);
        // Accepted: answered, or an error of the data (not loaded, not found), never a refusal of the arguments.
        expect(refusesArguments(text), `${name} refuses ${JSON.stringify(call)}: ${text}`).toBe(false);
        if (!result.isError) answered += 1;
      }
      for (const args of vocabulary.invalid) {
        const call = callOf(vocabulary, args);
        expect(valid(call), `${name} schema accepts ${JSON.stringify(call)}`).toBe(false);
        const { result, text } = await callTool(client, name, call);
        expect(result.isError, `${name} answers ${JSON.stringify(call)}`).toBe(true);
        expect(refusesArguments(text), `${name} ${JSON.stringify(call)}: ${text}`).toBe(true);
      }
    }
    expect(answered).toBeGreaterThan(80);
  }, 120_000);

  /** A call whose refusal the SDK may also raise as a JSON-RPC error: either way, its text. */
  async function callTool(client: Client, name: string, args: Args) {
    try {
      return await call(client, name, args);
    } catch (error) {
      if (!(error instanceof McpError)) throw error;
      return { result: { isError: true, content: [] }, structured: {}, text: error.message };
    }
  }

  it.each(DEFAULT_CALLS)('answers %s %j within 8 KB of text, its summary first', async (name, args) => {
    const { result, structured, text } = await call(anonymous, name, args);
    expect(toolTextBytes(result as Parameters<typeof toolTextBytes>[0])).toBeLessThanOrEqual(TOOL_TEXT_BUDGET_BYTES);
    expect(text.split('\n')[0]?.length).toBeGreaterThan(20);
    if (structured?.page) {
      expect(Buffer.byteLength(JSON.stringify(structured))).toBeLessThanOrEqual(PAGE_STRUCTURED_BUDGET_BYTES);
      expect(text).toMatch(/the next with offset: \d+/);
    }
  });

  it("gives a state's every county and every statistic a page at a time, as REST gives them at once", async () => {
    const pages = async (name: string, args: Args, items: string) => {
      const all: Record<string, unknown>[] = [];
      let offset: number | null = 0;
      let count = 0;
      while (offset !== null) {
        const { structured } = await call(anonymous, name, { ...args, offset });
        all.push(...(structured[items] as Record<string, unknown>[]));
        offset = (structured.page as { next_offset: number | null } | undefined)?.next_offset ?? null;
        count += 1;
      }
      return { all, count };
    };
    const counties = await pages('get_loan_limits', { state: 'ca' }, 'counties');
    expect(counties.count).toBeGreaterThan(1);
    expect(counties.all).toEqual((await rest('/loan-limits?state=CA')).counties);
    const statistics = await pages('get_statistics', {}, 'stats');
    expect(statistics.count).toBeGreaterThan(1);
    expect(statistics.all).toEqual((await rest('/statistics?all=true')).stats);
    const past = await call(anonymous, 'get_statistics', { offset: 10_000 });
    expect(past.result.isError).toBe(true);
    expect(past.text).toMatch(/^Invalid value for 'offset': 10000\. \d+ statistics match: give 0 to \d+\.$/);
  });

  it('lists resources a page at a time: the cursor leads to each resource once', async () => {
    const { resources, pages } = await listAllResources(anonymous);
    expect(pages).toBe(Math.ceil(resources.length / RESOURCES_PAGE_SIZE));
    expect(new Set(resources.map((resource) => resource.uri)).size).toBe(resources.length);
    expect(resources.filter((resource) => resource.uri.startsWith('mds://glossary/'))).toHaveLength(131);
    const bills = await database.db.query<{ n: number | string }>('SELECT count(*) AS n FROM bills');
    expect(resources.filter((resource) => resource.uri.startsWith('mds://bills/'))).toHaveLength(Number(bills.rows[0]?.n));
    const first = await anonymous.listResources();
    expect(first.resources).toHaveLength(RESOURCES_PAGE_SIZE);
    expect(first.nextCursor).toBeTruthy();
    await expect(anonymous.listResources({ cursor: 'not-a-cursor' })).rejects.toThrow(/Invalid cursor/);
  });

  it('says the caveats in the text: a program not loaded for the year, stale figures, a program a year behind', async () => {
    const travis = await call(anonymous, 'get_loan_limits', { state: 'TX', county: 'Travis', year: 2026 });
    expect((travis.structured.counties as { fha: { available: boolean } }[])[0]?.fha.available).toBe(false);
    expect(travis.text).toMatch(/^NOTE: no FHA limits: HUD FHA limits for 2026 are not loaded/m);
    expect(travis.text).toContain('FHA: none');
    const rates = await call(anonymous, 'get_mortgage_rates', { state: 'TX' });
    expect((rates.structured.stale as unknown[]).length).toBeGreaterThan(0);
    expect(rates.text).toMatch(/stale \(\d+ scheduled releases since not loaded\)/);
    const california = await call(anonymous, 'get_loan_limits', { state: 'CA' });
    expect(california.text.split('\n')[0]).toMatch(/^Loan limits \(conforming 2026, FHA 2025\) for California/);
  });

  it('reads "CPI" as inflation, as "FOMC" is fed and "jobs" employment, and `keyword` as the bills query', async () => {
    const year = { from: '2026-01-01', to: '2026-12-31' };
    for (const [alias, category] of [
      ['CPI', 'inflation'],
      ['FOMC', 'fed'],
      ['jobs', 'employment'],
    ] as const) {
      const viaAlias = await call(anonymous, 'get_economic_calendar', { ...year, category: alias });
      expect(viaAlias.result.isError, viaAlias.text).toBeFalsy();
      expect(viaAlias.structured).toEqual((await call(anonymous, 'get_economic_calendar', { ...year, category })).structured);
    }
    const byKeyword = await call(anonymous, 'get_congress_bills', { keyword: 'FHA' });
    expect(byKeyword.result.isError, byKeyword.text).toBeFalsy();
    expect(byKeyword.structured).toEqual((await call(anonymous, 'get_congress_bills', { query: 'FHA' })).structured);
  });

  it('query_hmda says the records are not loaded before it asks for a key', async () => {
    const { result, text } = await call(anonymous, 'query_hmda', { preset: 'rates' });
    expect(result.isError).toBe(true);
    expect(text).toMatch(/^HMDA loan records are not loaded on this server yet\./);
    expect(text).toMatch(/Once they are, query_hmda needs an API key: .*X-API-Key/);
    const withKey = await call(keyed, 'query_hmda', { preset: 'rates' });
    expect(withKey.text).toMatch(/^HMDA loan records are not loaded on this server yet/);
  });

  it('names the MCP method and tool in the access-log line of each request', async () => {
    logged.length = 0;
    await anonymous.listTools();
    await call(anonymous, 'lookup_glossary_term', { term: 'APR' });
    const lines = logged.filter((line) => line.msg === 'request' && line.url === '/api/mcp');
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ mcpMethod: 'tools/list', status: 200 }),
        expect.objectContaining({ mcpMethod: 'tools/call', mcpTool: 'lookup_glossary_term', status: 200 }),
      ]),
    );
    expect(lines.find((line) => line.mcpMethod === 'tools/list')).not.toHaveProperty('mcpTool');
  });

  it('passes the Inspector CLI schema portability check with nothing to report', async () => {
    const inspector = path.join(PROJECT_ROOT, 'node_modules', '.bin', 'mcp-inspector');
    const { stdout, stderr } = await run(
      inspector,
      ['--cli', `${server.url}/api/mcp`, '--transport', 'http', '--method', 'tools/list', '--strict'],
      { timeout: 60_000 },
    );
    expect(JSON.parse(stdout).tools).toHaveLength(11);
    expect(stderr).not.toMatch(/portability|Warning|Error/i);
  }, 90_000);
});
