// GET /api/v1/loan-limits and /healthz over synced loan-limit data on both databases: limits with
// sources, Connecticut's two geographies, 400 messages that say how to fix the request, 404 for a
// year without data, and 503 before the first sync.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../api/config.ts';
import { LoanLimitHistoryResponseSchema } from '../../api/loan-limits/contract.ts';
import { connectMcp } from '../support/mcp-client.ts';
import { ensureSiteBuiltForTests } from '../support/site-build.ts';
import { loadSsrHandler } from '../../api/server.ts';
import { testConfig } from '../support/app.ts';
import { buildTestApp, listen, type TestApp } from '../support/app.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.ts';
import { rawRequest } from '../support/http.ts';
import { hasSourceData } from '../support/source-data.ts';
import { syncedTestDatabase } from '../support/synced.ts';

describe.skipIf(!hasSourceData).each(databaseKinds)('loan limits API on %s', (kind) => {
  let database: TestDatabase;
  let testApp: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  const get = async (query: string) => {
    const response = await fetch(`${server.url}/api/v1/loan-limits?${query}`);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON bodies are probed field by field below
    return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, any> };
  };

  beforeAll(async () => {
    database = await syncedTestDatabase(kind, ['loan_limits_conforming', 'loan_limits_fha']);
    testApp = await buildTestApp(database.db, { clock: () => new Date('2026-11-22T12:00:00Z') });
    server = await listen(testApp.app);
  });

  afterAll(async () => {
    await server?.close();
    await testApp?.close();
    await database?.drop();
  });

  it('lists the datasets on /healthz with as-of, rows and source', async () => {
    const body = (await (await fetch(`${server.url}/healthz`)).json()) as {
      datasets: Record<string, { as_of: string; rows: number; source: string }>;
    };
    expect(body.datasets.loan_limits_conforming).toMatchObject({
      as_of: '2026-01-01',
      source: 'https://www.fhfa.gov/data/conforming-loan-limit',
    });
    expect(body.datasets.loan_limits_conforming?.rows).toBeGreaterThan(9 * 3_200);
    expect(body.datasets.loan_limits_fha).toMatchObject({ as_of: '2025-01-01' });
    expect(body.datasets.counties?.rows).toBeGreaterThanOrEqual(3_200);
  });

  it('answers Los Angeles County 2026 with every loan type, sources and as-of dates', async () => {
    const { status, body } = await get('state=ca&county=Los%20Angeles&year=2026');
    expect(status).toBe(200);
    const [county] = body.counties;
    expect(county).toMatchObject({ fips: '06037', county: 'Los Angeles County', cbsa: '31080' });
    expect(county.conforming).toMatchObject({ available: true, tier: 'high_cost', limits: { '1': 1_249_125 } });
    expect(county.va.limits).toEqual(county.conforming.limits);
    expect(county.va.note).toMatch(/conforming limit/);
    expect(county.usda).toMatchObject({ available: false, limits: null });
    expect(county.usda.note).toMatch(/no loan limit/);
    expect(county.fha).toMatchObject({ available: false });
    expect(county.fha.note).toMatch(/2026 are not loaded/);
    expect(body.national.conforming.baseline['1']).toBe(832_750);
    expect(body.sources.map((source: { loan_type: string }) => source.loan_type)).toEqual(['conforming', 'fha', 'va', 'usda']);
    expect(body.sources[0]).toEqual({
      name: 'Federal Housing Finance Agency (FHFA)',
      url: 'https://www.fhfa.gov/data/conforming-loan-limit',
      as_of: '2026-01-01',
      loan_type: 'conforming',
      dataset: 'loan_limits_conforming',
    });
  });

  it('filters by loan type and units, by FIPS', async () => {
    const { body } = await get('state=CA&county=06037&year=2025&loan_type=fha&units=1');
    expect(body.counties[0].fha).toEqual({ available: true, year: 2025, limits: { '1': 1_209_750 }, tier: 'high_cost' });
    expect(body.national.fha.floor).toEqual({ '1': 524_225 });
    expect(body.counties[0].conforming).toBeUndefined();
  });

  it('resolves both Connecticut planning regions and former counties', async () => {
    const region = await get('state=CT&county=09110&year=2025&loan_type=conforming');
    expect(region.body.counties[0]).toMatchObject({
      county: 'Capitol Planning Region',
      kind: 'planning_region',
      conforming: { limits: { '1': 806_500 } },
    });
    const old = await get('state=Connecticut&county=fairfield&year=2024&loan_type=conforming');
    expect(old.body.counties[0]).toMatchObject({ fips: '09001', county: 'Fairfield County', conforming: { limits: { '1': 766_550 } } });
  });

  it('lists every county of a state when no county is given', async () => {
    const { body } = await get('state=DE&year=2025&loan_type=conforming');
    expect(body.counties.map((county: { county: string }) => county.county)).toEqual(['Kent County', 'New Castle County', 'Sussex County']);
  });

  it('answers 400 with the valid codes for an unknown state and suggestions for an unknown county', async () => {
    const state = await get('state=ZZ');
    expect(state.status).toBe(400);
    expect(state.body.error).toMatch(/valid codes: AK, AL, AR, AS, AZ, CA/);
    const county = await get('state=CA&county=Los%20Angelos');
    expect(county.status).toBe(400);
    expect(county.body.error).toMatch(/Did you mean: Los Angeles County \(06037\)/);
    expect((await get('county=Denver')).body.error).toMatch(/'state'/);
    expect((await get('state=CO&units=5')).body.error).toMatch(/units/);
    expect((await get('state=CO&loan_type=jumbo')).body.error).toMatch(/conforming, fha, va, usda, all/);
  });

  it('answers 404 for a valid year without county data', async () => {
    const old = await get('state=CO&year=2017');
    expect(old.status).toBe(404);
    expect(old.body.error).toMatch(/Years available: 2018, .*2026/);
    expect(old.body.error).toMatch(
      /National one-unit limits back to 1972: get_loan_limits \{"state":"<code>","from_year":1972\} \(REST \/api\/v1\/loan-limits\/history\); for 2017 the national conforming baseline was \$424,100 and the high-cost ceiling \$636,150\./,
    );
    expect((await get('state=CO&year=2020&loan_type=fha')).status).toBe(404);
    // FHA 2026 is said one way everywhere: not loaded, its national figures computed, with the method.
    const fha2026 = await get('state=TX&county=Harris&loan_type=fha&year=2026');
    expect(fha2026.status).toBe(404);
    expect(fha2026.body.error).toContain("HUD's 2026 FHA county limits are not loaded. Its national floor and ceiling for 2026, $541,287");
    expect(fha2026.body.error).not.toMatch(/the FHA floor was/);
    const floor = (await (await fetch(`${server.url}/api/v1/series/loan-limits/fha/floor?from=2025`)).json()) as {
      as_of: string;
      observations: unknown[];
      notes: string[];
    };
    expect(floor.as_of).toBe('2025-01-01');
    expect(floor.observations).toEqual([
      { date: '2025-01-01', period: '2025', value: 524_225 },
      { date: '2026-01-01', period: '2026', value: 541_287, computed: true },
    ]);
    expect(floor.notes.join(' ')).toMatch(/2026: computed here, not published by HUD: HERA's formula/);
    const value = (await (await fetch(`${server.url}/api/v1/analysis/value?series=loan-limits/fha/floor&at=2026`)).json()) as {
      answer: string;
      method: string;
    };
    expect(value.answer).toMatch(/\$541,287 \(2026\), computed \(not published\)\./);
    expect(value.method).toMatch(/^Computed here, not published: HERA's formula/);
  });

  it("answers without a year with each program's latest published year, labelled, on REST and MCP alike", async () => {
    const { status, body } = await get('state=CA&county=06037');
    expect(status).toBe(200);
    expect(body.years).toEqual({ conforming: 2026, fha: 2025 });
    expect(body.year).toBe(2026);
    const [county] = body.counties;
    expect(county.conforming).toMatchObject({ available: true, year: 2026, limits: { '1': 1_249_125 } });
    expect(county.fha).toMatchObject({ available: true, year: 2025, limits: { '1': 1_209_750 } });
    expect(county.va).toMatchObject({ year: 2026, limits: { '1': 1_249_125 } });
    const latest =
      "HUD's 2026 FHA county limits are not loaded. Its national floor and ceiling for 2026, $541,287 and $1,249,125, are computed here, " +
      "not published by HUD: HERA's formula applied to FHFA's 2026 conforming baseline ($832,750): floor 65% of it rounded down, " +
      "ceiling 150%. The FHA figures here are HUD's 2025 limits, the latest loaded.";
    expect(body.notes).toContain(latest);
    expect(body.notes[0]).toBe(
      'Limits apply to loans acquired or endorsed in the calendar year shown for each program (effective January 1): conforming 2026, FHA 2025.',
    );
    expect(body.sources.find((source: { loan_type: string }) => source.loan_type === 'fha')).toMatchObject({ as_of: '2025-01-01' });
    // FHA alone answers the same way.
    const fha = await get('state=CA&county=06037&loan_type=fha');
    expect(fha.body).toMatchObject({ year: 2025, years: { fha: 2025 } });
    expect(fha.body.notes).toContain(latest);
    // An explicit year stays that year for every program, saying which has no file.
    const asked = await get('state=CA&county=06037&year=2026');
    expect(asked.body.years).toEqual({ conforming: 2026, fha: 2026 });
    expect(asked.body.notes).not.toContain(latest);

    const mcp = await connectMcp(server.url);
    try {
      const tool = await mcp.callTool({ name: 'get_loan_limits', arguments: { state: 'CA', county: '06037' } });
      const structured = tool.structuredContent as {
        years: unknown;
        notes: string[];
        counties: { fha: { year: number; limits: Record<string, number> } }[];
      };
      expect(structured.years).toEqual({ conforming: 2026, fha: 2025 });
      expect(structured.counties[0]?.fha).toMatchObject({ year: 2025, limits: { '1': 1_209_750 } });
      expect(structured.notes).toContain(latest);
      const text = (tool.content as { text: string }[])[0]?.text ?? '';
      expect(text).toMatch(/^Loan limits \(conforming 2026, FHA 2025\), 1-unit shown:/);
      expect(text).toContain(latest);
    } finally {
      await mcp.close();
    }
  });

  it('serves the national history since 1972 on REST, figure for figure as the fact file holds it', async () => {
    const file = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'data', 'loan-limits', 'national-history.json'), 'utf8')) as {
      conforming: { year: number; baseline: number | null; ceiling: number | null; source: string }[];
      fha: { year: number; floor: number; ceiling: number }[];
      sources: Record<string, { url: string }>;
    };
    const response = await fetch(`${server.url}/api/v1/loan-limits/history`);
    expect(response.status).toBe(200);
    const body = LoanLimitHistoryResponseSchema.strict().parse(await response.json());
    expect(body.parameters).toEqual({ program: 'all', from: 1972, to: 2026 });
    expect(body.conforming?.map((entry) => [entry.year, entry.baseline, entry.ceiling, entry.source.url])).toEqual(
      file.conforming.map((entry) => [entry.year, entry.baseline, entry.ceiling, file.sources[entry.source]?.url]),
    );
    expect(body.fha?.map((entry) => [entry.year, entry.floor, entry.ceiling])).toEqual(
      file.fha.map((entry) => [entry.year, entry.floor, entry.ceiling]),
    );
    expect(body.conforming?.[0]).toMatchObject({ year: 1972, baseline: 33_000, ceiling: null });
    expect(body.conforming?.find((entry) => entry.year === 2026)).toMatchObject({ baseline: 832_750, ceiling: 1_249_125 });
    expect(body.conforming?.find((entry) => entry.year === 1973)?.baseline).toBeNull();
    expect(body.fha?.find((entry) => entry.year === 2025)).toMatchObject({ floor: 524_225 });

    const fhaOnly = (await (await fetch(`${server.url}/api/v1/loan-limits/history?program=fha&from=2020&to=2021`)).json()) as {
      conforming?: unknown;
      fha: { year: number }[];
    };
    expect(fhaOnly.conforming).toBeUndefined();
    expect(fhaOnly.fha.map((entry) => entry.year)).toEqual([2020, 2021]);
    const reversed = await fetch(`${server.url}/api/v1/loan-limits/history?from=2021&to=2020`);
    expect(reversed.status).toBe(400);
    expect(await reversed.json()).toEqual({ error: expect.stringMatching(/'from' must not be after 'to'/), status: 400 });
    const future = await fetch(`${server.url}/api/v1/loan-limits/history?from=2090`);
    expect(future.status).toBe(404);
    expect(((await future.json()) as { error: string }).error).toMatch(/conforming history runs 1972–2026, the FHA history 2008–2026/);
    const alias = await rawRequest(`${server.url}/loan-limits/history?program=conforming&from=1972&to=1980`, {
      headers: { Host: 'api.localhost' },
    });
    expect(alias.status).toBe(200);

    // The OpenAPI document carries the route with its response schemas.
    const openapi = (await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as {
      paths: Record<string, { get: { responses: Record<string, { content?: unknown }> } }>;
    };
    const operation = openapi.paths['/loan-limits/history']?.get;
    expect(operation?.responses['200']?.content).toBeTruthy();
    expect(operation?.responses['404']?.content).toBeTruthy();
    expect(openapi.paths['/loan-limits']?.get.responses['404']?.content).toBeTruthy();
  });

  it('labels the program years the same way on the /loan-limits page', async () => {
    await ensureSiteBuiltForTests();
    const ssrHandler = await loadSsrHandler(testConfig());
    expect(ssrHandler).toBeDefined();
    const pages = await buildTestApp(database.db, { clock: () => new Date('2026-11-22T12:00:00Z'), options: { ssrHandler } });
    const site = await listen(pages.app);
    try {
      const html = (await (await fetch(`${site.url}/loan-limits?state=CA&county=06037`)).text()).replaceAll('&#39;', "'");
      expect(html).toMatch(/California, conforming 2026, FHA 2025: Los Angeles County/);
      expect(html).toContain('FHA (2025)');
      expect(html).toContain('$1,209,750');
      expect(html).toContain(
        "HUD's 2026 FHA county limits are not loaded. Its national floor and ceiling for 2026, $541,287 and $1,249,125, are computed here",
      );
      const old = await fetch(`${site.url}/loan-limits?state=CO&year=2017`);
      expect(old.status).toBe(404);
      expect(await old.text()).not.toMatch(/npm run/);
    } finally {
      await site.close();
      await pages.close();
    }
  }, 300_000);

  it('serves the same body on the API host', async () => {
    const main = await rawRequest(`${server.url}/api/v1/loan-limits?state=WY&county=Teton&year=2026`);
    const apiHost = await rawRequest(`${server.url}/loan-limits?state=WY&county=Teton&year=2026`, { headers: { Host: 'api.localhost' } });
    expect(apiHost.status).toBe(200);
    expect(apiHost.body).toBe(main.body);
  });
});

describe('loan limits API before the first sync', () => {
  let database: TestDatabase;
  let testApp: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    testApp = await buildTestApp(database.db);
  });

  afterAll(async () => {
    await testApp?.close();
    await database?.drop();
  });

  it('answers 503 with Retry-After', async () => {
    const server = await listen(testApp.app);
    try {
      const response = await fetch(`${server.url}/api/v1/loan-limits?state=CO`);
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBeTruthy();
    } finally {
      await server.close();
    }
  });
});
