// analyze_data over MCP, through the official SDK client against data synced from the mirror: every
// operation's figures equal a computation from the publishers' files by the small reader below
// (not the service's code), the rankings people ask for come in one call (a state's counties, the
// states per 1,000 residents, with a population floor or a list of places), the text carries the
// values and the method, and every resource the answer names reads.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { resultText } from '../support/mcp-client.ts';
import { hasSourceData, sourceFile } from '../support/source-data.ts';
import { startSyncedMcp, type SyncedMcp } from '../support/synced-mcp.ts';

const DATASETS = ['pmms', 'hmda_aggregates', 'population'];

// ---- The independent reader: the publishers' files, read here. ----

type Counts = Record<string, Record<string, number>>;
const aggregates = (level: 'state' | 'county', year: number): Record<string, Counts> =>
  JSON.parse(fs.readFileSync(sourceFile('hmda', 'aggregates', `by_${level}_${year}.json`), 'utf8')) as Record<string, Counts>;
const originations = (counts: Counts) => counts.actionTaken?.['1'] ?? 0;
const records = (counts: Counts) => Object.values(counts.actionTaken ?? {}).reduce((sum, count) => sum + count, 0);
const statePopulation = JSON.parse(fs.readFileSync(sourceFile('geo', 'hmda_state_population_2024.json'), 'utf8')) as Record<string, number>;
const stateFips = new Map(
  fs
    .readFileSync(sourceFile('geo', 'state_codes_DERIVED.csv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.split(',') as [string, string]),
);

function weekly(file: string): { date: string; value: number }[] {
  return fs
    .readFileSync(sourceFile('rates', file), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.split(','))
    .filter(([, value]) => value !== '.' && value !== '')
    .map(([date, value]) => ({ date: date!, value: Number(value) }));
}
const pmms30 = weekly('MORTGAGE30US_weekly_1971_2026.csv');
const pmms15 = weekly('MORTGAGE15US_weekly_1991_2025.csv');
const inYear = (rows: { date: string; value: number }[], year: string) => rows.filter((row) => row.date.startsWith(year));
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

/** The places ranked highest first, ties sharing a rank. */
function ranked(entries: [string, number][]): { place: string; value: number; rank: number }[] {
  const sorted = [...entries].sort((a, b) => b[1] - a[1]);
  return sorted.map(([place, value]) => ({ place, value, rank: sorted.findIndex((entry) => entry[1] === value) + 1 }));
}

// ---- The tests. ----

describe.skipIf(!hasSourceData)('analyze_data over MCP', () => {
  let synced: SyncedMcp;
  let client: Client;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the structured answer, checked field by field
  const analyze = async (args: Record<string, unknown>): Promise<{ text: string; result: any; isError: boolean }> => {
    const answer = await client.callTool({ name: 'analyze_data', arguments: args });
    const structured = answer.structuredContent as { result?: unknown } | undefined;
    return { text: resultText(answer), result: structured?.result, isError: answer.isError === true };
  };

  beforeAll(async () => {
    synced = await startSyncedMcp(DATASETS, { clock: () => new Date('2026-11-27T12:00:00Z') });
    ({ client } = synced);
  }, 900_000);
  afterAll(async () => {
    await synced?.close();
  });

  it("rank: a state's counties in one call, the first and the second with their figures in the text", async () => {
    const expected = ranked(
      Object.entries(aggregates('county', 2025))
        .filter(([fips]) => fips.startsWith('42'))
        .map(([fips, counts]) => [fips, originations(counts)]),
    ).slice(0, 2);
    const { text, result, isError } = await analyze({
      operation: 'rank',
      series: 'hmda/*/originations',
      state: 'Pennsylvania',
      at: 2025,
      limit: 2,
    });
    expect(isError, text).toBe(false);
    expect(result.members.map((member: { place: string; value: number }) => [member.place, member.value])).toEqual(
      expected.map((entry) => [entry.place, entry.value]),
    );
    for (const entry of expected) expect(text).toContain(entry.value.toLocaleString('en-US'));
    expect(text).toMatch(/Method: /);
  });

  it('rank: the states per 1,000 residents in one call, with a population floor and a list of places', async () => {
    const perThousand = (code: string, counts: Counts) =>
      Math.round((originations(counts) / statePopulation[stateFips.get(code)!]!) * 1000 * 100) / 100;
    const states = Object.entries(aggregates('state', 2025)).filter(([code]) => stateFips.has(code));
    const expected = ranked(states.map(([code, counts]) => [code, perThousand(code, counts)]));
    const { text, result } = await analyze({ operation: 'rank', series: 'hmda/*/originations', per: 1000, at: '2025', limit: 3 });
    expect(result.members[0]).toMatchObject({ place: expected[0]!.place, value: expected[0]!.value });
    expect(text).toContain(String(expected[0]!.value));

    const big = ranked(
      states.filter(([code]) => statePopulation[stateFips.get(code)!]! > 10_000_000).map(([code, counts]) => [code, originations(counts)]),
    );
    const floor = await analyze({ operation: 'rank', series: 'hmda/*/originations', at: 2025, min_population: 10_000_000, limit: 50 });
    expect(floor.result.members.map((member: { place: string }) => member.place)).toEqual(big.map((entry) => entry.place));

    const listed = await analyze({ operation: 'rank', series: 'hmda/*/originations', at: 2025, places: 'Texas, FL, ca' });
    expect(listed.result.members.map((member: { place: string }) => member.place).sort()).toEqual(['CA', 'FL', 'TX']);
  });

  it('count: the weeks above a rate in a year, and the places above a figure', async () => {
    const weeks = inYear(pmms30, '2023').filter((row) => row.value > 7).length;
    const overTime = await analyze({ operation: 'count', series: 'pmms/30-year', from: '2023', to: '2023', above: '7' });
    expect(overTime.result.count).toBe(weeks);
    expect(overTime.text).toContain(String(weeks));

    const over = Object.entries(aggregates('state', 2025)).filter(
      ([code, counts]) => stateFips.has(code) && originations(counts) > 200_000,
    );
    const places = await analyze({ operation: 'count', series: 'hmda/*/originations', at: 2025, above: '200000' });
    expect(places.result.count).toBe(over.length);
  });

  it('value, change and compare: the means of the weekly survey', async () => {
    const mean2023 = mean(inYear(pmms30, '2023').map((row) => row.value));
    const mean2024 = mean(inYear(pmms30, '2024').map((row) => row.value));
    const value = await analyze({ operation: 'value', series: 'pmms/30-year', at: '2023' });
    expect(value.result.point.value).toBeCloseTo(mean2023, 3);
    const change = await analyze({ operation: 'change', series: 'pmms/30-year', from: '2023', to: '2024' });
    expect(change.result.change).toBeCloseTo(mean2024 - mean2023, 2);
    const compare = await analyze({ operation: 'compare', series: 'pmms/30-year', other: 'pmms/15-year', at: '2023' });
    expect(compare.result.difference).toBeCloseTo(mean2023 - mean(inYear(pmms15, '2023').map((row) => row.value)), 2);
  });

  it('share and per-resident: HMDA counts of a state', async () => {
    const hawaii = aggregates('state', 2025).HI!;
    const share = await analyze({ operation: 'share', part: 'hmda/HI/va_records', whole: 'hmda/HI/records', at: 2025 });
    expect(share.result.share_percent).toBeCloseTo(((hawaii.loanType?.['3'] ?? 0) / records(hawaii)) * 100, 1);
    const florida = aggregates('state', 2025).FL!;
    const perResident = await analyze({ operation: 'per-resident', series: 'hmda/FL/originations', at: 2025 });
    expect(perResident.result.value).toBeCloseTo((originations(florida) / statePopulation[stateFips.get('FL')!]!) * 1000, 1);
  });

  it('extremes, crossing, moves and streak over the weekly survey: true lows with their dates', async () => {
    const low = Math.min(...pmms15.map((row) => row.value));
    const extremes = await analyze({ operation: 'extremes', series: 'pmms/15-year', from: '1991', to: '2025' });
    expect(extremes.result.low).toBe(low);
    expect(extremes.result.low_dates).toEqual(pmms15.filter((row) => row.value === low).map((row) => row.date));
    expect(extremes.text).toContain('2021-07-29');

    const lastBelow3 = pmms30.filter((row) => row.value < 3).at(-1)!;
    const crossing = await analyze({ operation: 'crossing', series: 'pmms/30-year', below: '3' });
    expect(crossing.result.found).toMatchObject({ date: lastBelow3.date, value: lastBelow3.value });

    const year = pmms30.filter((row) => row.date >= '2022-12-25' && row.date <= '2022-12-31').concat(inYear(pmms30, '2023'));
    const steps = year.slice(1).map((row, index) => Math.round((row.value - year[index]!.value) * 100) / 100);
    const moves = await analyze({ operation: 'moves', series: 'pmms/30-year', from: '2023', to: '2023', direction: 'up' });
    expect(moves.result.largest.change).toBeCloseTo(Math.max(...steps), 6);
  });

  it('rank: past the places the sentence names, the rest are said as they are, tied only when they are', async () => {
    // The states and DC: a ranking among states leaves out the territories.
    const territories = new Set(['PR', 'VI', 'GU', 'AS', 'MP']);
    const states = Object.entries(aggregates('state', 2025)).filter(([code]) => stateFips.has(code) && !territories.has(code));
    const expected = ranked(states.map(([code, counts]) => [code, originations(counts)]));
    const { text, result } = await analyze({ operation: 'rank', series: 'hmda/*/originations', at: 2025, limit: 60 });
    expect(result.members.map((member: { place: string }) => member.place)).toEqual(expected.map((entry) => entry.place));
    const rest = expected.slice(25);
    expect(rest[0]!.value).not.toBe(rest.at(-1)!.value);
    expect(text).not.toMatch(/more states tied/);
    const figure = (value: number) => value.toLocaleString('en-US');
    expect(text).toContain(`and ${rest.length} more states, from ${figure(rest[0]!.value)} loans to ${figure(rest.at(-1)!.value)} loans`);
  });

  it('takes every field the schema publishes for an operation, numbers as numbers', async () => {
    // streak below a threshold: the longest run of weeks the 30-year stayed below 3%.
    let best = { length: 0, start: '', end: '' };
    let start = -1;
    pmms30.forEach((row, index) => {
      if (row.value >= 3) return void (start = -1);
      if (start < 0) start = index;
      if (index - start + 1 > best.length) best = { length: index - start + 1, start: pmms30[start]!.date, end: row.date };
    });
    const streak = await analyze({ operation: 'streak', series: 'pmms/30-year', below: 3 });
    expect(streak.isError, streak.text).toBe(false);
    expect(streak.result).toMatchObject({
      length: best.length,
      start: { date: best.start },
      end: { date: best.end },
      condition: 'below 3',
    });
    expect(streak.text).toContain(String(best.length));

    const low2022 = Math.min(...inYear(pmms30, '2022').map((row) => row.value));
    const extremes = await analyze({ operation: 'extremes', series: 'pmms/30-year', at: 2022 });
    expect(extremes.isError, extremes.text).toBe(false);
    expect(extremes.result.low).toBe(low2022);

    const year = inYear(pmms30, '2023');
    const inside = year.slice(1).map((row, index) => Math.round((row.value - year[index]!.value) * 10000) / 10000);
    const moves = await analyze({ operation: 'moves', series: 'pmms/30-year', from: '2023', to: '2023', from_first: true, to_last: true });
    expect(moves.isError, moves.text).toBe(false);
    expect(moves.result.steps).toBe(year.length - 1);
    expect(moves.result.largest.change).toBeCloseTo(Math.max(...inside), 6);

    const weeks = inYear(pmms30, '2023').filter((row) => row.value > 7).length;
    const count = await analyze({ operation: 'count', series: 'pmms/30-year', at: 2023, above: 7 });
    expect(count.result.count).toBe(weeks);
    const equal = await analyze({ operation: 'count', series: 'pmms/30-year', equal: 7.79 });
    expect(equal.result.count).toBe(pmms30.filter((row) => row.value === 7.79).length);

    const lastAt7 = pmms30.filter((row) => row.value === 7).at(-1)!;
    const crossing = await analyze({ operation: 'crossing', series: 'pmms/30-year', equal: 7 });
    expect(crossing.isError, crossing.text).toBe(false);
    expect(crossing.result.found).toMatchObject({ date: lastAt7.date, value: 7 });

    const perResident = await analyze({ operation: 'per-resident', series: 'hmda/FL/originations', places: ['FL', 'TX'] });
    expect(perResident.isError).toBe(true);
    expect(perResident.text).toMatch(/'places' \(taken by rank, count\)/);
  });

  it('payment: principal and interest by the amortisation formula', async () => {
    const monthly = (400_000 * (0.065 / 12)) / (1 - (1 + 0.065 / 12) ** -360);
    const payment = await analyze({ operation: 'payment', amount: 400000, rate: 6.5 });
    expect(payment.result.monthly_payment).toBeCloseTo(monthly, 2);
    expect(payment.text).toContain(monthly.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }));
  });

  it('names the resources of its inputs, and each one reads', async () => {
    const { text } = await analyze({ operation: 'change', series: 'pmms/30-year', from: '2023', to: '2024' });
    const uris = [...text.matchAll(/mds:\/\/\S+/g)].map((match) => match[0].replace(/[.,;)]$/, ''));
    expect(uris.length).toBeGreaterThan(0);
    for (const uri of uris) expect((await client.readResource({ uri })).contents.length, uri).toBeGreaterThan(0);
  });

  it('refuses what it cannot compute with a message saying how to fix it', async () => {
    const wrong = await analyze({ operation: 'rank', series: 'hmda/originations' });
    expect(wrong.isError).toBe(true);
    expect(wrong.text).toMatch(/\*/);
  });
});
