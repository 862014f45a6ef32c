// GET /rates end to end on both databases, against the PMMS and Optimal Blue series synced from the
// official mirror: shapes, values traced to the synced data, all 510 cells of the default product
// answered and labelled, both addresses, errors, history, freshness against today, lender data taking
// precedence, and random query strings that must never produce a 5xx.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DetailedRateRecordSchema,
  FICO_TIERS,
  LTV_TIERS,
  RatesQuerySchema,
  SimpleRateRecordSchema,
  STATE_CODES,
} from '../../api/rates/contract.ts';
import { buildTestApp, listen, type TestApp } from '../support/app.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.ts';
import { rawRequest } from '../support/http.ts';
import { hasSourceData } from '../support/source-data.ts';
import { syncedTestDatabase, syncInto } from '../support/synced.ts';

describe.each(databaseKinds)('GET /rates before the first sync (%s)', (kind) => {
  let database: TestDatabase;
  let testApp: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    testApp = await buildTestApp(database.db);
    server = await listen(testApp.app);
  });
  afterAll(async () => {
    await server.close();
    await testApp.close();
    await database.drop();
  });

  it('answers 503 with Retry-After while the rate datasets are not loaded', async () => {
    const response = await fetch(`${server.url}/api/v1/rates`);
    expect(response.status).toBe(503);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await response.json()).toEqual({ error: expect.stringMatching(/pmms dataset is not loaded yet/), status: 503 });
  });

  it('still validates parameters first (400 beats 503)', async () => {
    expect((await fetch(`${server.url}/api/v1/rates?state=ZZ`)).status).toBe(400);
  });
});

describe.skipIf(!hasSourceData).each(databaseKinds)('GET /rates on synced data (%s)', (kind) => {
  let database: TestDatabase;
  let testApp: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let tmp: string;
  const get = (query = '') => fetch(`${server.url}/api/v1/rates${query}`);
  const latest = async (series: string, offset = 0) => {
    const { rows } = await database.db.query<{ observed_on: string; value: number }>(
      `SELECT to_char(observed_on, 'YYYY-MM-DD') AS observed_on, value::float8 AS value FROM rate_series_observations
       WHERE series_id = $1 ORDER BY observed_on DESC LIMIT 1 OFFSET $2`,
      [series, offset],
    );
    return rows[0];
  };

  beforeAll(async () => {
    database = await syncedTestDatabase(kind, ['pmms', 'optimal_blue']);
    // The day the issue was found on: the survey's 2026-10-08 figure has missed seven releases.
    testApp = await buildTestApp(database.db, { clock: () => new Date('2026-11-27T15:00:00Z') });
    server = await listen(testApp.app);
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mds-rates-api-'));
  });
  afterAll(async () => {
    await server.close();
    await testApp.close();
    await database.drop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('serves the detailed record with the survey, benchmark and weekly change taken from the synced data', async () => {
    const response = await get();
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toContain('max-age=3600');
    const body = DetailedRateRecordSchema.strict().parse(await response.json());
    const survey = await latest('MORTGAGE30US');
    const previousWeek = await latest('MORTGAGE30US', 1);
    const benchmark = await latest('OBMMIC30YF');
    expect(body.survey_rate).toBe(survey?.value);
    expect(body.survey_last_updated).toBe(survey?.observed_on);
    expect({ rate: body.survey_rate, on: body.survey_last_updated }).toEqual({ rate: 7.4, on: '2026-10-08' }); // anchor
    expect(body.national_average_rate).toBe(body.survey_rate);
    expect(body.national_average_last_updated).toBe(body.survey_last_updated);
    expect(body.index_a_rate).toBe(benchmark?.value);
    expect(body.index_a_last_updated).toBe(benchmark?.observed_on);
    // The survey is the newest series covering CO 780+/75% conventional 30-year: it is the rate.
    expect(body.rate_30yr).toBe(survey?.value);
    expect(body.rate_change_weekly).toBeCloseTo((survey?.value ?? 0) - (previousWeek?.value ?? 0), 6);
    expect(body.rate_change_line).toBe('Up 0.12 points in the week to 2026-10-08, its latest figure'); // stale: its own week, not "last week"
    expect(body.parameters).toEqual({
      state: 'CO',
      fico_tier: '780+',
      ltv_tier: '75%',
      product_type: 'Conventional',
      occupancy: 'Primary residence',
      property_type: 'Single family',
      loan_term: '30-year',
      loan_purpose: 'Purchase',
    });
    expect(body.metadata).toEqual({ api_version: 'v1', documentation: 'http://localhost:3000/docs/api' });
    expect(body).toMatchObject({ rate_kind: 'national', tier_specific: true, estimate: null });
    expect(body.missing).toEqual([
      'No state adjustment: HMDA loan records are not loaded on this server, so this rate is national, the same in every state.',
    ]);
    expect(body.sources.map((source) => source.url)).toContain('https://fred.stlouisfed.org/series/MORTGAGE30US');
    // On 2026-11-27 the survey figure of 2026-10-08 is stale, with the seven releases it missed.
    const surveyFreshness = body.freshness.find((entry) => entry.field === 'survey_rate');
    expect(surveyFreshness).toMatchObject({
      as_of: '2026-10-08',
      checked_on: '2026-11-27',
      age_days: 50,
      stale: true,
      missed_release_count: 7,
    });
    expect(surveyFreshness?.missed_releases).toEqual([
      '2026-10-15',
      '2026-10-22',
      '2026-10-29',
      '2026-11-05',
      '2026-11-12',
      '2026-11-19',
      '2026-11-25',
    ]);
    expect(body.stale.map((entry) => entry.field)).toEqual(['rate', 'rate_30yr', 'survey_rate', 'national_average_rate', 'index_a_rate']);
    expect(body.disclaimer).toMatch(
      /Not current: Freddie Mac Primary Mortgage Market Survey \(30-year fixed rate\) is from 2026-10-08, 50 days before 2026-11-27; 7 scheduled releases/,
    );
  });

  it('answers every one of the 510 cells of the default product, each labelled for what it is', async () => {
    const kinds = new Map<string, number>();
    for (const state of STATE_CODES) {
      for (const fico of [1, 2, 3, 4, 5] as const) {
        for (const ltv of [1, 2] as const) {
          const record = await testApp.deps.services.rates.detailed(RatesQuerySchema.omit({ format: true }).parse({ state, fico, ltv }));
          expect(record.parameters).toMatchObject({ state, fico_tier: FICO_TIERS[fico], ltv_tier: LTV_TIERS[ltv] });
          // The mirror has no FICO × LTV grid: only the 740+/LTV ≤ 80 cells have a benchmark of their own tier.
          expect(record.tier_specific).toBe(fico <= 2 && ltv === 1);
          expect(record.rate_kind).toBe('national');
          expect(record.missing.some((line) => line.includes('HMDA loan records are not loaded'))).toBe(true);
          const label = `${record.rate_kind}/${record.tier_specific}`;
          kinds.set(label, (kinds.get(label) ?? 0) + 1);
        }
      }
    }
    expect(Object.fromEntries(kinds)).toEqual({ 'national/true': 102, 'national/false': 408 });
    // Over HTTP, the cells the issue found answering 404 (Texas, a 745 score, 10% down among them).
    for (const query of ['?state=TX&fico=745&down_payment=10', '?state=CO&fico=5&ltv=2', '?state=WY&fico=3']) {
      const response = await get(query);
      expect(response.status, query).toBe(200);
      const body = DetailedRateRecordSchema.strict().parse(await response.json());
      expect(body.tier_specific).toBe(false);
      expect(body.disclaimer).toMatch(/not specific to the FICO or LTV tier asked for/);
    }
  });

  it('serves the simple record', async () => {
    const body = SimpleRateRecordSchema.strict().parse(await (await get('?format=simple&state=tx&fico=2')).json());
    expect(body).toEqual({
      rate: 7.4,
      date: '2026-10-08',
      state: 'TX',
      fico_tier: '740-779',
      ltv_tier: '75%',
      loan_term: 30,
      source: expect.stringMatching(/Freddie Mac/),
      rate_kind: 'national',
      tier_specific: true,
      disclaimer: expect.stringMatching(/national Freddie Mac .* as of 2026-10-08.*No state adjustment.*Not current/),
      freshness: expect.objectContaining({
        field: 'rate',
        as_of: '2026-10-08',
        checked_on: '2026-11-27',
        age_days: 50,
        stale: true,
        missed_release_count: 7,
      }),
      dataset_versions: [
        { dataset: 'pmms', version: expect.stringMatching(/^2026-10-08\.[0-9a-f]{8}$/), as_of: '2026-10-08' },
        { dataset: 'optimal_blue', version: expect.stringMatching(/^2025-09-25\.[0-9a-f]{8}$/), as_of: '2025-09-25' },
      ],
    });
  });

  it('serves identical bodies on /api/v1/rates and on the API host', async () => {
    for (const query of ['', '?state=ny&format=simple', '?product_type=fha&fico=5&ltv=2', '?fico=3']) {
      const main = await rawRequest(`${server.url}/api/v1/rates${query}`);
      const alias = await rawRequest(`${server.url}/rates${query}`, { headers: { Host: 'api.localhost' } });
      expect(alias.status).toBe(main.status);
      expect(alias.body).toBe(main.body);
    }
  });

  it('answers 400 naming the parameter and listing the valid values', async () => {
    const state = (await (await get('?state=ZZ')).json()) as { error: string; status: number };
    expect(state.status).toBe(400);
    expect(state.error).toContain("'state'");
    for (const code of STATE_CODES) expect(state.error).toContain(code);
    expect(await (await get('?fico=6')).json()).toEqual({
      error: expect.stringMatching(/'fico': 6\. Give a FICO tier 1-5 \(1 = 780\+, .*5 = 680-699\) or a score 300-850/),
      status: 400,
    });
    expect(await (await get('?fico=640')).json()).toEqual({
      error: expect.stringMatching(/'fico': 640\. A FICO score of 640 is below 680.*product_type=fha, va or usda/),
      status: 400,
    });
    expect((await get('?fico=640&product_type=fha')).status).toBe(200);
    expect(await (await get('?ltv=20')).json()).toEqual({
      error: expect.stringMatching(
        /'ltv': 20\. An LTV of 20% is ambiguous: it reads like a down payment\. For 20% down give down_payment=20/,
      ),
      status: 400,
    });
    expect(await (await get('?date=2026-11-28')).json()).toEqual({
      error: expect.stringMatching(/^'date' must not be after today \(2026-11-27\)/),
      status: 400,
    });
    expect(await (await get('?ltv=0')).json()).toEqual({
      error: expect.stringMatching(/'ltv': 0\. Give an LTV tier \(1 = 75%.*2 = 95%/),
      status: 400,
    });
    expect(await (await get('?date=2026-13-01')).json()).toEqual({ error: expect.stringMatching(/'date'.*YYYY-MM-DD/), status: 400 });
    expect((await get('?product_type=heloc')).status).toBe(400);
    expect((await get('?state=CO&state=TX')).status).toBe(400);
  });

  it('answers a valid query with no covering data 404, saying what is missing and since when, to a reader', async () => {
    // The official mirror has no copy of the FFIEC's APOR table: 10- and 20-year terms have no source.
    const body = (await (await get('?loan_term=20')).json()) as { error: string };
    expect(body).toEqual({
      error: expect.stringMatching(/no lender rate sheet is loaded for CO, FICO 780\+, LTV 75%, Conventional 20-year/),
      status: 404,
    });
    expect(body.error).toMatch(/the FFIEC Average Prime Offer Rate \(20-year fixed\) is not loaded/);
    const early = (await (await get('?date=1960-01-01')).json()) as { error: string };
    expect(early.error).toMatch(/on or before 1960-01-01: .*30-year fixed rate\) starts on 1971-04-02/);
    expect((await get('?occupancy=investment')).status).toBe(404);
    for (const query of [
      '?loan_term=20',
      '?product_type=usda',
      '?loan_term=10',
      '?date=1960-01-01',
      '?occupancy=investment',
      '?loan_purpose=cash_out_refinance',
    ]) {
      const response = await rawRequest(`${server.url}/api/v1/rates${query}`);
      expect(response.status, query).toBe(404);
      expect(response.body, query).not.toMatch(/npm run|npm |sync --|MDS_SOURCE_DIR/);
    }
  });

  it('answers loan_term=15 with the 15-year figure in rate and the 30-year figure kept in rate_30yr', async () => {
    const body = DetailedRateRecordSchema.strict().parse(await (await get('?loan_term=15&fico=2')).json());
    const fifteen = await latest('MORTGAGE15US');
    const thirty = await latest('MORTGAGE30US');
    expect(body).toMatchObject({
      rate: fifteen?.value,
      last_updated: fifteen?.observed_on,
      loan_term: 15,
      rate_30yr: thirty?.value,
      rate_30yr_last_updated: thirty?.observed_on,
    });
    expect(body.freshness.find((entry) => entry.field === 'rate')).toMatchObject({ as_of: '2025-09-25', stale: true });
    expect(body.missing).toContain(
      'No state adjustment: the state estimate covers 30-year loans only, so this rate is national, the same in every state.',
    );
  });

  it('answers as of a past day from the latest observations on or before it', async () => {
    const body = DetailedRateRecordSchema.parse(await (await get('?date=2024-01-06')).json());
    expect(body.survey_last_updated).toBe('2024-01-04');
    expect(body.survey_rate).toBe(6.62);
    expect(body.index_a_last_updated).toBe('2024-01-05');
    expect(body.last_updated <= '2024-01-06').toBe(true);
    // Judged against that day: the survey of 2024-01-04 was the latest due.
    expect(body.freshness.find((entry) => entry.field === 'survey_rate')).toMatchObject({
      checked_on: '2024-01-06',
      stale: false,
      age_days: 2,
    });
  });

  it('serves an imported lender rate sheet for its cell ahead of the benchmark, once the service reloads', async () => {
    const file = path.join(tmp, 'sheet.csv');
    fs.writeFileSync(
      file,
      'state,fico_tier,ltv_tier,product_type,loan_term,rate,date,source\nCO,3,1,conventional,30,6.875,2026-10-07,"Front Range Bank, N.A."\n',
    );
    const report = await syncInto(database.db, ['rate_sheet'], { options: { file, url: 'https://frontrange.example/rates' } });
    expect(report.results[0]).toMatchObject({ status: 'ok', rows: 1, changed: 1 });
    testApp.deps.services.rates.invalidate();
    const body = DetailedRateRecordSchema.parse(await (await get('?fico=3')).json());
    expect(body).toMatchObject({
      rate_30yr: 6.875,
      last_updated: '2026-10-07',
      source: 'Front Range Bank, N.A.',
      survey_rate: 7.4,
      rate_kind: 'lender_sheet',
      estimate: null,
    });
    expect(body.sources[0]).toEqual({ name: 'Front Range Bank, N.A.', url: 'https://frontrange.example/rates', as_of: '2026-10-07' });
    const result = await testApp.deps.services.rates.getRates({ fico: '3', format: 'simple' });
    expect(result.record).toEqual({
      rate: 6.875,
      date: '2026-10-07',
      state: 'CO',
      fico_tier: '720-739',
      ltv_tier: '75%',
      loan_term: 30,
      source: 'Front Range Bank, N.A.',
      rate_kind: 'lender_sheet',
      tier_specific: true,
      disclaimer: expect.stringMatching(/^From the rate sheet of Front Range Bank, N\.A\. dated 2026-10-07 .* This is not an offer\./),
      freshness: expect.objectContaining({ field: 'rate', stale: false }),
      dataset_versions: body.dataset_versions,
    });
    expect(body.dataset_versions.map((entry) => entry.dataset)).toEqual(['pmms', 'optimal_blue', 'rate_sheet']);
  });

  it('never answers 5xx to random query strings', async () => {
    const keys = fc.constantFrom(
      'state',
      'fico',
      'ltv',
      'product_type',
      'occupancy',
      'property_type',
      'loan_term',
      'loan_purpose',
      'format',
      'date',
      'x',
      'state[]',
      '__proto__',
    );
    const values = fc.oneof(
      fc.string(),
      fc.constantFrom(
        'co',
        'TX',
        '1',
        '5',
        '2',
        '0',
        'fha',
        'jumbo',
        'va',
        '15',
        '20',
        'simple',
        'refinance',
        '2024-02-29',
        '2023-02-29',
        '1971-04-02',
        '9999-12-31',
        '',
      ),
      fc
        .date({ noInvalidDate: true, min: new Date('1900-01-01'), max: new Date('2100-12-31') })
        .map((date) => date.toISOString().slice(0, 10)),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(keys, values), { maxLength: 6 }), async (pairs) => {
        const query = pairs.map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`).join('&');
        const response = await rawRequest(`${server.url}/api/v1/rates?${query}`);
        expect(response.status, `?${query} → ${response.body}`).toBeLessThan(500);
        expect([200, 400, 404]).toContain(response.status);
        JSON.parse(response.body);
      }),
      { numRuns: 150 },
    );
  });
});
