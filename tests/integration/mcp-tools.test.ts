// The MCP tools through a real MCP client over HTTP, against synced official data: exactly the
// tools of docs/mcp.md (the specification's eight, then find_series, analyze_data and
// get_escrow_months) with schemas and annotations, realistic calls checked against the data, bad
// arguments as isError results, and query_hmda without and with a key. The official Inspector CLI
// lists and calls the tools too.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import path from 'node:path';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { PROJECT_ROOT } from '../../api/config.ts';
import { buildTestApp, listen, type TestApp } from '../support/app.ts';
import type { TestDatabase } from '../support/databases.ts';
import { connectMcp, listAllResources, resultText } from '../support/mcp-client.ts';
import { hasSourceData } from '../support/source-data.ts';
import { syncedTestDatabase } from '../support/synced.ts';
import { extractWarehouse, tempDir } from './hmda-fixtures.ts';

const run = promisify(execFile);

/** The specification's eight tools, then the series catalogue, the analysis layer and escrow (docs/mcp.md). */
const SPEC_TOOLS = [
  'analyze_data',
  'find_series',
  'get_congress_bills',
  'get_economic_calendar',
  'get_escrow_months',
  'get_loan_limits',
  'get_mortgage_rates',
  'get_statistics',
  'lookup_glossary_term',
  'query_hmda',
  'search_content',
];

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

type Structured = Record<string, unknown> & { sources?: { url: string; as_of: string | null }[] };

describe.skipIf(!hasSourceData)('MCP tools over HTTP with synced data', () => {
  let database: TestDatabase;
  let testApp: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let anonymous: Client;
  let keyed: Client;
  let hmdaDir: string;

  const call = async (client: Client, name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    return { result, structured: result.structuredContent as Structured, text: resultText(result) };
  };

  beforeAll(async () => {
    database = await syncedTestDatabase('pglite', DATASETS);
    hmdaDir = tempDir('mcp-hmda');
    await extractWarehouse(hmdaDir);
    testApp = await buildTestApp(database.db, {
      env: { HMDA_DIR: hmdaDir, RATE_LIMIT_ANON_PER_MINUTE: '0', RATE_LIMIT_KEY_PER_MINUTE: '0', RATE_LIMIT_PER_HOUR: '0' },
      clock: () => new Date('2026-11-22T12:00:00Z'),
    });
    server = await listen(testApp.app);
    const account = await testApp.deps.services.access.keys.findOrCreateAccountByEmail('mcp-test@example.org');
    const { key } = await testApp.deps.services.access.keys.createKey(account.id, 'mcp test');
    anonymous = await connectMcp(server.url);
    keyed = await connectMcp(server.url, { 'X-API-Key': key });
  }, 600_000); // eight datasets synced: minutes on a busy two-core machine

  afterAll(async () => {
    await anonymous?.close();
    await keyed?.close();
    await server?.close();
    await testApp?.close();
    await database?.drop();
    if (hmdaDir) fs.rmSync(hmdaDir, { recursive: true, force: true });
  });

  it('lists exactly the 11 tools of docs/mcp.md, each with schemas and read-only annotations', async () => {
    const { tools } = await anonymous.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(SPEC_TOOLS);
    for (const tool of tools) {
      expect(tool.title, tool.name).toBeTruthy();
      expect(tool.description?.length, tool.name).toBeGreaterThan(60);
      expect(tool.inputSchema.type).toBe('object');
      for (const [field, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
        expect((schema as { description?: string }).description, `${tool.name}.${field}`).toBeTruthy();
      }
      expect(tool.outputSchema?.properties, tool.name).toHaveProperty('sources');
      // Read-only, over our own data; a read-only tool's destructive and idempotent hints mean nothing (MCP), so they are not listed.
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
      expect(tool.annotations?.destructiveHint).not.toBe(true);
    }
  });

  it('get_mortgage_rates returns the survey rate of the synced PMMS data', async () => {
    const { result, structured, text } = await call(anonymous, 'get_mortgage_rates', { state: 'TX', fico: 2, ltv: 1 });
    expect(result.isError).toBeFalsy();
    const { rows } = await database.db.query<{ value: string; observed_on: string }>(
      "SELECT value::text AS value, observed_on::text AS observed_on FROM rate_series_observations WHERE series_id = 'MORTGAGE30US' ORDER BY observed_on DESC LIMIT 1",
    );
    expect(structured.survey_rate).toBeCloseTo(Number(rows[0]?.value), 3);
    expect(structured.survey_last_updated).toBe(rows[0]?.observed_on);
    expect(structured.sources?.length).toBeGreaterThan(0);
    expect(text).toMatch(/Source:/);
    // The 30-year rate of this cell is the survey; on 2026-11-22 it has missed six weekly releases, and says so.
    expect(structured).toMatchObject({
      rate: structured.survey_rate,
      loan_term: 30,
      rate_30yr: structured.survey_rate,
      rate_kind: 'national',
    });
    expect((structured.stale as { field: string }[]).find((entry) => entry.field === 'survey_rate')).toMatchObject({
      as_of: '2026-10-08',
      age_days: 45,
      missed_release_count: 6,
    });
    expect(text).toMatch(/This is a national figure, the same in every state\./);
    expect(text).toMatch(
      /Freshness: Freddie Mac Primary Mortgage Market Survey \(30-year fixed rate\): 45 days old on 2026-11-22, stale \(6 scheduled releases since not loaded\)/,
    );
    // The full caveats are the structured disclaimer; the text says the freshness once, and the shared framing is in the instructions.
    expect(structured.disclaimer).toMatch(/Not current: Freddie Mac Primary Mortgage Market Survey/);
    expect(text).not.toContain('Not current:');
  });

  it('get_mortgage_rates answers Texas, a 745 score and 10% down, saying it is not specific to that tier', async () => {
    const { result, structured, text } = await call(anonymous, 'get_mortgage_rates', { state: 'Texas', fico: 745, down_payment: 10 });
    expect(result.isError).toBeFalsy();
    expect(structured).toMatchObject({
      tier_specific: false,
      rate_kind: 'national',
      parameters: { state: 'TX', fico_tier: '740-779', ltv_tier: '95%' },
    });
    expect(text).toMatch(/not specific to this FICO\/LTV tier/);
    expect(text).not.toMatch(/npm|MDS_SOURCE_DIR/);
  });

  it('get_mortgage_rates reports a cell no loaded source covers as missing, in words for a reader', async () => {
    const { result, text } = await call(anonymous, 'get_mortgage_rates', { state: 'TX', fico: 4, ltv: 2, loan_term: 20 });
    expect(result.isError).toBe(true);
    expect(text).toMatch(/No rate for TX, FICO 700-719, LTV 95%, Conventional 20-year.*is not loaded/);
    expect(text).not.toMatch(/npm|MDS_SOURCE_DIR/);
  });

  it('get_loan_limits gives Los Angeles County its 2026 conforming limit of $1,249,125', async () => {
    const { result, structured } = await call(anonymous, 'get_loan_limits', {
      state: 'CA',
      county: 'Los Angeles',
      year: 2026,
      loan_type: 'conforming',
      units: 1,
    });
    expect(result.isError).toBeFalsy();
    const [county] = structured.counties as { fips: string; conforming: { limits: Record<string, number> } }[];
    expect(county?.fips).toBe('06037');
    expect(county?.conforming.limits['1']).toBe(1_249_125);
    expect(structured.sources?.[0]?.as_of).toBeTruthy();
  });

  it('get_loan_limits for all of Texas (254 counties) answers a page, says where the next starts and links every county', async () => {
    const { result, structured, text } = await call(anonymous, 'get_loan_limits', { state: 'TX' });
    expect(result.isError).toBeFalsy();
    const counties = structured.counties as { fips: string }[];
    expect(counties.length).toBeGreaterThan(5);
    expect(counties.length).toBeLessThan(254);
    expect(structured.page).toEqual({ offset: 0, count: counties.length, total: 254, next_offset: counties.length });
    expect((structured.notes as string[]).join(' ')).toContain(
      `254 counties match; counties 1–${counties.length} are here (the next with offset ${counties.length})`,
    );
    expect(text.split('\n')[0]).toMatch(/^Loan limits .* for Texas, 1-unit shown: 254 counties; conforming \$[\d,]+(; | to)/);
    const next = await call(anonymous, 'get_loan_limits', { state: 'TX', offset: counties.length });
    expect((next.structured.counties as { fips: string }[])[0]?.fips).not.toBe(counties[0]?.fips);
    const link = (result.content as { type: string; uri?: string }[]).find((block) => block.type === 'resource_link');
    expect(link?.uri).toMatch(/\/api\/v1\/loan-limits\?state=TX(&|$)/);
    const linked = new URL(link!.uri!);
    const everyCounty = (await (await fetch(new URL(linked.pathname + linked.search, server.url))).json()) as {
      counties: { fips: string }[];
    };
    expect(everyCounty.counties).toHaveLength(254);
    expect(everyCounty.counties.slice(0, counties.length).map((county) => county.fips)).toEqual(counties.map((county) => county.fips));
  });

  it('lookup_glossary_term defines a term with FAQs', async () => {
    const { structured } = await call(anonymous, 'lookup_glossary_term', { term: 'PMI' });
    expect(String(structured.term)).toMatch(/private mortgage insurance/i);
    expect((structured.faqs as unknown[]).length).toBeGreaterThanOrEqual(1);
  });

  it('get_statistics returns a computed statistic of the category', async () => {
    const { result, structured } = await call(anonymous, 'get_statistics', { category: 'loan_types' });
    expect(result.isError).toBeFalsy();
    const [stat] = structured.stats as { category: string; value: string; source_url: string }[];
    expect(stat?.category).toBe('loan_types');
    expect(stat?.value).toMatch(/\d/);
    expect(stat?.source_url).toMatch(/^https?:\/\//);
  });

  it('get_economic_calendar lists the December 2026 FOMC decision', async () => {
    const { structured } = await call(anonymous, 'get_economic_calendar', { from: '2026-12-01', to: '2026-12-31', category: ['fed'] });
    const events = structured.events as { date: string; category: string; impact: string }[];
    expect(events.some((event) => event.date === '2026-12-09' && event.impact === 'high')).toBe(true);
  });

  it('search_content finds the escrow cushion glossary entry first', async () => {
    const { structured } = await call(anonymous, 'search_content', { query: 'escrow cushion', limit: 5 });
    const results = structured.results as { url: string; excerpt: string }[];
    expect(results[0]?.url).toMatch(/\/glossary\/escrow-cushion$/);
    expect(results[0]?.excerpt).toContain('<mark>');
  });

  it('get_congress_bills searches tracked bills and returns one bill in full', async () => {
    const { structured, text } = await call(anonymous, 'get_congress_bills', { query: 'FHA' });
    const bills = structured.bills as { bill_id: string }[];
    expect(bills.length).toBeGreaterThan(0);
    const one = await call(anonymous, 'get_congress_bills', { bill_id: bills[0]?.bill_id });
    expect(one.structured.count).toBe(1);
    const bill = (one.structured.bills as { actions?: unknown[]; introduced_date: string | null; latest_action: { date: string } }[])[0]!;
    expect(bill.actions?.length).toBeGreaterThan(0);
    // The text says when the bill was introduced and last acted on, without reading the resource.
    expect(bill.introduced_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(one.text).toContain(`Introduced: ${bill.introduced_date}`);
    expect(one.text).toContain(`Latest action (${bill.latest_action.date})`);
    expect(text).toContain(`introduced ${(bills[0] as { introduced_date?: string }).introduced_date}`);
  });

  it('query_hmda refuses a caller without a key and says how to get one', async () => {
    const { result, text } = await call(anonymous, 'query_hmda', { preset: 'approvals' });
    expect(result.isError).toBe(true);
    expect(text).toMatch(/API key/);
    expect(text).toMatch(/account|support/);
  });

  it('query_hmda answers a key holder with rows, the SQL it ran and the as-of', async () => {
    const preset = await call(keyed, 'query_hmda', { preset: 'approvals' });
    expect(preset.result.isError).toBeFalsy();
    expect((preset.structured.rows as unknown[]).length).toBeGreaterThan(0);
    expect(String(preset.structured.sql)).toMatch(/SELECT/i);
    const sql = await call(keyed, 'query_hmda', { sql: 'SELECT count(*) AS n FROM lar' });
    expect((sql.structured.rows as { n: number }[])[0]?.n).toBe(26_144);
    const attack = await call(keyed, 'query_hmda', { sql: "SELECT * FROM read_csv('/etc/passwd')" });
    expect(attack.result.isError).toBe(true);
  });

  it.each([
    ['get_mortgage_rates', { state: 'ZZ' }],
    ['get_mortgage_rates', { fico: 9 }],
    ['get_loan_limits', {}],
    ['get_loan_limits', { state: 'Narnia' }],
    ['lookup_glossary_term', {}],
    ['get_statistics', { category: 'foo' }],
    ['get_economic_calendar', { from: '2026-13-01' }],
    ['search_content', { query: '' }],
    ['get_congress_bills', { bill_id: 'not-a-bill' }],
    ['query_hmda', { preset: 'everything' }],
  ])('%s with bad arguments %j is an isError result with a message', async (name, args) => {
    const client = name === 'query_hmda' ? keyed : anonymous;
    const { result, text } = await call(client, name, args);
    expect(result.isError).toBe(true);
    expect(text.length).toBeGreaterThan(10);
    expect(text).not.toMatch(/\bat .*\.ts:\d+|stack/i);
  });

  it('offers glossary, bill and article resources, county templates and prompts', async () => {
    const { resources } = await listAllResources(anonymous);
    expect(resources.filter((resource) => resource.uri.startsWith('mds://glossary/'))).toHaveLength(131);
    expect(resources.some((resource) => resource.uri.startsWith('mds://articles/'))).toBe(true);
    const term = await anonymous.readResource({ uri: 'mds://glossary/escrow-cushion' });
    expect(JSON.stringify(term.contents)).toMatch(/cushion/i);
    const { resourceTemplates } = await anonymous.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual(
      expect.arrayContaining([
        'mds://glossary/{slug}',
        'mds://bills/{bill_id}',
        'mds://counties/{fips}',
        'mds://loan-limits/{state}/{county}',
      ]),
    );
    const county = await anonymous.readResource({ uri: 'mds://loan-limits/CA/06037' });
    expect(JSON.stringify(county.contents)).toContain('Los Angeles');
    const { prompts } = await anonymous.listPrompts();
    expect(prompts.map((prompt) => prompt.name).sort()).toEqual([
      'compare_rates_for_my_state',
      'explain_a_term',
      'explain_my_loan_estimate',
      'follow_a_bill',
      'loan_limits_for_my_county',
    ]);
    const prompt = await anonymous.getPrompt({ name: 'compare_rates_for_my_state', arguments: { state: 'TX' } });
    expect(JSON.stringify(prompt.messages)).toContain('get_mortgage_rates');
    // The prompt names the tool's own arguments; called as written, the tool answers.
    const listed = (await anonymous.listPrompts()).prompts.find((entry) => entry.name === 'compare_rates_for_my_state');
    expect(listed?.arguments?.map((argument) => argument.name)).toEqual(['state', 'fico', 'down_payment']);
    const asked = await anonymous.getPrompt({
      name: 'compare_rates_for_my_state',
      arguments: { state: 'Texas', fico: '745', down_payment: '10' },
    });
    const message = (asked.messages[0]?.content as { text: string }).text;
    const written = /get_mortgage_rates with (\{.*?\})/.exec(message)?.[1] ?? '';
    const args = JSON.parse(written.replace(/(\w+):/g, '"$1":')) as Record<string, unknown>;
    expect(args).toEqual({ state: 'TX', fico: '745', down_payment: '10' });
    const { result } = await call(anonymous, 'get_mortgage_rates', args);
    expect(result.isError).toBeFalsy();
  });

  it('the official MCP Inspector CLI lists and calls the tools', async () => {
    const inspector = path.join(PROJECT_ROOT, 'node_modules', '.bin', 'mcp-inspector');
    const url = `${server.url}/api/mcp`;
    const listed = await run(inspector, ['--cli', url, '--transport', 'http', '--method', 'tools/list'], { timeout: 60_000 });
    expect(
      JSON.parse(listed.stdout)
        .tools.map((tool: { name: string }) => tool.name)
        .sort(),
    ).toEqual(SPEC_TOOLS);
    const called = await run(
      inspector,
      [
        '--cli',
        url,
        '--transport',
        'http',
        '--method',
        'tools/call',
        '--tool-name',
        'get_loan_limits',
        '--tool-arg',
        'state=CA',
        '--tool-arg',
        'county=06037',
        '--tool-arg',
        'year=2026',
      ],
      { timeout: 60_000 },
    );
    expect(called.stdout).toContain('1249125');
  }, 120_000);
});
