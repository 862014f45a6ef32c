// /ask's answers to "since when / how much" questions, from the series service: each figure is
// checked against the publishers' files read here (Freddie Mac's weekly survey, FHFA's county files
// and national summary, the NMDB pivot), and each answer cites the series' source and the series.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, listen, type TestApp } from '../support/app.ts';
import type { TestDatabase } from '../support/databases.ts';
import { hasSourceData, sourceFile } from '../support/source-data.ts';
import { syncedTestDatabase } from '../support/synced.ts';
import { postAsk, readAskStream } from '../support/sse.ts';

const DATASETS = ['pmms', 'optimal_blue', 'nmdb', 'loan_limits_conforming', 'loan_limits_fha', 'hmda_aggregates'];

function pmmsWeeks(): { date: string; value: number }[] {
  return fs
    .readFileSync(sourceFile('rates/pmms_2026/MORTGAGE30US_weekly_1971_to_2026-10-08_CRLF.csv'), 'utf8')
    .split('\r\n')
    .slice(1)
    .filter((line) => line !== '')
    .map((line) => ({ date: line.slice(0, 10), value: Number(line.slice(11)) }));
}

/** Los Angeles County's one-unit limit in FHFA's 2018 pipe-delimited file and the 2026 CSV conversion. */
function losAngeles(): { y2018: number; y2026: number } {
  const pipe = fs.readFileSync(sourceFile('loan_limits/fhfa_conforming/FullCountyLoanLimitList2018.txt'), 'utf8').split(/\r?\n/);
  const header = pipe[0]!.replace(/^\uFEFF/, '').split('|');
  const row = pipe
    .map((line) => line.split('|'))
    .find((cells) => cells[header.indexOf('FIPS State Code')] === '06' && cells[header.indexOf('FIPS County Code')] === '037')!;
  const csv = fs
    .readFileSync(sourceFile('loan_limits/fhfa_conforming/FullCountyLoanLimitList2026_converted_from_xlsx.csv'), 'utf8')
    .split(/\r?\n/);
  const csvHeader = csv[0]!.split(',');
  const csvRow = csv.map((line) => line.split(',')).find((cells) => cells[0] === '06' && cells[1] === '037')!;
  return { y2018: Number(row[header.indexOf('One-Unit Limit')]), y2026: Number(csvRow[csvHeader.indexOf('One-Unit Limit')]) };
}

const money = (value: number) => `$${value.toLocaleString('en-US')}`;

describe.skipIf(!hasSourceData)('/ask answers questions about series over time', () => {
  let database: TestDatabase;
  let testApp: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  const ask = async (message: string) => {
    const response = await postAsk(server.url, { message });
    expect(response.status).toBe(200);
    return readAskStream(response);
  };

  beforeAll(async () => {
    database = await syncedTestDatabase('postgres', DATASETS);
    testApp = await buildTestApp(database.db, { clock: () => new Date('2026-11-22T12:00:00Z') });
    server = await listen(testApp.app);
  }, 600_000);
  afterAll(async () => {
    await server?.close();
    await testApp?.close();
    await database?.drop();
  });

  it('gives the 30-year rate of a past month as the mean of its weekly surveys, each listed', async () => {
    const march = pmmsWeeks().filter((week) => week.date.startsWith('2022-03'));
    const mean = march.reduce((sum, week) => sum + week.value, 0) / march.length;
    const { answer, sources } = await ask('What was the 30-year rate in March 2022?');
    expect(answer).toContain(`averaged **${mean.toFixed(2)}%** in March 2022: the mean of its ${march.length} weekly observations`);
    for (const week of march) expect(answer).toContain(`${week.value.toFixed(2)}%`);
    expect(sources).toEqual(
      expect.arrayContaining([
        'https://fred.stlouisfed.org/series/MORTGAGE30US',
        'http://localhost:3000/api/v1/series/pmms/30-year?from=2022-03-01&to=2022-03-31',
        'http://localhost:3000/api/v1/series/pmms/30-year?from=2022-03-01&to=2022-03-31&frequency=monthly',
      ]),
    );
  });

  it('says how rates moved since a year: first and latest survey, the change, the low and the high', async () => {
    const weeks = pmmsWeeks().filter((week) => week.date >= '2020-01-01');
    const first = weeks[0]!;
    const last = weeks.at(-1)!;
    const low = weeks.reduce((best, week) => (week.value < best.value ? week : best));
    const high = weeks.reduce((best, week) => (week.value > best.value ? week : best));
    const { answer, sources } = await ask('How have mortgage rates moved since 2020?');
    expect(answer).toContain(
      `was **${first.value.toFixed(2)}%** on January 2, 2020 and **${last.value.toFixed(2)}%** on October 8, 2026: up **${(last.value - first.value).toFixed(2)} percentage points**`,
    );
    expect(answer).toContain(`ranged from ${low.value.toFixed(2)}% (`);
    expect(answer).toContain(`to ${high.value.toFixed(2)}% (`);
    expect(answer).toMatch(/as of October 8, 2026/);
    expect(sources).toContain('http://localhost:3000/api/v1/series/pmms/30-year?from=2020-01-01');
  });

  it("says how much a county's and the national conforming limit changed since 2018", async () => {
    const county = losAngeles();
    const { answer: countyAnswer } = await ask(
      'How much did the conforming loan limit in Los Angeles County, California change since 2018?',
    );
    const change = county.y2026 - county.y2018;
    expect(countyAnswer).toContain(
      `in Los Angeles County, CA was **${money(county.y2018)}** in 2018 and **${money(county.y2026)}** in 2026: up **${money(change)}** (+${((change / county.y2018) * 100).toFixed(1)}%)`,
    );
    expect(countyAnswer).toMatch(/Year by year: 2018 \$679,650; 2019 /);

    const summary = fs.readFileSync(sourceFile('loan_limits/national_limits_summary_2018_2026_DERIVED.csv'), 'utf8').split(/\r?\n/);
    const header = summary[0]!.split(',');
    const baseline = (year: number) =>
      Number(
        summary.find((line) => line.startsWith(`${year},`))!.split(',')[
          header.findIndex((name) => /baseline/i.test(name) && /1/.test(name))
        ],
      );
    const { answer, sources } = await ask('How much did the conforming limit change since 2018?');
    expect(answer).toContain(
      `The baseline conforming loan limit (one unit) was **${money(baseline(2018))}** in 2018 and **${money(baseline(2026))}** in 2026`,
    );
    expect(sources).toContain('http://localhost:3000/api/v1/series/loan-limits/conforming/baseline?from=2018-01-01');
  });

  it('follows the rate borrowers in a state pay on outstanding mortgages, from FHFA', async () => {
    const pivot = fs.readFileSync(sourceFile('rates/state_nmdb/nmdb_states_quarterly_interest_rate_DERIVED.csv'), 'utf8').split(/\r?\n/);
    const value = (period: string) =>
      Number(
        pivot.find((line) => line.startsWith('CA,') && line.includes(',All Mortgages,') && line.includes(`,${period},`))!.split(',')[4],
      );
    const { answer, sources } = await ask('How has the rate on outstanding mortgages in California changed since 2020?');
    expect(answer).toContain(`was **${value('2020Q1').toFixed(2)}%** in Q1 2020 and **${value('2025Q3').toFixed(2)}%** in Q3 2025`);
    expect(sources).toContain('https://www.fhfa.gov/document/d/nmdb/nmdb-outstanding-mortgage-statistics-states-quarterly.zip');
  });

  it('follows an HMDA rate over the years, equal to the aggregates service', async () => {
    const first = await testApp.deps.services.hmdaAggregates.summary({ state: 'TX', year: 2018 });
    const { answer } = await ask('How has the mortgage denial rate in Texas changed since 2018?');
    expect(answer).toContain(`The mortgage denial rate in Texas was **${first.denial_rate_percent?.toFixed(2)}%** in 2018`);
  });

  it('says what is missing when a span holds no data, without operator commands', async () => {
    const { answer } = await ask('How have 5/1 ARM rates moved since 2024?');
    expect(answer).toMatch(/runs from 2005-01-06 to 2022-10-20/);
    expect(answer).not.toMatch(/npm run|sync/);
  });
});
