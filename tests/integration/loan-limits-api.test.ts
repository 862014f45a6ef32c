// GET /api/v1/loan-limits and /healthz over synced loan-limit data on both databases: limits with
// sources, Connecticut's two geographies, 400 messages that say how to fix the request, 404 for a
// year without data, and 503 before the first sync.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    const body = (await (await fetch(`${server.url}/healthz`)).json()) as { datasets: Record<string, { as_of: string; rows: number; source: string }> };
    expect(body.datasets.loan_limits_conforming).toMatchObject({ as_of: '2026-01-01', source: 'https://www.fhfa.gov/data/conforming-loan-limit' });
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
    expect(body.sources[0]).toMatchObject({ publisher: expect.stringMatching(/FHFA/), as_of: '2026-01-01' });
  });

  it('filters by loan type and units, by FIPS', async () => {
    const { body } = await get('state=CA&county=06037&year=2025&loan_type=fha&units=1');
    expect(body.counties[0].fha).toEqual({ available: true, limits: { '1': 1_209_750 }, tier: 'high_cost' });
    expect(body.national.fha.floor).toEqual({ '1': 524_225 });
    expect(body.counties[0].conforming).toBeUndefined();
  });

  it('resolves both Connecticut planning regions and former counties', async () => {
    const region = await get('state=CT&county=09110&year=2025&loan_type=conforming');
    expect(region.body.counties[0]).toMatchObject({ county: 'Capitol Planning Region', kind: 'planning_region', conforming: { limits: { '1': 806_500 } } });
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
    const old = await get('state=CO&year=2010');
    expect(old.status).toBe(404);
    expect(old.body.error).toMatch(/Years available: 2018, .*2026/);
    expect((await get('state=CO&year=2020&loan_type=fha')).status).toBe(404);
  });

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
