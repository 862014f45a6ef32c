// The series window: range bounds (a year or month covers all of it), averages over whole periods
// that overlap the range with the count averaged, nulls left out of means, frequencies a series
// cannot be averaged to refused, and an empty range answered with the series' span.
import { describe, expect, it } from 'vitest';
import type { HeldSeries } from '../../api/series/types.ts';
import { normaliseBound, normaliseRange, observationsIn, periodOf, targetFrequency } from '../../api/series/window.ts';

function series(frequency: HeldSeries['frequency'], points: [string, number | null][], periods?: string[]): HeldSeries {
  return {
    id: 'test/series',
    title: 'Test',
    family: 'pmms',
    publisher: 'Test',
    frequency,
    units: 'percent',
    dates: points.map(([date]) => date),
    values: points.map(([, value]) => value),
    ...(periods ? { periods } : {}),
    sourceUrl: 'https://example.org',
    sourceName: 'Test',
    asOf: points.at(-1)?.[0] ?? null,
    notes: [],
  };
}

const weekly = series('weekly', [
  ['2022-02-24', 3.89],
  ['2022-03-03', 3.76],
  ['2022-03-10', 3.85],
  ['2022-03-17', 4.16],
  ['2022-03-24', 4.42],
  ['2022-03-31', 4.67],
  ['2022-04-07', 4.72],
]);

describe('series window', () => {
  it('reads a year, a month or a day as a range bound', () => {
    expect(normaliseBound('2022', 'from')).toBe('2022-01-01');
    expect(normaliseBound('2022', 'to')).toBe('2022-12-31');
    expect(normaliseBound('2024-02', 'to')).toBe('2024-02-29');
    expect(normaliseBound('2023-02', 'to')).toBe('2023-02-28');
    expect(normaliseBound('2022-03-17', 'to')).toBe('2022-03-17');
    expect(() => normaliseRange('2024', '2020')).toThrow(/'from' \(2024-01-01\) is after 'to' \(2020-12-31\)/);
  });

  it('names the month, quarter and year a date falls in', () => {
    expect(periodOf('2022-03-17', 'monthly')).toEqual({ key: '2022-03', start: '2022-03-01', end: '2022-03-31' });
    expect(periodOf('2022-11-02', 'quarterly')).toEqual({ key: '2022Q4', start: '2022-10-01', end: '2022-12-31' });
    expect(periodOf('2022-11-02', 'annual')).toEqual({ key: '2022', start: '2022-01-01', end: '2022-12-31' });
  });

  it('returns the observations of a range as published', () => {
    expect(observationsIn(weekly, normaliseRange('2022-03-10', '2022-03-24'), 'weekly')).toEqual([
      { date: '2022-03-10', value: 3.85 },
      { date: '2022-03-17', value: 4.16 },
      { date: '2022-03-24', value: 4.42 },
    ]);
    expect(observationsIn(weekly, normaliseRange('2022-03', '2022-03'), 'weekly')).toHaveLength(5);
  });

  it('averages whole months that overlap the range, with the count averaged', () => {
    const months = observationsIn(weekly, normaliseRange('2022-03-20', '2022-03-31'), 'monthly');
    // March is averaged whole (five Thursdays), although the range starts on the 20th.
    expect(months).toEqual([{ date: '2022-03-01', period: '2022-03', value: 4.172, count: 5 }]);
    // A range ending on April 1 overlaps April, which is averaged over its one observation.
    expect(observationsIn(weekly, normaliseRange('2022-03-20', '2022-04-01'), 'monthly').map((month) => month.period)).toEqual([
      '2022-03',
      '2022-04',
    ]);
    expect(observationsIn(weekly, normaliseRange(undefined, undefined), 'annual')).toEqual([
      { date: '2022-01-01', period: '2022', value: 4.21, count: 7 },
    ]);
  });

  it('leaves suppressed values out of a mean, and gives null where a period has none', () => {
    const quarterly = series(
      'quarterly',
      [
        ['2024-03-31', 4],
        ['2024-06-30', null],
        ['2024-09-30', 5],
        ['2025-03-31', null],
      ],
      ['2024Q1', '2024Q2', '2024Q3', '2025Q1'],
    );
    expect(observationsIn(quarterly, normaliseRange(undefined, undefined), 'annual')).toEqual([
      { date: '2024-01-01', period: '2024', value: 4.5, count: 2 },
      { date: '2025-01-01', period: '2025', value: null, count: 0 },
    ]);
    expect(observationsIn(quarterly, normaliseRange('2024-04', '2024-06'), 'quarterly')).toEqual([
      { date: '2024-06-30', period: '2024Q2', value: null },
    ]);
  });

  it('refuses a frequency finer than the series or one it cannot be averaged to', () => {
    expect(targetFrequency(weekly, 'native')).toBe('weekly');
    expect(targetFrequency(weekly, 'quarterly')).toBe('quarterly');
    expect(() => targetFrequency(weekly, 'daily')).toThrow(/published weekly; it can be averaged to monthly, quarterly, annual/);
    const annual = series('annual', [['2024-01-01', 1]], ['2024']);
    expect(() => targetFrequency(annual, 'monthly')).toThrow(/published annually and cannot be averaged/);
  });

  it('answers a range without observations with a 404 giving the span', () => {
    expect(() => observationsIn(weekly, normaliseRange('2030', undefined), 'weekly')).toThrow(
      /no observations from 2030-01-01 to its end: it runs from 2022-02-24 to 2022-04-07/,
    );
  });
});

describe('series query', () => {
  it('refuses a malformed date with a 400 message, whatever the text', async () => {
    const { SeriesQuerySchema } = await import('../../api/series/contract.ts');
    for (const from of ['1000000000', '2022-02-30', '2022-13', 'yesterday', '20220101', '2022-1-1']) {
      const result = SeriesQuerySchema.safeParse({ from });
      expect(result.success, from).toBe(false);
      expect(result.error?.issues[0]?.message, from).toMatch(
        /Invalid value for 'from'.*Give a year \(2018\), a month \(2022-03\) or a day/,
      );
    }
    expect(SeriesQuerySchema.parse({ from: '2024-02-29', to: 2025 })).toMatchObject({ from: '2024-02-29', to: '2025' });
  });
});
