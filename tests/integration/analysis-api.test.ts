// GET /api/v1/analysis/<operation> over data synced from the mirror, on both databases: each
// operation's result equals an independent computation from the official file (the eval's own
// reader of the publishers' files, scripts/eval/multi-facts.ts, or arithmetic written here), every
// body satisfies the operation's documented schema, ties are kept in ranks, and bad input gets the
// documented 4xx with a message saying how to fix it.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSWER_SCHEMAS, OPERATIONS, QUERY_SCHEMAS } from '../../api/analysis/contract.ts';
import { resolveMultiFact } from '../../scripts/eval/multi-facts.ts';
import { buildTestApp, listen, type TestApp } from '../support/app.ts';
import { databaseKinds, type TestDatabase } from '../support/databases.ts';
import { SOURCE_DIR, hasSourceData, sourceFile } from '../support/source-data.ts';
import { syncedTestDatabase } from '../support/synced.ts';
import { postAsk, readAskStream } from '../support/sse.ts';
import { amortisedPayment } from '../support/amortisation.ts';

const DATASETS = ['pmms', 'nmdb', 'loan_limits_conforming', 'loan_limits_fha', 'hmda_aggregates', 'population', 'economic_calendar'];

/** The official figure, computed from the publishers' files without the service. */
function official(compute: string, args: Record<string, string | number>): number {
  const fact = resolveMultiFact(compute, args, SOURCE_DIR);
  if (!fact || fact.kind !== 'number') throw new Error(`no number for ${compute}`);
  return fact.value;
}

function pmms15(): { date: string; value: number }[] {
  return pmmsFile('rates/MORTGAGE15US_weekly_1991_2025.csv');
}

function pmmsFile(file: string): { date: string; value: number }[] {
  return fs
    .readFileSync(sourceFile(file), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => {
      const [date, value] = line.split(',');
      return { date: date!, value: Number(value) };
    });
}

describe.skipIf(!hasSourceData).each(databaseKinds)('analysis API on %s', (kind) => {
  let database: TestDatabase;
  let testApp: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  const get = async (operation: (typeof OPERATIONS)[number], query: Record<string, string>) => {
    const response = await fetch(`${server.url}/api/v1/analysis/${operation}?${new URLSearchParams(query).toString()}`);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- checked against the schema below
    const body = (await response.json()) as any;
    if (response.status === 200) ANSWER_SCHEMAS[operation].parse(body);
    return { status: response.status, body };
  };

  beforeAll(async () => {
    database = await syncedTestDatabase(kind, DATASETS);
    testApp = await buildTestApp(database.db, {
      env: { RATE_LIMIT_ANON_PER_MINUTE: '0', RATE_LIMIT_PER_HOUR: '0' },
      clock: () => new Date('2026-11-27T12:00:00Z'),
    });
    server = await listen(testApp.app);
  }, 900_000);
  afterAll(async () => {
    await server?.close();
    await testApp?.close();
    await database?.drop();
  });

  it('value: a year of a weekly series is the mean of its observations; a week is its one observation', async () => {
    const year = await get('value', { series: 'pmms/30-year', at: '2023' });
    expect(year.status).toBe(200);
    expect(year.body.result.point.value).toBeCloseTo(official('mean', { series: 'MORTGAGE30US', from: '2023-01-01', to: '2023-12-31' }), 4);
    expect(year.body.result.point).toMatchObject({ how: 'mean', count: 52, period: '2023' });
    expect(year.body.inputs[0]).toMatchObject({
      id: 'pmms/30-year',
      source: { url: 'https://fred.stlouisfed.org/series/MORTGAGE30US', as_of: '2026-10-08' },
    });
    expect(year.body.method).toMatch(/mean/);
    const week = await get('value', { series: 'pmms/30-year', from: '2024-12-16', to: '2024-12-22' });
    expect(week.body.result.point.value).toBeCloseTo(official('weekOfFomc', { series: 'MORTGAGE30US', year: 2024, month: 12 }), 6);
  });

  it('change: points and percent between two years, as computed from the file', async () => {
    const { status, body } = await get('change', { series: 'pmms/30-year', from: '2021', to: '2023' });
    expect(status).toBe(200);
    const start = official('mean', { series: 'MORTGAGE30US', from: '2021-01-01', to: '2021-12-31' });
    const end = official('mean', { series: 'MORTGAGE30US', from: '2023-01-01', to: '2023-12-31' });
    expect(body.result.change).toBeCloseTo(end - start, 3);
    expect(body.result.percent_change).toBeCloseTo(((end - start) / start) * 100, 1);
    const limits = await get('change', { series: 'loan-limits/conforming/baseline', from: '2018', to: '2026' });
    expect(limits.body.result.change).toBe(official('baselineChange', { from: 2018, to: 2026, as: 'dollars' }));
  });

  it('compare: difference and ratio of the 30-year and 15-year rates on one day', async () => {
    const { body } = await get('compare', { series: 'pmms/30-year', other: 'pmms/15-year', at: '2025-09-25' });
    const thirty = official('valueOn', { series: 'MORTGAGE30US', date: '2025-09-25' });
    const fifteen = pmms15().find((row) => row.date === '2025-09-25')!.value;
    expect(body.result.first.value).toBe(thirty);
    expect(body.result.second.value).toBe(fifteen);
    expect(body.result.difference).toBeCloseTo(thirty - fifteen, 6);
    expect(body.result.ratio).toBeCloseTo(thirty / fifteen, 3);
  });

  it('share: FHA records of all records in Cook County, from the county aggregates file', async () => {
    const { body } = await get('share', { part: 'hmda/17031/fha_records', whole: 'hmda/17031/records', at: '2023' });
    expect(body.result.share_percent).toBeCloseTo(official('countyLoanTypeShare', { fips: '17031', year: 2023, loanType: 2 }), 1);
  });

  it('rank: the top three states by originations, and every California county tied at the FHA ceiling', async () => {
    const { body } = await get('rank', { series: 'hmda/*/originations', at: '2022', limit: '3' });
    expect(body.result.members.map((member: { place: string }) => member.place)).toEqual(['CA', 'FL', 'TX']);
    expect(body.result.members[0].value).toBe(official('topStateValue', { year: 2022, measure: 'originations', rank: 1 }));
    expect(body.result.ranked).toBe(51);
    const ties = await get('rank', { series: 'loan-limits/fha/*', among: 'counties', state: 'CA', at: '2025', limit: '1' });
    expect(ties.body.result.members).toHaveLength(official('topFhaCount', { state: 'CA', year: 2025 }));
    expect(new Set(ties.body.result.members.map((member: { rank: number }) => member.rank))).toEqual(new Set([1]));
    expect(ties.body.answer).toMatch(/tie for first/);
  });

  it('count: weeks above 7% in 2023, and Colorado counties above the 2026 baseline', async () => {
    const weeks = await get('count', { series: 'pmms/30-year', from: '2023', to: '2023', above: '7' });
    expect(weeks.body.result.count).toBe(
      official('countWeeks', { series: 'MORTGAGE30US', from: '2023-01-01', to: '2023-12-31', op: 'gt', threshold: 7 }),
    );
    expect(weeks.body.result.out_of).toBe(52);
    const counties = await get('count', {
      series: 'loan-limits/conforming/*',
      state: 'CO',
      at: '2026',
      above: 'loan-limits/conforming/baseline',
    });
    expect(counties.body.result.count).toBe(official('countCountiesAboveBaseline', { state: 'CO', year: 2026 }));
    expect(counties.body.result.out_of).toBe(64);
  });

  it('crossing and extremes: the last week below 6%, and the 2022 high with both of its dates', async () => {
    const crossing = await get('crossing', { series: 'pmms/30-year', below: '6' });
    expect(crossing.body.result.found).toMatchObject({
      date: '2026-02-26',
      value: official('lastWhereValue', { series: 'MORTGAGE30US', op: 'lt', threshold: 6 }),
    });
    expect(crossing.body.result.meets_now).toBe(false);
    const extremes = await get('extremes', { series: 'pmms/30-year', from: '2022', to: '2022' });
    expect(extremes.body.result.high).toBe(
      official('extremeValue', { series: 'MORTGAGE30US', from: '2022-01-01', to: '2022-12-31', which: 'max' }),
    );
    expect(extremes.body.result.high_dates).toEqual(['2022-10-27', '2022-11-10']);
    // `at` is the period as a range: what MCP's analyze_data takes, REST takes too.
    const atYear = await get('extremes', { series: 'pmms/30-year', at: '2022' });
    expect(atYear.body.result).toEqual(extremes.body.result);
  });

  it('streak: the longest run of weeks below a rate, as the survey file has it', async () => {
    const weeks = pmmsFile('rates/MORTGAGE30US_weekly_1971_2026.csv').filter((row) => row.date >= '2020-01-01' && row.date <= '2021-12-31');
    let best = 0;
    let run = 0;
    for (const row of weeks) best = Math.max(best, (run = row.value < 3 ? run + 1 : 0));
    const streak = await get('streak', { series: 'pmms/30-year', from: '2020', to: '2021', below: '3' });
    expect(streak.status, JSON.stringify(streak.body)).toBe(200);
    expect(streak.body.result).toMatchObject({ condition: 'below 3', length: best });
    expect(best).toBeGreaterThan(1);
  });

  it('per-resident: Florida originations per 1,000 residents, from the HMDA and population files', async () => {
    const { body } = await get('per-resident', { series: 'hmda/FL/originations', at: '2024' });
    expect(body.result.value).toBeCloseTo(official('perThousand', { place: 'FL', year: 2024, measure: 'originations' }), 2);
    expect(body.inputs.map((input: { id: string }) => input.id)).toEqual(['hmda/FL/originations', 'population/FL']);
    const older = await get('per-resident', { series: 'hmda/FL/originations', at: '2021' });
    expect(older.body.notes.join(' ')).toMatch(/No population of 2021 is held/);
  });

  it('payment: the monthly principal and interest at a given rate and at the latest survey rate', async () => {
    const given = await get('payment', { amount: '550000', rate: '6.5', term_years: '30' });
    expect(given.body.result.monthly_payment).toBeCloseTo(official('payment', { amount: 550000, rate: 6.5, years: 30 }), 2);
    const latest = await get('payment', { amount: '400000', series: 'pmms/30-year' });
    expect(latest.body.result.monthly_payment).toBeCloseTo(
      official('paymentAtLatest', { series: 'MORTGAGE30US', amount: 400000, years: 30 }),
      2,
    );
    expect(latest.body.result.rate).toMatchObject({ date: '2026-10-08', how: 'observation' });
  });

  it('payment: from the rate itself (a mean unrounded), only from interest-rate series, never a negative interest', async () => {
    const weeks2024 = pmmsFile('rates/MORTGAGE30US_weekly_1971_2026.csv').filter((week) => week.date.startsWith('2024-'));
    const mean = weeks2024.reduce((sum, week) => sum + week.value, 0) / weeks2024.length;
    // At $100 million a rate rounded to 4 decimals moves the payment by dollars, not a fraction of a cent.
    const yearly = await get('payment', { amount: '100000000', series: 'pmms/30-year', at: '2024' });
    expect(yearly.status).toBe(200);
    expect(yearly.body.result.rate).toMatchObject({ how: 'mean', count: weeks2024.length });
    expect(yearly.body.result.monthly_payment).toBeCloseTo(amortisedPayment(100_000_000, mean, 30), 2);
    const nmdb = await get('payment', { amount: '400000', series: 'nmdb/CA/ave_intrate' });
    expect(nmdb.status).toBe(200);
    for (const series of ['hmda/CA/denial_rate', 'nmdb/CA/pct_intrate_lt_3']) {
      const refused = await get('payment', { amount: '400000', series, at: '2024' });
      expect(refused.status, series).toBe(400);
      expect(refused.body.error).toMatch(/is not an interest rate: give an interest-rate series: Freddie Mac PMMS .*Optimal Blue.*NMDB/);
    }
    const tiny = await get('payment', { amount: '400000', rate: '0.0000001', term_years: '50' });
    expect(tiny.body.result.total_interest).toBeGreaterThanOrEqual(0);
  });

  it('answers bad input with a 4xx that says how to fix it', async () => {
    const badMoment = await get('value', { series: 'pmms/30-year', at: 'last spring' });
    expect(badMoment.status).toBe(400);
    expect(badMoment.body.error).toMatch(/latest.*year.*quarter.*month.*day/);
    const noThreshold = await get('count', { series: 'pmms/30-year', from: '2023' });
    expect(noThreshold).toMatchObject({ status: 400, body: { status: 400, error: expect.stringMatching(/above.*below/) } });
    const template = await get('rank', { series: 'hmda/TX/originations' });
    expect(template.status).toBe(400);
    expect(template.body.error).toMatch(/\*/);
    const unknown = await get('value', { series: 'pmms/40-year' });
    expect(unknown.status).toBe(404);
    const outside = await get('value', { series: 'hmda/TX/originations', at: '2017' });
    expect(outside.status).toBe(404);
    expect(outside.body.error).toMatch(/2018/);
    const extra = await get('value', { series: 'pmms/30-year', colour: 'blue' });
    expect(extra.status).toBe(400);
  });

  it('tells one story per figure: no change from a day after the data, no "now" of an old figure, one moment or one range', async () => {
    // A start after the last observation is no change to measure (it was 200 "unchanged").
    const future = await get('change', { series: 'pmms/30-year', from: '2030-01-01' });
    expect(future.status).toBe(404);
    expect(future.body.error).toMatch(/no figure from 2030-01-01 on: its latest observation is of 2026-10-08/);
    // The latest week below or above a line is dated, never "now" (the clock here is weeks past it).
    const above = await get('crossing', { series: 'pmms/30-year', above: '7' });
    expect(above.body.result.meets_now).toBe(true);
    expect(above.body.answer).not.toMatch(/\bnow\b/);
    expect(above.body.answer).toMatch(/at its latest observation, 7\.4% on 2026-10-08/);
    // `at` and a range together are refused, not one of them ignored.
    const both = await get('value', { series: 'hmda/US/originations', at: '2021', from: '2020' });
    expect(both.status).toBe(400);
    expect(both.body.error).toMatch(/either 'at'.*or 'from'\/'to'/);
    // Counts keep their thousands separators in words.
    const loans = await get('change', { series: 'hmda/TX/originations', from: '2022', to: '2023' });
    expect(loans.body.answer).toMatch(/(up|down) \d{1,3}(,\d{3})+ loans/);
    // A yearly series names its years as periods, its dates as dates.
    const yearly = await get('extremes', { series: 'hmda/US/originations' });
    expect(yearly.body.result.low_dates.every((date: string) => /^\d{4}-\d{2}-\d{2}$/.test(date))).toBe(true);
    expect(yearly.body.result.low_periods.every((period: string) => /^\d{4}$/.test(period))).toBe(true);
    // A state by its FIPS code, as the docs give it.
    const california = await get('value', { series: 'population/06', at: '2024' });
    expect(california.status).toBe(200);
    expect(california.body.inputs[0].id).toBe('population/CA');
  });

  // The substitutions /ask must never make in silence, through POST /ask and the built-in answerer.
  const ask = async (message: string) => readAskStream(await postAsk(server.url, { message }));

  it.runIf(kind === 'pglite')(
    'answers a county question for the county, never for its state',
    async () => {
      const maricopa = await ask('What was the mortgage denial rate in Maricopa County, Arizona in 2024?');
      expect(maricopa.answer).toContain('Maricopa County, AZ');
      expect(maricopa.answer).toContain(
        String(Math.round(official('countyMeasure', { fips: '04013', year: 2024, measure: 'denial_rate' }) * 100) / 100),
      );
      const cook = await ask('How many home loans were originated in Cook County, Illinois in 2023?');
      expect(cook.answer).toContain(
        official('countyMeasure', { fips: '17031', year: 2023, measure: 'originations' }).toLocaleString('en-US'),
      );
      expect(cook.sources.some((url) => url.includes('/api/v1/analysis/value'))).toBe(true);
    },
    120_000,
  );

  it.runIf(kind === 'pglite')(
    'answers a state existing-mortgage rate from FHFA, and says first that a county rate cannot be given',
    async () => {
      const texas = await ask('What is the average interest rate on existing mortgages in Texas?');
      expect(texas.answer).toMatch(/FHFA NMDB, Texas/);
      expect(texas.answer).not.toMatch(/\bCO\b|Colorado/);
      const county = await ask('What is the average 30-year mortgage rate in Maricopa County?');
      expect(county.answer.split(/[.!?]/)[0]).toMatch(/can't give a mortgage rate for Maricopa County, AZ/);
    },
    120_000,
  );

  it.runIf(kind === 'pglite')(
    'answers a month for that month, not the next event from today',
    async () => {
      const may = await ask('What economic data releases are scheduled in May 2026?');
      expect(may.answer).toMatch(/May 1, 2026 to May 31, 2026/);
      expect(may.answer).toContain('2026-05-12');
      expect(may.answer).not.toMatch(/2026-1[12]-/);
    },
    120_000,
  );

  it('documents every operation in OpenAPI with its errors', async () => {
    const document = (await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as {
      paths: Record<string, { get: { responses: Record<string, unknown>; parameters?: { name: string }[] } }>;
    };
    for (const operation of OPERATIONS) {
      // The parameters documented are the ones the operation takes: the contract's query, one declaration.
      const parameters = document.paths[`/analysis/${operation}`]?.get.parameters ?? [];
      expect(parameters.map((parameter) => parameter.name).sort(), operation).toEqual(Object.keys(QUERY_SCHEMAS[operation].shape).sort());
      const responses = document.paths[`/analysis/${operation}`]?.get.responses ?? {};
      expect(Object.keys(responses)).toEqual(expect.arrayContaining(['200', '400', '404', '503']));
    }
  });
});
