// Monthly means of the PMMS 30-year rate rounded in decimal: every month of the real weekly file
// against a computation in whole hundredths of a percent, where an exact half is unambiguous.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decimalMean } from '../../api/series/decimal-mean.ts';
import type { HeldSeries } from '../../api/series/types.ts';
import { normaliseRange, observationsIn } from '../../api/series/window.ts';
import { hasSourceData, sourceFile } from '../support/source-data.ts';

describe('decimal means', () => {
  it('rounds an exact half away from zero, where binary arithmetic rounds it down', () => {
    // (6.81 + 6.81 + 6.82 + 6.81) / 4 = 6.8125 exactly; in binary the sum is 27.249999…
    expect(Math.round(((6.81 + 6.81 + 6.82 + 6.81) / 4) * 1000) / 1000).toBe(6.812);
    expect(decimalMean([6.81, 6.81, 6.82, 6.81], 3)).toBe(6.813);
    expect(decimalMean([-0.0125, -0.0125], 3)).toBe(-0.013);
    expect(decimalMean([3.1, 3.2, 3.3], 3)).toBe(3.2);
    expect(decimalMean([], 3)).toBeNull();
  });
});

describe.skipIf(!hasSourceData)('monthly means of the PMMS 30-year file', () => {
  it('match a whole-hundredths computation for every month, exact halves rounded up', () => {
    const lines = fs.readFileSync(sourceFile('rates', 'MORTGAGE30US_weekly_1971_2026.csv'), 'utf8').trim().split(/\r?\n/).slice(1);
    const rows = lines.map((line) => line.split(',') as [string, string]).filter(([, value]) => value !== '' && value !== '.');
    // Independent: hundredths as integers from the text, mean × 1000 = sum × 10 / n, half up (rates are positive).
    const byMonth = new Map<string, number[]>();
    for (const [date, value] of rows) {
      const [whole = '0', fraction = ''] = value.split('.');
      const hundredths = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
      byMonth.set(date.slice(0, 7), [...(byMonth.get(date.slice(0, 7)) ?? []), hundredths]);
    }
    const expected = new Map<string, number>();
    let halves = 0;
    for (const [month, values] of byMonth) {
      const tenTimesSum = values.reduce((a, b) => a + b, 0) * 10;
      const thousandths = Math.floor(tenTimesSum / values.length) + (2 * (tenTimesSum % values.length) >= values.length ? 1 : 0);
      if (2 * (tenTimesSum % values.length) === values.length) halves += 1;
      expected.set(month, thousandths);
    }
    const series: HeldSeries = {
      id: 'pmms/30y',
      title: 'PMMS 30-year',
      family: 'pmms',
      publisher: 'Freddie Mac',
      frequency: 'weekly',
      units: 'percent',
      dates: rows.map(([date]) => date),
      values: rows.map(([, value]) => Number(value)),
      sourceUrl: 'https://www.freddiemac.com/pmms',
      sourceName: 'PMMS',
      asOf: rows.at(-1)?.[0] ?? null,
      notes: [],
    };
    const months = observationsIn(series, normaliseRange(undefined, undefined), 'monthly');
    expect(months).toHaveLength(expected.size);
    const wrong = months.filter((month) => Math.round((month.value ?? NaN) * 1000) !== expected.get(month.date.slice(0, 7)));
    expect(wrong.map((month) => month.date)).toEqual([]);
    expect(halves).toBeGreaterThan(100); // the case this guards is common, not a corner
  });
});
