// GET /statistics over a catalogue precomputed from synced data on both databases: coverage of the
// seven categories, values equal to recomputations from the tables and the official files, the
// featured rotation, 400/404/503 answers, the statistic record's shape, the API host, and no 5xx for any input.
import fs from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatasetStatus } from '../../api/platform/datasets.ts';
import { getStatisticsTool } from '../../api/mcp/tools/get-statistics.ts';
import { EXAMPLE_ID, StatisticsAnswerSchema } from '../../api/statistics/contract.ts';
import { createStatisticsService } from '../../api/statistics/service.ts';
import { CATEGORIES } from '../../api/statistics/contract.ts';
import { buildTestApp, listen, type TestApp } from '../support/app.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.ts';
import { rawRequest } from '../support/http.ts';
import { connectMcp } from '../support/mcp-client.ts';
import { hasSourceData, sourceFile } from '../support/source-data.ts';
import { syncedTestDatabase } from '../support/synced.ts';
import { createDatasetVersions } from '../../api/platform/dataset-versions.ts';

type Row = { id: string; category: string; value: string; data_year: number | null; numeric_value: number };
const readJson = <T>(...parts: string[]): T => JSON.parse(fs.readFileSync(sourceFile(...parts), 'utf8')) as T;

/** Principal and interest, written out here independently of the service's helper. */
const payment = (loan: number, ratePercent: number) => {
  const r = ratePercent / 100 / 12;
  return (loan * r * (1 + r) ** 360) / ((1 + r) ** 360 - 1);
};

describe.skipIf(!hasSourceData).each(databaseKinds)('statistics on %s', (kind) => {
  let database: TestDatabase;
  let testApp: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let stats: Map<string, Row>;
  const clock = () => new Date('2026-11-22T12:00:00Z');
  const get = async (query: string) => {
    const response = await fetch(`${server.url}/api/v1/statistics?${query}`);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies are checked against the zod schemas below
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };
  const stat = (id: string): Row => {
    const found = stats.get(id);
    if (!found) throw new Error(`statistic ${id} is missing from the catalogue`);
    return found;
  };

  beforeAll(async () => {
    database = await syncedTestDatabase(kind, ['statistics']);
    testApp = await buildTestApp(database.db, { clock });
    server = await listen(testApp.app);
    const { rows } = await database.db.query<Row>('SELECT id, category, value, data_year, numeric_value FROM statistics');
    stats = new Map(rows.map((row) => [row.id, { ...row, data_year: Number(row.data_year), numeric_value: Number(row.numeric_value) }]));
  });

  afterAll(async () => {
    await server?.close();
    await testApp?.close();
    await database?.drop();
  });

  it('holds at least 5 statistics in each of the seven categories and 40 in all', () => {
    expect(stats.size).toBeGreaterThanOrEqual(40);
    for (const category of CATEGORIES) {
      expect([...stats.values()].filter((row) => row.category === category).length, category).toBeGreaterThanOrEqual(5);
    }
  });

  it('computes the HMDA statistics to the values of the official JSON files', () => {
    const states = readJson<Record<string, Record<string, Record<string, number>>>>('hmda', 'aggregates', 'by_state_2025.json');
    const counts = readJson<Record<string, number>>('hmda', 'aggregates', 'record_counts', 'stateCounts2025.json');
    const nation = (dimension: string, code: string) =>
      Object.values(states).reduce((total, state) => total + (state[dimension]?.[code] ?? 0), 0);
    const records = Object.values(counts).reduce((total, value) => total + value, 0);
    expect(stat('hmda_records_2025').value).toBe(`${(records / 1e6).toFixed(1)} million`);
    expect(stat('fha_share_2025').value).toBe(`${((nation('loanType', '2') / records) * 100).toFixed(1)}%`);
    const decided = nation('actionTaken', '1') + nation('actionTaken', '2') + nation('actionTaken', '3');
    expect(stat('denial_rate_2025').value).toBe(`${((nation('actionTaken', '3') / decided) * 100).toFixed(1)}%`);
    expect(stat('approval_rate_2025').numeric_value).toBeCloseTo(
      ((nation('actionTaken', '1') + nation('actionTaken', '2')) / decided) * 100,
      6,
    );
  });

  it('computes the lender statistics to the values of the 2020 transmittal sheet', () => {
    const lines = fs
      .readFileSync(sourceFile('hmda', 'institutions', '2020_ts_csv.csv'), 'utf8')
      .trim()
      .split('\n')
      .slice(1);
    const larCounts = lines.map((line) => Number(line.split(',').at(-1))).sort((a, b) => b - a);
    const total = larCounts.reduce((sum, value) => sum + value, 0);
    expect(stat('hmda_filers_2020').value).toBe(larCounts.length.toLocaleString('en-US'));
    const top10 = larCounts.slice(0, 10).reduce((sum, value) => sum + value, 0);
    expect(stat('top10_lender_share_2020').value).toBe(`${((top10 / total) * 100).toFixed(1)}%`);
    expect(stat('top_lender_share_2020').data_year).toBe(2020);
  });

  it('computes rate, limit and payment statistics to recomputations from the tables', async () => {
    const { rows: latest } = await database.db.query<{ value: string; observed_on: unknown }>(
      `SELECT value::text AS value, observed_on FROM rate_series_observations WHERE series_id = 'MORTGAGE30US' ORDER BY observed_on DESC LIMIT 1`,
    );
    const rate = Number(latest[0]?.value);
    expect(stat('pmms_30yr_latest').value).toBe(`${rate.toFixed(2)}%`);
    const { rows: limits } = await database.db.query<{ year: number; limit_1: number }>(
      `SELECT year, limit_1 FROM loan_limit_national WHERE program = 'conforming' AND kind = 'floor' ORDER BY year DESC LIMIT 1`,
    );
    const baseline = Number(limits[0]?.limit_1);
    expect(stat(`conforming_baseline_limit_${limits[0]?.year}`).value).toBe(`$${baseline.toLocaleString('en-US')}`);
    expect(stat('pi_payment_baseline_latest').value).toBe(`$${Math.round(payment(baseline, rate)).toLocaleString('en-US')}`);
    const year = limits[0]?.year;
    expect(stat(`jumbo_threshold_10pct_down_${year}`).value).toBe(`$${Math.round(baseline / 0.9).toLocaleString('en-US')}`);
    expect(stat(`jumbo_threshold_10pct_down_${year}`).data_year).toBe(year);
  });

  it('serves the featured statistic of the day for a category, the same all day', async () => {
    const first = await get('category=rates');
    expect(first.status).toBe(200);
    expect(StatisticsAnswerSchema.parse(first.body).stat?.category).toBe('rates');
    expect((await get('category=rates')).body).toEqual(first.body);
    const any = await get('');
    expect(StatisticsAnswerSchema.parse(any.body).stat?.id).toBeTruthy();
  });

  it('rotates deterministically by date', async () => {
    const datasets = createDatasetStatus({ db: database.db });
    const pick = async (day: string) => {
      const clock = () => new Date(`${day}T08:00:00Z`);
      const service = createStatisticsService({
        db: database.db,
        datasets,
        versions: createDatasetVersions({ db: database.db, datasets, clock }),
        clock,
      });
      return (await service.answer({ category: 'lenders' })).stat?.id;
    };
    const days = Array.from({ length: 30 }, (_, index) => new Date(Date.UTC(2026, 0, 1 + index)).toISOString().slice(0, 10));
    const picks = await Promise.all(days.map(pick));
    expect(await Promise.all(days.map(pick))).toEqual(picks);
    expect(new Set(picks).size).toBeGreaterThan(1);
  });

  it('returns a statistic by id and every match with all=true', async () => {
    const one = await get('id=fha_share_2025');
    expect(StatisticsAnswerSchema.parse(one.body).stat).toMatchObject({
      id: 'fha_share_2025',
      category: 'loan_types',
      data_year: 2025,
      value: stat('fha_share_2025').value,
    });
    const all = await get('all=true');
    expect(StatisticsAnswerSchema.parse(all.body).stats).toHaveLength(stats.size);
    const lenders = await get('category=lenders&all=true');
    expect(lenders.body.stats.every((entry: { category: string }) => entry.category === 'lenders')).toBe(true);
    const year = await get('year=2020&all=true');
    expect(year.body.stats.every((entry: { data_year: number }) => entry.data_year === 2020)).toBe(true);
  });

  it('accepts a category in any case', async () => {
    for (const category of ['Rates', 'RATES', ' rates ']) {
      const response = await get(`category=${encodeURIComponent(category)}&all=true`);
      expect(response.status, category).toBe(200);
      expect(response.body).toEqual((await get('category=rates&all=true')).body);
    }
    expect((await get('id=fha_share_2025&category=Loan_Types')).status).toBe(200);
  });

  it('serves the ids its descriptions give as examples', async () => {
    const doc = (await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as {
      paths: Record<string, { get?: { parameters?: { name: string; description?: string }[] } }>;
    };
    const idParameter = Object.entries(doc.paths)
      .find(([route]) => route.endsWith('/statistics'))?.[1]
      .get?.parameters?.find((parameter) => parameter.name === 'id');
    const examples = [
      ...(idParameter?.description ?? '').matchAll(/`([a-z0-9_]+)`/g),
      ...`${getStatisticsTool.description} ${getStatisticsTool.inputSchema.shape.id.description}`.matchAll(/"([a-z0-9_]+)"/g),
    ].map((match) => match[1]);
    expect(examples).toContain(EXAMPLE_ID);
    for (const id of examples) expect((await get(`id=${id}`)).status, id).toBe(200);
  });

  it('states the year of every statistic, and a year filter names the years there are', async () => {
    for (const row of stats.values()) expect(Number.isInteger(row.data_year), row.id).toBe(true);
    const filtered = await get('id=fha_min_down_payment_at_floor_2025&year=2018');
    expect(filtered.status).toBe(404);
    expect(filtered.body.error).toBe('Statistic "fha_min_down_payment_at_floor_2025" describes 2025, not 2018; drop \'year\' to get it.');
    const none = await get('category=down_payment&year=2018');
    expect(none.status).toBe(404);
    expect(none.body.error).toBe('No statistics in down_payment describe 2018. Years available: 2025, 2026.');
  });

  it('answers get_statistics over MCP with the same records, each line naming its year', async () => {
    const client = await connectMcp(server.url);
    try {
      const result = await client.callTool({ name: 'get_statistics', arguments: { category: 'Down_Payment' } });
      expect(result.isError).toBeFalsy();
      const rest = StatisticsAnswerSchema.parse((await get('category=down_payment&all=true')).body);
      expect(StatisticsAnswerSchema.parse(result.structuredContent)).toEqual(rest);
      const text = (result.content as { type: string; text: string }[])[0]?.text ?? '';
      expect(text).toContain('[jumbo_threshold_20pct_down_2026, 2026]');
    } finally {
      await client.close();
    }
  });

  it('answers 400 for an unknown category and 404 for an unknown id or year', async () => {
    const category = await get('category=foo');
    expect(category.status).toBe(400);
    expect(category.body.error).toMatch(
      /'category'.*market_overview, rates, loan_types, down_payment, borrower_profile, lenders, affordability/,
    );
    const id = await get('id=no_such_stat');
    expect(id.status).toBe(404);
    expect(id.body.error).toMatch(/all=true/);
    expect((await get('year=1999')).status).toBe(404);
    expect((await get('year=19x9')).status).toBe(400);
    expect((await get('all=maybe')).status).toBe(400);
    expect((await get('id=fha_share_2025&category=rates')).status).toBe(404);
  });

  it('documents the parameters in the OpenAPI document', async () => {
    const doc = (await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as {
      paths: Record<string, { get?: { parameters?: { name: string }[] } }>;
    };
    const names = Object.entries(doc.paths)
      .find(([route]) => route.endsWith('/statistics'))?.[1]
      .get?.parameters?.map((parameter) => parameter.name);
    expect(names).toEqual(expect.arrayContaining(['category', 'id', 'year', 'all']));
    const json = JSON.stringify(doc);
    expect(json).toContain('"data_year":{"type":"integer"');
    expect(json).toContain('"population":');
    expect(json).not.toContain('data_year_note');
  });

  it('serves identical bodies on the API host', async () => {
    for (const query of ['category=affordability', 'id=pmms_30yr_latest', 'all=true&category=down_payment']) {
      const main = await rawRequest(`${server.url}/api/v1/statistics?${query}`);
      const apiHost = await rawRequest(`${server.url}/statistics?${query}`, { headers: { Host: 'api.localhost' } });
      expect(apiHost.status).toBe(200);
      expect(apiHost.body).toBe(main.body);
    }
  });

  it('never answers 5xx to random query strings', async () => {
    const key = fc.constantFrom('category', 'id', 'year', 'all', 'other', 'category[]');
    const value = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.constantFrom(...CATEGORIES, 'true', '2025', '-1', '%', '%00', "'; DROP TABLE statistics; --"),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(key, value), { maxLength: 4 }), async (pairs) => {
        const query = pairs.map(([name, text]) => `${encodeURIComponent(name)}=${encodeURIComponent(text)}`).join('&');
        const response = await rawRequest(`${server.url}/api/v1/statistics?${query}`);
        expect(response.status, query).toBeLessThan(500);
      }),
      { numRuns: 60 },
    );
  });
});

describe('statistics before the first precompute', () => {
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
      const response = await fetch(`${server.url}/api/v1/statistics?category=rates`);
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBeTruthy();
    } finally {
      await server.close();
    }
  });
});
