// The catalogue of measures over data synced from the mirror: 33 natural descriptions find the
// intended series first (places read by the one gazetteer, measures by their words), and the HMDA
// measures the catalogue adds (every code's count and share) equal a computation from the official
// aggregate files written here, every id form answers, and the MCP tool says it in its text.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { TestApp } from '../support/app.ts';
import { resultText } from '../support/mcp-client.ts';
import { hasSourceData, sourceFile } from '../support/source-data.ts';
import { startSyncedMcp, type SyncedMcp } from '../support/synced-mcp.ts';

const DATASETS = ['pmms', 'optimal_blue', 'nmdb', 'loan_limits_conforming', 'loan_limits_fha', 'hmda_aggregates', 'population'];

/** What a person or an agent writes, and the series it means. */
const DESCRIPTIONS: [string, string][] = [
  ['VA share Hawaii', 'hmda/HI/va_share'],
  ['denial rate Harris County', 'hmda/48201/denial_rate'],
  ['outstanding mortgages above 6% Arizona', 'nmdb/AZ/pct_intrate_ge_6'],
  ['30-year fixed mortgage rate', 'pmms/30-year'],
  ['15 year freddie mac', 'pmms/15-year'],
  ['5/1 ARM', 'pmms/5-1-arm'],
  ['Optimal Blue jumbo 30-year', 'optimal-blue/jumbo-30-year'],
  ['FHA rate index', 'optimal-blue/fha-30-year'],
  ['conforming loan limit Los Angeles County', 'loan-limits/conforming/06037'],
  ['FHA limit for a duplex in Multnomah County, Oregon', 'loan-limits/fha/41051/2-unit'],
  ['four-unit conforming limit Kings County New York', 'loan-limits/conforming/36047/4-unit'],
  ['national conforming baseline', 'loan-limits/conforming/baseline'],
  ['FHA floor', 'loan-limits/fha/floor'],
  ['high-cost ceiling conforming', 'loan-limits/conforming/ceiling'],
  ['population of Collin County Texas', 'population/48085'],
  ['mortgages originated in Cook County Illinois', 'hmda/17031/originations'],
  ['female applicants in Baltimore', 'hmda/24510/female_records'],
  ['share of Iowa records that were USDA loans', 'hmda/IA/usda_share'],
  ['home improvement loan records Pennsylvania', 'hmda/PA/home_improvement_records'],
  ['manufactured home share West Virginia', 'hmda/WV/manufactured_share'],
  ['subordinate lien share Florida', 'hmda/FL/subordinate_lien_share'],
  ['Asian applicants Washington State', 'hmda/WA/asian_records'],
  ['applicants under 25 Utah', 'hmda/UT/age_under_25_records'],
  ['withdrawn applications Georgia', 'hmda/GA/withdrawn_records'],
  ['purchased loans nationwide', 'hmda/US/purchased_loans_records'],
  ['cash-out refinance share nationally', 'hmda/US/cash_out_refinance_share'],
  ['average rate on outstanding mortgages in Ohio', 'nmdb/OH/ave_intrate'],
  ['outstanding government-backed mortgages average rate Georgia', 'nmdb/GA/government/ave_intrate'],
  ['share of outstanding loans below 3% in California dollar-weighted', 'nmdb/CA/pct_intrate_lt_3_dollar'],
  ['Hispanic borrowers Miami-Dade', 'hmda/12086/hispanic_records'],
  ['approval rate Texas', 'hmda/TX/approval_rate'],
  ['HMDA records Ohio', 'hmda/OH/records'],
  ['denials in California', 'hmda/CA/denials'],
];

type Counts = Record<string, Record<string, Record<string, number>>>;

/** The official HMDA Maps file of a level and year, read here (not through the service). */
function officialCounts(level: 'state' | 'county', year: number): Counts {
  return JSON.parse(fs.readFileSync(sourceFile('hmda', 'aggregates', `by_${level}_${year}.json`), 'utf8')) as Counts;
}
const sum = (codes: Record<string, number>) => Object.values(codes).reduce((total, count) => total + count, 0);
const round2 = (value: number) => Math.round(value * 100) / 100;

describe.skipIf(!hasSourceData)('the catalogue of measures with synced data', () => {
  let synced: SyncedMcp;
  let testApp: TestApp;
  let client: Client;

  beforeAll(async () => {
    synced = await startSyncedMcp(DATASETS);
    ({ testApp, client } = synced);
  }, 600_000);

  afterAll(async () => {
    await synced?.close();
  });

  it('finds the intended series first for each of 33 natural descriptions', async () => {
    const found: [string, string | undefined][] = [];
    for (const [description] of DESCRIPTIONS) {
      const answer = await testApp.deps.services.catalogue.search({ query: description, limit: 1 });
      found.push([description, answer.results[0]?.id]);
    }
    expect(found).toEqual(DESCRIPTIONS);
  }, 120_000); // the first search reads every county's HMDA counts

  it('answers each series with its coverage, as-of date and what the query held besides', async () => {
    const answer = await testApp.deps.services.catalogue.search({ query: 'Rocket Mortgage originations in Clark County Nevada 2023' });
    expect(answer.places).toEqual([{ kind: 'county', code: '32003', name: 'Clark County, NV' }]);
    expect(answer.unmatched).toEqual(['rocket']);
    expect(answer.times).toEqual(['2023']);
    expect(answer.results[0]).toMatchObject({
      id: 'hmda/32003/originations',
      kind: 'count',
      units: 'loans',
      frequency: 'annual',
      first_date: '2018-01-01',
      last_date: '2025-01-01',
      as_of: expect.stringMatching(/^\d{4}-\d\d-\d\d$/),
      available: true,
    });
    // A measure that exists per state, asked with no place, is its template, saying what it needs.
    const outstanding = await testApp.deps.services.catalogue.search({ query: 'average rate on outstanding mortgages' });
    expect(outstanding.results[0]).toMatchObject({
      id: 'nmdb/{state}/ave_intrate',
      message: expect.stringMatching(/nmdb\/CA\/ave_intrate/),
    });
  });

  it('computes every HMDA measure the catalogue adds as the official files give it, under every id form', async () => {
    const series = testApp.deps.services.series;
    const valueOf = async (id: string, year: number) =>
      (await series.answer(id, { from: String(year), to: String(year) })).observations[0]?.value;
    const hawaii = officialCounts('state', 2024).HI!;
    expect(await valueOf('hmda/HI/va_share', 2024)).toBe(round2(((hawaii.loanType!['3'] ?? 0) / sum(hawaii.actionTaken!)) * 100));
    expect(await valueOf('hmda/hi/va', 2024)).toBe(hawaii.loanType!['3']);
    expect(await valueOf('hmda/HI/va_percent', 2024)).toBe(await valueOf('hmda/HI/va_share', 2024));
    const baltimore = officialCounts('county', 2023)['24510']!;
    expect(await valueOf('hmda/24510/female_records', 2023)).toBe(baltimore.sex!.Female);
    expect(await valueOf('hmda/24510/age_under_25_share', 2023)).toBe(round2((baltimore.age!['<25']! / sum(baltimore.actionTaken!)) * 100));
    const georgia = officialCounts('state', 2022).GA!;
    expect(await valueOf('hmda/GA/withdrawn_records', 2022)).toBe(georgia.actionTaken!['4']);
    expect(await valueOf('hmda/GA/applications', 2022)).toBe(sum(georgia.actionTaken!) - georgia.actionTaken!['6']!);
    const nation = Object.values(officialCounts('state', 2025)).reduce((total, place) => total + (place.actionTaken!['6'] ?? 0), 0);
    expect(await valueOf('hmda/US/purchased_loans_records', 2025)).toBe(nation);
    expect((await series.answer('hmda/06037/population')).id).toBe('population/06037');
  });

  it('says the series in the text of find_series, with the resource that reads each', async () => {
    const result = await client.callTool({ name: 'find_series', arguments: { query: 'VA share Hawaii', limit: 2 } });
    const text = resultText(result);
    expect(text).toMatch(/^Places read: Hawaii \(HI\)\./);
    expect(text).toContain('1. hmda/HI/va_share: HMDA, Hawaii: VA loan records, share of all records (percent, annual, 2018–2025');
    expect(text).toContain('read: mds://series/hmda/HI/va_share');
    expect(text).toMatch(/More with offset: 2\./);
  });
});
