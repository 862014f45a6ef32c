// Optimal Blue's FICO × LTV grid end to end, on both databases: synced from FRED-layout files (a
// mirror fixture, rates/fred/<ID>.csv) through the same sync path as the other FRED series, then every
// conventional 30-year cell of every state answered from its own series on REST, the 15-year decision
// on REST and MCP, and the staleness signal beside the newer survey. Figures are checked with the
// test's own reader of the fixture files.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { loadConfig } from '../../api/config.ts';
import { createLogger } from '../../api/platform/logger.ts';
import { DetailedRateRecordSchema, STATE_CODES } from '../../api/rates/contract.ts';
import { createNationalDatasets } from '../../api/rates/sync/national.ts';
import { runSync } from '../../api/sync/runner.ts';
import { createSourceReader } from '../../api/sync/source.ts';
import { buildTestApp, listen, type TestApp } from '../support/app.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.ts';
import { connectMcp } from '../support/mcp-client.ts';
import { ensureSiteBuiltForTests } from '../support/site-build.ts';
import { loadSsrHandler } from '../../api/server.ts';
import { testConfig } from '../support/app.ts';
import { createGridMirror, FIXTURE_SERIES, fixtureCsv, lastValueIn } from '../support/rate-grid-fixture.ts';
import { hasSourceData } from '../support/source-data.ts';
import { syncInto } from '../support/synced.ts';

/** The day the issue was found on: the fixture's grid (to 2025-09-25) and the survey (to 2026-10-08) are both behind. */
const TODAY = () => new Date('2026-11-27T15:00:00Z');

/** The contract's cells and the grid series each must be answered from (the documented mapping). */
const CELLS: [fico: number, ltv: number, series: string][] = [
  [1, 1, 'OBMMIC30YFLVLE80FGE740'],
  [2, 1, 'OBMMIC30YFLVLE80FGE740'],
  [3, 1, 'OBMMIC30YFLVLE80FB720A739'],
  [4, 1, 'OBMMIC30YFLVLE80FB700A719'],
  [5, 1, 'OBMMIC30YFLVLE80FB680A699'],
  [1, 2, 'OBMMIC30YFLVGT80FGE740'],
  [2, 2, 'OBMMIC30YFLVGT80FGE740'],
  [3, 2, 'OBMMIC30YFLVGT80FB720A739'],
  [4, 2, 'OBMMIC30YFLVGT80FB700A719'],
  [5, 2, 'OBMMIC30YFLVGT80FB680A699'],
];

describe.skipIf(!hasSourceData).each(databaseKinds)('Optimal Blue FICO × LTV grid (%s)', (kind) => {
  let mirror: ReturnType<typeof createGridMirror>;
  let database: TestDatabase;
  let testApp: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let mcp: Client;
  const expected = (series: string) => lastValueIn(fs.readFileSync(path.join(mirror.dir, 'rates', 'fred', `${series}.csv`), 'utf8'));
  const get = async (query: string) => {
    const response = await fetch(`${server.url}/api/v1/rates?${query}`);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    mirror = createGridMirror();
    database = await createTestDatabase(kind);
    const report = await syncInto(database.db, ['pmms', 'optimal_blue'], { sourceDir: mirror.dir });
    expect(report.results.map((result) => [result.name, result.status, result.message])).toEqual([
      ['pmms', 'ok', ''],
      ['optimal_blue', 'ok', ''],
    ]);
    testApp = await buildTestApp(database.db, { clock: TODAY });
    server = await listen(testApp.app);
    mcp = await connectMcp(server.url);
  }, 120_000);
  afterAll(async () => {
    await mcp?.close();
    await server?.close();
    await testApp?.close();
    await database?.drop();
    mirror?.remove();
  });

  it('loads every fixture series with its first and last day, and a second sync changes nothing', async () => {
    const { rows } = await database.db.query<{ series_id: string; n: number; last: string }>(
      `SELECT series_id, count(*)::int AS n, to_char(max(observed_on), 'YYYY-MM-DD') AS last FROM rate_series_observations
       WHERE series_id = ANY($1::text[]) GROUP BY series_id ORDER BY series_id`,
      [[...FIXTURE_SERIES]],
    );
    expect(rows).toHaveLength(FIXTURE_SERIES.length);
    for (const row of rows) {
      const text = fixtureCsv(row.series_id);
      const published = text
        .trim()
        .split('\n')
        .slice(1)
        .filter((line) => !line.endsWith(',')).length;
      expect(row).toEqual({ series_id: row.series_id, n: published, last: '2025-09-25' });
    }
    const details = await database.db.query<{ details: { missing?: string[] } | string }>(
      "SELECT details FROM datasets WHERE name = 'optimal_blue'",
    );
    const recorded = details.rows[0]?.details;
    expect((typeof recorded === 'string' ? JSON.parse(recorded) : recorded)?.missing).toBeUndefined();
    const again = await syncInto(database.db, ['optimal_blue'], { sourceDir: mirror.dir });
    expect(again.results[0]).toMatchObject({ status: 'ok', changed: 0 });
  });

  it('answers all 10 conventional 30-year cells of every state from the matching grid series, labelled national', async () => {
    for (const [fico, ltv, series] of CELLS) {
      const want = expected(series);
      for (const state of STATE_CODES) {
        const { status, body } = await get(`state=${state}&fico=${fico}&ltv=${ltv}`);
        expect(status, `${state} fico=${fico} ltv=${ltv}`).toBe(200);
        const record = DetailedRateRecordSchema.strict().parse(body);
        expect({ rate: record.rate, rate_30yr: record.rate_30yr, on: record.last_updated }).toEqual({
          rate: want.value,
          rate_30yr: want.value,
          on: want.date,
        });
        expect(record.sources[0]?.url).toBe(`https://fred.stlouisfed.org/series/${series}`);
        expect(record.source).toMatch(
          /^Optimal Blue Mortgage Market Indices \(30-year fixed conforming, LTV .* 80, FICO .*\), national, via FRED$/,
        );
        expect(record).toMatchObject({ rate_kind: 'national', tier_specific: true });
        expect(record.disclaimer).toMatch(/the same in every state/);
      }
    }
  });

  it('says how old each figure is against today and which releases are missing, machine-readably and in the disclaimer', async () => {
    const record = DetailedRateRecordSchema.parse((await get('state=TX&fico=3&ltv=2')).body);
    expect(record.survey_last_updated).toBe('2026-10-08');
    expect(record.stale.map((entry) => [entry.field, entry.as_of, entry.age_days])).toEqual([
      ['rate', '2025-09-25', 428],
      ['rate_30yr', '2025-09-25', 428],
      ['survey_rate', '2026-10-08', 50],
      ['national_average_rate', '2026-10-08', 50],
      ['index_a_rate', '2025-09-25', 428],
    ]);
    expect(record.stale[0]?.missed_release_count).toBeGreaterThan(280);
    expect(record.disclaimer).toMatch(
      /Not current: Optimal Blue Mortgage Market Indices \(30-year fixed conforming, LTV > 80, FICO 720–739\) is from 2025-09-25, 428 days before 2026-11-27/,
    );
    // As of the grid's last day every figure due by then is loaded.
    const then = DetailedRateRecordSchema.parse((await get('state=TX&fico=3&ltv=2&date=2025-09-25')).body);
    expect(then.stale).toEqual([]);
  });

  it('keeps rate_30yr the 30-year figure for loan_term=15, on REST and in the MCP tool', async () => {
    const grid = expected('OBMMIC30YFLVLE80FB720A739');
    const fifteen = expected('OBMMIC15YF');
    const rest = DetailedRateRecordSchema.parse((await get('state=CO&fico=3&loan_term=15')).body);
    expect(rest).toMatchObject({
      rate: fifteen.value,
      loan_term: 15,
      last_updated: fifteen.date,
      rate_30yr: grid.value,
      rate_30yr_last_updated: grid.date,
    });
    expect(rest.parameters.loan_term).toBe('15-year');
    expect(rest.source).toMatch(/15-year fixed conforming/);
    const tool = await mcp.callTool({ name: 'get_mortgage_rates', arguments: { state: 'CO', fico: 3, loan_term: 15 } });
    expect(tool.isError).toBeFalsy();
    expect(tool.structuredContent).toMatchObject({
      rate: fifteen.value,
      loan_term: 15,
      rate_30yr: grid.value,
      rate_30yr_last_updated: grid.date,
      stale: rest.stale,
    });
    const text = (tool.content as { text: string }[])[0]?.text ?? '';
    // The cell as the caller gave it (FICO tier 3, no LTV): the default LTV is not named as if asked.
    expect(text).toContain(`15-year Conventional rate, CO, FICO 720-739: ${fifteen.value}%`);
    expect(text).toContain(`30-year rate of the same cell: ${grid.value}%`);
    // USDA from its own index.
    const usda = DetailedRateRecordSchema.parse((await get('product_type=usda&fico=5&ltv=2')).body);
    expect(usda.rate).toBe(expected('OBMMIUSDA30YF').value);
  });

  it('shows the same figures on the /rates page, with the 30-year figure, the lag and no operator text', async () => {
    await ensureSiteBuiltForTests();
    const ssrHandler = await loadSsrHandler(testConfig());
    expect(ssrHandler).toBeDefined();
    const pages = await buildTestApp(database.db, { options: { ssrHandler }, clock: TODAY });
    const site = await listen(pages.app);
    try {
      const page = await fetch(`${site.url}/rates?state=CO&fico=3&ltv=1&product_type=conventional&loan_term=15`);
      expect(page.status).toBe(200);
      const html = (await page.text()).replace(/<!--.*?-->/g, '');
      const fifteen = expected('OBMMIC15YF');
      const grid = expected('OBMMIC30YFLVLE80FB720A739');
      expect(html).toContain(`${fifteen.value.toFixed(3)}%`);
      expect(html).toMatch(/15-year rate, as of September 25, 2025, 428 days old, \d+ newer releases not loaded/);
      expect(html).toContain(`30-year rate for the same profile: ${grid.value.toFixed(3)}% (2025-09-25), 428 days old`);
      expect(html).toMatch(
        /class="stale-banner"[^>]*>\s*<p><strong>Not current\.<\/strong> Optimal Blue Mortgage Market Indices \(15-year fixed conforming\) is from 2025-09-25/,
      );
      expect(html).toContain('data-rate-kind="national"');
      expect(html).toContain('This is a national figure, the same in every state.');
      const missing = await fetch(`${site.url}/rates?state=CO&fico=3&ltv=1&loan_term=10`);
      expect(missing.status).toBe(404);
      const missingHtml = await missing.text();
      expect(missingHtml).toMatch(/No rate for CO, FICO 720-739, LTV 75%, Conventional 10-year/);
      for (const body of [html, missingHtml]) expect(body).not.toMatch(/npm run|MDS_SOURCE_DIR/);
    } finally {
      await site.close();
      await pages.close();
    }
  }, 300_000);

  it('reads the same series through the keyless FRED CSV download (fredgraph.csv?id=…) when there is no mirror', async () => {
    const asked: string[] = [];
    const reader = createSourceReader({
      sourceDir: undefined,
      fetch: (async (input: string | URL) => {
        const id = new URL(String(input)).searchParams.get('id') ?? '';
        asked.push(id);
        const file = FIXTURE_SERIES.includes(id as never)
          ? path.join(mirror.dir, 'rates', 'fred', `${id}.csv`)
          : path.join(mirror.dir, 'rates', 'recent_2020_2025', `${id}.csv`);
        return new Response(fs.readFileSync(file));
      }) as typeof fetch,
    });
    const scratch = await createTestDatabase(kind);
    try {
      const report = await runSync(scratch.db, createNationalDatasets(), {
        names: ['optimal_blue'],
        logger: createLogger('silent'),
        config: loadConfig({ LOG_LEVEL: 'silent' }),
        sourceReader: reader,
      });
      expect(report.results[0]).toMatchObject({ status: 'ok', asOf: '2025-09-25' });
      expect(asked).toEqual([
        'OBMMIC30YF',
        'OBMMIFHA30YF',
        'OBMMIVA30YF',
        'OBMMIJUMBO30YF',
        ...FIXTURE_SERIES.slice(-2),
        ...FIXTURE_SERIES.slice(0, -2),
      ]);
      const { rows } = await scratch.db.query<{ n: number }>('SELECT count(DISTINCT series_id)::int AS n FROM rate_series_observations');
      expect(rows[0]?.n).toBe(16);
    } finally {
      await scratch.drop();
    }
  });
});
