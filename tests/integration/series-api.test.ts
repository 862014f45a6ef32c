// GET /api/v1/series and /api/v1/series/{id} over data synced from the mirror, on both databases:
// a PMMS range as JSON and as CSV equals Freddie Mac's file row for row (read here with a reader of
// the test's own), monthly and annual means equal an independent computation from that file, the
// catalogue lists every series the database holds (counted here with SQL of the test's own), and
// bad ids, ranges, frequencies and formats get the documented 4xx.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogueAnswerSchema, SeriesAnswerSchema, type SeriesAnswer } from '../../api/series/contract.ts';
import { buildTestApp, listen, type TestApp } from '../support/app.ts';
import { databaseKinds, type TestDatabase } from '../support/databases.ts';
import { rawRequest } from '../support/http.ts';
import { connectMcp } from '../support/mcp-client.ts';
import { SERIES_RESOURCE_BUDGET } from '../../api/mcp/series-resource.ts';
import { readCatalogue } from '../../api/catalogue/measures.ts';
import { hasSourceData, sourceFile } from '../support/source-data.ts';
import { syncedTestDatabase } from '../support/synced.ts';

const SERIES_DATASETS = [
  'pmms',
  'optimal_blue',
  'nmdb',
  'loan_limits_conforming',
  'loan_limits_fha',
  'hud_median_family_income',
  'hmda_aggregates',
  'population',
];
/** Every HMDA measure: the catalogue's (data/catalogue/measures.yaml), a count and a share for every code the files carry. */
const HMDA_MEASURES = [...readCatalogue().hmda.keys()];
/** Means are served rounded to 3 decimals (plus floating-point slack). */
const HALF_OF_LAST_DIGIT = 0.0005 + 1e-9;
const PMMS_FILE = 'rates/pmms_2026/MORTGAGE30US_weekly_1971_to_2026-10-08_CRLF.csv';

/** Freddie Mac's weekly 30-year file as published here: CRLF, `date,value`, trailing zeros dropped. */
function readPmmsFile(): { date: string; value: number }[] {
  const [header, ...lines] = fs
    .readFileSync(sourceFile(PMMS_FILE), 'utf8')
    .split('\r\n')
    .filter((line) => line !== '');
  expect(header).toBe('date,value');
  return lines.map((line) => {
    const [date, value] = line.split(',');
    expect(date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    return { date: date!, value: Number(value) };
  });
}

/** A CSV body as records keyed by its header (no field here holds a comma or a quote). */
function readCsv(text: string): Record<string, string>[] {
  expect(text.endsWith('\r\n')).toBe(true);
  const [header, ...lines] = text.slice(0, -2).split('\r\n');
  const names = header!.split(',');
  return lines.map((line) => {
    const cells = line.split(',');
    expect(cells).toHaveLength(names.length);
    return Object.fromEntries(names.map((name, index) => [name, cells[index]!]));
  });
}

/** Means per month (YYYY-MM) of every row of the months that overlap [from, to], computed here. */
function monthlyMeans(rows: { date: string; value: number }[], from: string, to: string, length: 7 | 4) {
  const groups = new Map<string, number[]>();
  for (const row of rows) {
    const key = row.date.slice(0, length);
    if (key < from.slice(0, length) || key > to.slice(0, length)) continue;
    groups.set(key, [...(groups.get(key) ?? []), row.value]);
  }
  return [...groups].map(([period, values]) => ({
    period,
    mean: values.reduce((sum, value) => sum + value, 0) / values.length,
    count: values.length,
  }));
}

describe.skipIf(!hasSourceData).each(databaseKinds)('series API on %s', (kind) => {
  let database: TestDatabase;
  let testApp: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  const api = (path: string) => fetch(`${server.url}/api/v1${path}`);
  const json = async (path: string) => {
    const response = await api(path);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies are probed field by field
    return { status: response.status, headers: response.headers, body: (await response.json()) as any };
  };

  beforeAll(async () => {
    database = await syncedTestDatabase(kind, SERIES_DATASETS);
    testApp = await buildTestApp(database.db);
    server = await listen(testApp.app);
  }, 600_000); // six datasets synced into a template once per run: slow on a busy two-core machine
  afterAll(async () => {
    await server?.close();
    await testApp?.close();
    await database?.drop();
  });

  it('answers a ten-year PMMS range as JSON with every row of the official file', async () => {
    const official = readPmmsFile().filter((row) => row.date >= '2016-10-08' && row.date <= '2026-10-08');
    expect(official.length).toBeGreaterThan(500);
    const { status, headers, body } = await json('/series/pmms/30-year?from=2016-10-08&to=2026-10-08');
    expect(status).toBe(200);
    expect(headers.get('cache-control')).toMatch(/max-age=3600/);
    const answer: SeriesAnswer = SeriesAnswerSchema.parse(body);
    expect(answer.observations.map((row) => ({ date: row.date, value: row.value }))).toEqual(official);
    expect(answer).toMatchObject({
      id: 'pmms/30-year',
      frequency: 'weekly',
      aggregation: null,
      count: official.length,
      as_of: '2026-10-08',
      range: { from: '2016-10-08', to: '2026-10-08' },
      source: { url: 'https://fred.stlouisfed.org/series/MORTGAGE30US', as_of: '2026-10-08' },
    });

    // The whole series, by its FRED id, is the whole file.
    const all = await json('/series/MORTGAGE30US');
    expect(all.body.observations.map((row: { date: string; value: number }) => ({ date: row.date, value: row.value }))).toEqual(
      readPmmsFile(),
    );
  });

  it('answers the same range as CSV with every row of the official file, each with source and as-of', async () => {
    const official = readPmmsFile().filter((row) => row.date >= '2016-10-08' && row.date <= '2026-10-08');
    const response = await api('/series/pmms%2F30-year?from=2016-10-08&to=2026-10-08&format=csv');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe('inline; filename="pmms-30-year_2016-10-13_2026-10-08.csv"');
    const rows = readCsv(await response.text());
    expect(rows.map((row) => ({ date: row.date, value: Number(row.value) }))).toEqual(official);
    for (const row of rows) {
      expect(row).toMatchObject({
        series_id: 'pmms/30-year',
        source_url: 'https://fred.stlouisfed.org/series/MORTGAGE30US',
        as_of: '2026-10-08',
        period: row.date,
        count: '',
      });
    }
    const etag = response.headers.get('etag');
    expect(etag).toMatch(/^"[0-9a-f]+-/);
    const again = await rawRequest(`${server.url}/api/v1/series/pmms/30-year?from=2016-10-08&to=2026-10-08&format=csv`, {
      headers: { 'If-None-Match': etag ?? '' },
    });
    expect(again.status).toBe(304);
  });

  it('averages to months and years exactly as an independent computation from the file does', async () => {
    const file = readPmmsFile();
    const { body } = await json('/series/pmms/30-year?from=2016-10-08&to=2026-10-08&frequency=monthly');
    const expected = monthlyMeans(file, '2016-10-08', '2026-10-08', 7);
    expect(body.aggregation).toEqual({
      from_frequency: 'weekly',
      to_frequency: 'monthly',
      method: expect.stringMatching(/^Mean of the observations dated in the month/),
    });
    expect(body.observations).toHaveLength(expected.length);
    body.observations.forEach((row: { date: string; period: string; value: number; count: number }, index: number) => {
      const want = expected[index]!;
      expect(row.period).toBe(want.period);
      expect(row.date).toBe(`${want.period}-01`);
      expect(row.count).toBe(want.count);
      expect(Math.abs(row.value - want.mean)).toBeLessThanOrEqual(HALF_OF_LAST_DIGIT);
    });
    // October 2016 is averaged whole although the range starts on the 8th.
    expect(body.observations[0]).toMatchObject({ period: '2016-10', count: 4 });

    const years = await json('/series/pmms/30-year?from=2022&to=2023&frequency=annual');
    const annual = monthlyMeans(file, '2022', '2023', 4);
    expect(years.body.observations.map((row: { period: string; count: number }) => [row.period, row.count])).toEqual(
      annual.map((row) => [row.period, row.count]),
    );
    years.body.observations.forEach((row: { value: number }, index: number) =>
      expect(Math.abs(row.value - annual[index]!.mean)).toBeLessThanOrEqual(HALF_OF_LAST_DIGIT),
    );

    const csv = readCsv(await (await api('/series/pmms/30-year?from=2022-03&to=2022-03&frequency=monthly&format=csv')).text());
    const march = monthlyMeans(file, '2022-03', '2022-03', 7)[0]!;
    expect(csv).toHaveLength(1);
    expect(csv[0]).toMatchObject({ period: '2022-03', date: '2022-03-01', count: String(march.count) });
    expect(Math.abs(Number(csv[0]!.value) - march.mean)).toBeLessThanOrEqual(HALF_OF_LAST_DIGIT);
  });

  it('lists every series the database holds in the catalogue', async () => {
    const ids: string[] = [];
    const totals = new Set<number>();
    // Every family but the counties' HMDA measures page by page (those are checked by their count,
    // the ids of their last page and the pages around a family's end, below: 480,000 ids).
    const { body: whole } = await json('/series?limit=1');
    const families = CatalogueAnswerSchema.parse(whole).families;
    for (const family of families.filter((entry) => entry.id !== 'hmda-county')) {
      const listed: string[] = [];
      for (let offset = 0; ; offset += 1000) {
        const { status, body } = await json(`/series?family=${family.id}&limit=1000&offset=${offset}`);
        expect(status).toBe(200);
        const page = CatalogueAnswerSchema.parse(body);
        totals.add(page.total - family.series);
        listed.push(...page.series.map((series) => series.id));
        if (page.series.length < 1000) break;
      }
      expect(listed).toHaveLength(family.series);
      ids.push(...listed);
    }
    expect([...totals]).toEqual([0]);
    expect(new Set(ids).size).toBe(ids.length);
    const counties = families.find((family) => family.id === 'hmda-county')!;
    const lastFips = await database.db.query<{ fips: string }>('SELECT max(fips) AS fips FROM hmda_county_aggregates');
    const last = await json(`/series?family=hmda-county&limit=${HMDA_MEASURES.length}&offset=${counties.series - HMDA_MEASURES.length}`);
    expect(last.body.series.map((series: { id: string }) => series.id)).toEqual(
      HMDA_MEASURES.map((measure) => `hmda/${lastFips.rows[0]!.fips}/${measure}`),
    );
    // A page across two families' boundary holds the end of one and the start of the next, in order.
    expect(whole.total).toBe(families.reduce((sum, family) => sum + family.series, 0));
    const before = families.slice(0, families.indexOf(counties)).reduce((sum, family) => sum + family.series, 0);
    const firstFips = await database.db.query<{ fips: string }>('SELECT min(fips) AS fips FROM hmda_county_aggregates');
    const boundary = await json(`/series?limit=2&offset=${before - 1}`);
    expect(boundary.body.series.map((series: { id: string }) => series.id)).toEqual([
      ids.findLast((id) => /^hmda\/[A-Z]{2}\//.test(id)),
      `hmda/${firstFips.rows[0]!.fips}/${HMDA_MEASURES[0]}`,
    ]);

    // What the tables hold, named the documented way.
    const fred: Record<string, string> = {
      MORTGAGE30US: 'pmms/30-year',
      MORTGAGE15US: 'pmms/15-year',
      MORTGAGE5US: 'pmms/5-1-arm',
      OBMMIC30YF: 'optimal-blue/conforming-30-year',
      OBMMIFHA30YF: 'optimal-blue/fha-30-year',
      OBMMIVA30YF: 'optimal-blue/va-30-year',
      OBMMIJUMBO30YF: 'optimal-blue/jumbo-30-year',
    };
    const expected = new Set<string>();
    const rates = await database.db.query<{ series_id: string }>('SELECT DISTINCT series_id FROM rate_series_observations');
    for (const row of rates.rows) expected.add(fred[row.series_id] ?? `unexpected ${row.series_id}`);
    const measures = [
      'ave_intrate',
      'pct_intrate_lt_3',
      'pct_intrate_3_4',
      'pct_intrate_4_5',
      'pct_intrate_5_6',
      'pct_intrate_ge_6',
    ].flatMap((measure) => [measure, `${measure}_dollar`]);
    const nmdb = await database.db.query<{ state: string; market: string }>('SELECT DISTINCT state, market FROM nmdb_state_rates');
    expect(nmdb.rows).toHaveLength(51 * 4);
    for (const row of nmdb.rows)
      for (const measure of measures)
        expected.add(row.market === 'all' ? `nmdb/${row.state.trim()}/${measure}` : `nmdb/${row.state.trim()}/${row.market}/${measure}`);
    const limits = await database.db.query<{ program: string; fips: string }>('SELECT DISTINCT program, fips FROM loan_limits');
    for (const row of limits.rows) {
      expected.add(`loan-limits/${row.program}/${row.fips}`);
      for (const units of [2, 3, 4]) expected.add(`loan-limits/${row.program}/${row.fips}/${units}-unit`);
    }
    for (const national of ['conforming/baseline', 'conforming/ceiling', 'fha/floor', 'fha/ceiling'])
      expected.add(`loan-limits/${national}`);
    // HUD's figures of every county HUD lists whole (<FIPS>99999): the median and 3 levels × 8 household sizes.
    const income = await database.db.query<{ area_fips: string }>(
      "SELECT DISTINCT area_fips FROM hud_median_family_income WHERE area_fips LIKE '%99999'",
    );
    expect(income.rows.length).toBeGreaterThan(3_000);
    for (const { area_fips: area } of income.rows) {
      const fips = area.slice(0, 5);
      expected.add(`income-limits/median/${fips}`);
      for (const level of ['extremely-low', 'very-low', 'low'])
        for (let size = 1; size <= 8; size += 1) expected.add(`income-limits/${level}/${fips}/${size}-person`);
    }
    const places = await database.db.query<{ geo_code: string }>(
      "SELECT DISTINCT geo_code FROM hmda_aggregates WHERE geo_level = 'state' AND geo_code <> 'NA'",
    );
    for (const geo of ['US', ...places.rows.map((row) => row.geo_code)]) {
      for (const measure of HMDA_MEASURES) expected.add(`hmda/${geo}/${measure}`);
    }
    const countyRows = await database.db.query<{ fips: string }>('SELECT DISTINCT fips FROM hmda_county_aggregates');
    expect(counties.series).toBe(countyRows.rows.length * HMDA_MEASURES.length);
    const residents = await database.db.query<{ geo_code: string }>('SELECT DISTINCT geo_code FROM population');
    for (const row of residents.rows) expected.add(`population/${row.geo_code}`);
    expect(new Set(ids)).toEqual(expected);

    // Each family answers its example, and the filters narrow the list.
    const { body } = await json('/series?limit=1');
    for (const family of body.families) {
      expect(family.available, family.id).toBe(true);
      expect((await api(`/series/${family.example}`)).status, family.example).toBe(200);
    }
    const losAngeles = await json('/series?query=los%20angeles&family=loan-limits');
    expect(losAngeles.body.series.map((series: { id: string }) => series.id)).toEqual([
      'loan-limits/conforming/06037',
      'loan-limits/fha/06037',
      ...['conforming', 'fha'].flatMap((program) => [2, 3, 4].map((units) => `loan-limits/${program}/06037/${units}-unit`)),
    ]);
    // Words are read by the catalogue of measures: a measure and a place, best first.
    const harris = await json('/series?query=denial%20rate%20Harris%20County&limit=2');
    expect(harris.body.series.map((series: { id: string }) => series.id)).toEqual(['hmda/48201/denial_rate', 'hmda/48201/denials']);
    const texas = await json('/series?state=texas&family=hmda');
    expect(texas.body.total).toBe(HMDA_MEASURES.length);
  }, 300_000); // every county's HMDA counts are read the first time the catalogue is asked

  it('serves FHFA state rates, county and national limits and HMDA aggregates over time', async () => {
    const california = await json('/series/NMDB/ca/AVE_INTRATE?from=2025');
    expect(california.body).toMatchObject({
      id: 'nmdb/CA/ave_intrate',
      frequency: 'quarterly',
      as_of: '2025-09-30',
      observations: [{ period: '2025Q1' }, { period: '2025Q2' }, { date: '2025-09-30', period: '2025Q3', value: 4 }],
    });
    const annual = await json('/series/nmdb/CA/ave_intrate?from=2024&to=2024&frequency=annual');
    expect(annual.body.observations).toEqual([expect.objectContaining({ period: '2024', count: 4 })]);

    const county = await json('/series/loan-limits/conforming/06037?from=2025');
    expect(county.body.observations).toEqual([
      { date: '2025-01-01', period: '2025', value: 1_209_750 },
      { date: '2026-01-01', period: '2026', value: 1_249_125 },
    ]);
    const fourUnits = await json('/series/loan-limits/conforming/36047/4-UNITS?from=2026');
    expect(fourUnits.body).toMatchObject({
      id: 'loan-limits/conforming/36047/4-unit',
      observations: [{ period: '2026', value: 2_326_875 }],
    });
    const baseline = await json('/series/loan-limits/conforming/baseline?from=2018&to=2026');
    expect(baseline.body.observations.at(-1)).toEqual({ date: '2026-01-01', period: '2026', value: 832_750 });
    expect(baseline.body.observations.find((row: { period: string }) => row.period === '2018').value).toBe(453_100);
    const early = await json('/series/loan-limits/conforming/baseline?to=1978');
    expect(early.body.observations[0]).toEqual({ date: '1972-01-01', period: '1972', value: 33_000 });
    expect(early.body.notes.join(' ')).toMatch(/no figure in the cited sources/);

    const denial = await json('/series/hmda/CO/denial_rate?from=2024&to=2024');
    const summary = await testApp.deps.services.hmdaAggregates.summary({ state: 'CO', year: 2024 });
    expect(denial.body.observations).toEqual([{ date: '2024-01-01', period: '2024', value: summary.denial_rate_percent }]);
  });

  it('refuses unknown ids, bad ranges, frequencies and formats with messages that say what to do', async () => {
    const unknown = await json('/series/pmms/40-year');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatch(
      /No series "pmms\/40-year"\. Find its id with the MCP tool find_series .* or the catalogue at http:\/\/localhost:3000\/api\/v1\/series\?query=/,
    );
    expect((await json('/series/loan-limits/conforming/99999')).status).toBe(404);

    const backwards = await json('/series/pmms/30-year?from=2024&to=2020');
    expect(backwards).toMatchObject({
      status: 400,
      body: { error: expect.stringMatching(/'from' \(2024-01-01\) is after 'to' \(2020-12-31\)/) },
    });
    expect((await json('/series/pmms/30-year?from=2022-02-30')).status).toBe(400);
    expect((await json('/series/pmms/30-year?to=yesterday')).body.error).toMatch(/Invalid value for 'to'/);
    expect((await json('/series/pmms/30-year?frequency=daily')).body.error).toMatch(
      /published weekly; it can be averaged to monthly, quarterly, annual/,
    );
    expect((await json('/series/hmda/US/records?frequency=monthly')).status).toBe(400);
    expect((await json('/series/pmms/30-year?format=xml')).body.error).toMatch(/Invalid value for 'format'.*json, csv/);
    expect((await json('/series/pmms/30-year?start=2020')).body.error).toMatch(
      /Unknown parameter 'start'. Known parameters: from, to, frequency, format/,
    );
    expect((await json('/series/pmms/30-year?from=2020&from=2021')).body.error).toMatch(/given more than once/);
    const empty = await json('/series/pmms/5-1-arm?from=2024');
    expect(empty).toMatchObject({ status: 404, body: { error: expect.stringMatching(/runs from 2005-01-06 to 2022-10-20/) } });
    expect((await json('/series?family=nope')).status).toBe(400);
  });

  it('documents the id as a path parameter, with JSON and CSV answers and every error', async () => {
    const { body } = await json('/openapi.json');
    const operation = body.paths['/series/{id}'].get;
    expect(operation.parameters[0]).toMatchObject({
      name: 'id',
      in: 'path',
      required: true,
      description: expect.stringMatching(/nmdb\/<state>\/<measure>/),
    });
    expect(operation.parameters.slice(1).map((parameter: { name: string }) => parameter.name)).toEqual([
      'from',
      'to',
      'frequency',
      'format',
    ]);
    expect(Object.keys(operation.responses['200'].content)).toEqual(['application/json', 'text/csv']);
    expect(Object.keys(operation.responses).sort()).toEqual(['200', '400', '401', '404', '405', '429', '431', '500', '503']);
    expect(body.paths['/series'].get.operationId).toBe('listSeries');
  });

  it('offers each series as an MCP resource, within a size budget, with id completion', async () => {
    const client = await connectMcp(server.url);
    try {
      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates.map((template) => template.uriTemplate)).toContain('mds://series/{+id}');

      const range = await client.readResource({ uri: 'mds://series/pmms/30-year?from=2016-10-08&to=2026-10-08' });
      const rest = (await (await api('/series/pmms/30-year?from=2016-10-08&to=2026-10-08')).json()) as SeriesAnswer;
      const [body, summary] = range.contents as { mimeType: string; text: string }[];
      expect(JSON.parse(body!.text)).toEqual(rest);
      expect(summary!.text).toMatch(
        /^Freddie Mac PMMS: 30-year fixed rate: \d+ weekly observations from 2016-10-13 to 2026-10-08, percent\. Source: .*as of 2026-10-08\.$/,
      );

      // 55 years of weekly surveys exceed one resource: monthly means, said so, with the full download.
      const whole = await client.readResource({ uri: 'mds://series/pmms/30-year' });
      const [wholeBody, wholeSummary] = whole.contents as { text: string }[];
      expect(wholeBody!.text.length).toBeLessThanOrEqual(SERIES_RESOURCE_BUDGET);
      expect(JSON.parse(wholeBody!.text)).toMatchObject({ frequency: 'monthly', native_frequency: 'weekly' });
      expect(wholeSummary!.text).toMatch(
        /2898 weekly observations are more than one resource holds, so these are monthly means .*format=csv/,
      );

      const completion = await client.complete({
        ref: { type: 'ref/resource', uri: 'mds://series/{+id}' },
        argument: { name: 'id', value: 'PMMS/' },
      });
      expect(completion.completion.values).toEqual(['pmms/30-year', 'pmms/15-year', 'pmms/5-1-arm']);
      await expect(client.readResource({ uri: 'mds://series/pmms/40-year' })).rejects.toThrow(/No series "pmms\/40-year"/);
    } finally {
      await client.close();
    }
  });

  it('answers a date range on get_mortgage_rates and a year range on get_loan_limits from the series', async () => {
    const client = await connectMcp(server.url);
    type Structured = {
      history?: {
        series: {
          id: string;
          frequency: string;
          aggregation: unknown;
          observations: { date: string; period?: string; value: number | null; count?: number }[];
        }[];
        notes: string[];
      };
    };
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = await client.callTool({ name, arguments: args });
      return { result, structured: result.structuredContent as Structured, text: (result.content as { text: string }[])[0]?.text ?? '' };
    };
    try {
      // Ten years of weekly surveys exceed 260 observations: monthly means, checked against the file.
      const ten = await call('get_mortgage_rates', { state: 'TX', from: '2016-10-08', to: '2026-10-08' });
      expect(ten.result.isError).toBeFalsy();
      const [survey, benchmark] = ten.structured.history!.series;
      expect(survey).toMatchObject({ id: 'pmms/30-year', frequency: 'monthly' });
      const expected = monthlyMeans(readPmmsFile(), '2016-10-08', '2026-10-08', 7);
      expect(survey!.observations.map((row) => [row.period, row.count])).toEqual(expected.map((row) => [row.period, row.count]));
      survey!.observations.forEach((row, index) =>
        expect(Math.abs(row.value! - expected[index]!.mean)).toBeLessThanOrEqual(HALF_OF_LAST_DIGIT),
      );
      expect(benchmark).toMatchObject({ id: 'optimal-blue/conforming-30-year', frequency: 'monthly' });
      expect(ten.text).toMatch(
        /History from 2016-10-08 to 2026-10-08:\nFreddie Mac PMMS: 30-year fixed rate \(pmms\/30-year\) \(monthly means below\): low \d/,
      );
      // The values themselves are in the text, and the low and high are the weeks as published, not a mean.
      expect(ten.text).toContain(`Values: ${expected[0]!.period} `);
      const fifteen = await call('get_mortgage_rates', { loan_term: 15, from: '1990' });
      expect(fifteen.text).toMatch(/\(pmms\/15-year\) \(annual means below\): low 2\.1% on 2021-07-29, 2021-08-05,/);

      // A short range comes as published; a series without observations in it is said, not guessed.
      const recent = await call('get_mortgage_rates', { product_type: 'FHA', from: '2026-09' });
      const weeks = readPmmsFile().filter((row) => row.date >= '2026-09-01');
      expect(recent.structured.history!.series.map((series) => series.id)).toEqual(['pmms/30-year']);
      expect(recent.structured.history!.series[0]!.observations.map((row) => ({ date: row.date, value: row.value }))).toEqual(weeks);
      expect(recent.structured.history!.notes.join(' ')).toMatch(/optimal-blue\/fha-30-year: .*runs from .* to 2025-09-25/);

      const backwards = await call('get_mortgage_rates', { from: '2024', to: '2020' });
      expect(backwards.result.isError).toBe(true);
      expect(backwards.text).toMatch(/'from' \(2024-01-01\) is after 'to' \(2020-12-31\)/);
      expect((await call('get_mortgage_rates', { since: '2020' })).text).toMatch(/Unknown argument 'since'/);

      const county = await call('get_loan_limits', { state: 'CA', county: 'Los Angeles', from_year: 2018 });
      expect(county.structured.history!.series.map((series) => series.id)).toEqual([
        'loan-limits/conforming/06037',
        'loan-limits/fha/06037',
      ]);
      expect(county.structured.history!.series[0]!.observations[0]).toEqual({ date: '2018-01-01', period: '2018', value: 679_650 });
      expect(county.structured.history!.series[0]!.observations.at(-1)).toEqual({ date: '2026-01-01', period: '2026', value: 1_249_125 });

      // A year not published yet is said, not folded into the range.
      const ahead = await call('get_loan_limits', {
        state: 'CA',
        county: 'Los Angeles',
        loan_type: 'conforming',
        from_year: 2026,
        to_year: 2027,
      });
      expect(ahead.text).toMatch(/loan-limits\/conforming\/06037: no figure after 2026 \(the range asked runs to 2027/);
      // A county's 2–4 unit limits have a history of their own.
      const three = await call('get_loan_limits', {
        state: 'CA',
        county: 'Los Angeles',
        loan_type: 'conforming',
        units: 3,
        from_year: 2024,
      });
      expect(three.structured.history!.series.map((series) => series.id)).toEqual(['loan-limits/conforming/06037/3-unit']);
      const national = await call('get_loan_limits', { state: 'CA', loan_type: 'conforming', from_year: 1972, to_year: 1980 });
      expect(national.structured.history!.series.map((series) => series.id)).toEqual(['loan-limits/conforming/baseline']);
      expect(national.structured.history!.series[0]!.observations[0]).toEqual({ date: '1972-01-01', period: '1972', value: 33_000 });
      expect(national.structured.history!.notes.join(' ')).toMatch(/ceiling.*runs from 2008.*No county was asked for/);
      expect((await call('get_loan_limits', { state: 'CA', from_year: 2026, to_year: 2018 })).text).toMatch(
        /'from_year' \(2026\) is after 'to_year' \(2018\)/,
      );
      // Without a range the answers are as before: no history.
      expect((await call('get_loan_limits', { state: 'CA', county: '06037' })).structured.history).toBeUndefined();
    } finally {
      await client.close();
    }
  });
});
