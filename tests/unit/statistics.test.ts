// Pure parts of the statistics and aggregates: payment arithmetic, the featured rotation, the JSON
// parser's error positions, the record-count check and the catalogue's coverage gate.
import { describe, expect, it } from 'vitest';
import { checkAgainstRecordCounts, DIMENSIONS, parseGeoAggregates, parseJson } from '../../api/hmda-aggregates/parse.ts';
import { decisionRates } from '../../api/hmda-aggregates/reads.ts';
import { featured } from '../../api/statistics/featured.ts';
import { checkCatalogue } from '../../api/statistics/precompute.ts';
import { CATEGORIES, asShown, monthlyPayment, percent, principalFor, type Statistic } from '../../api/statistics/types.ts';

const stat = (id: string, category: Statistic['category']): Statistic => ({
  id,
  category,
  value: '1.0%',
  label: 'l',
  headline: 'h',
  data_year: 2024,
  population: 'p',
  source_url: 'https://ffiec.cfpb.gov/',
  numeric_value: 1,
  as_of: '2024-12-31',
});

describe('payment arithmetic', () => {
  it('matches the standard amortisation table ($100,000 at 6% for 30 years is $599.55)', () => {
    expect(monthlyPayment(100_000, 6)).toBeCloseTo(599.55, 2);
    expect(monthlyPayment(120_000, 0)).toBeCloseTo(333.33, 2);
    expect(principalFor(monthlyPayment(250_000, 7.4), 7.4)).toBeCloseTo(250_000, 6);
  });

  it('rounds a computed rate exactly as it is shown, so the figure reproduces from the text', () => {
    for (const average of [5.344, 5.3449999, 6.595094339622643, 2.675, 7.005])
      expect(percent(asShown(average, 2), 2)).toBe(percent(average, 2));
    expect(asShown(5.344, 2)).toBe(5.34);
    expect(monthlyPayment(100_000, asShown(5.344, 2))).toBe(monthlyPayment(100_000, 5.34));
  });

  it('defines approval and denial rates over originated, approved-not-accepted and denied only', () => {
    const rates = decisionRates({ '1': 70, '2': 10, '3': 20, '4': 500, '6': 900, '8': 3 });
    expect(rates.approval).toBeCloseTo(80, 10);
    expect(rates.denial).toBeCloseTo(20, 10);
    expect(decisionRates({ '6': 10 })).toEqual({ approval: null, denial: null });
  });
});

describe('featured statistic', () => {
  const pool = ['a', 'b', 'c', 'd', 'e'].map((id) => stat(id, 'rates'));

  it('is the same for the same date and category, whatever the pool order', () => {
    expect(featured(pool, '2026-03-01', 'rates')).toEqual(featured([...pool].reverse(), '2026-03-01', 'rates'));
  });

  it('changes across dates', () => {
    const picks = new Set(
      Array.from({ length: 20 }, (_, day) => featured(pool, `2026-04-${String(day + 1).padStart(2, '0')}`, 'rates')?.id),
    );
    expect(picks.size).toBeGreaterThan(1);
    expect(featured([], '2026-04-01', 'rates')).toBeUndefined();
  });
});

describe('aggregate parsing', () => {
  it('names the file, line and position of a JSON syntax error', () => {
    expect(() => parseJson('{"CO": {"a": 1}\n,,}', 'by_state_2024.json')).toThrow(
      /^by_state_2024\.json:2: invalid JSON at position 17 \(column 2\)/,
    );
  });

  it('requires every dimension and whole non-negative counts', () => {
    expect(() => parseGeoAggregates('{"CO": {"actionTaken": {"1": 1}}}', 'f.json')).toThrow(/"CO"\.loanType: missing/);
    const full = Object.fromEntries(DIMENSIONS.map((d) => [d, { '1': 2 }]));
    expect(() => parseGeoAggregates(JSON.stringify({ CO: { ...full, sex: { Male: 1.5 } } }), 'f.json')).toThrow(
      /"CO"\.sex\["Male"\]: expected a non-negative whole count, found 1\.5/,
    );
    const parsed = parseGeoAggregates(JSON.stringify({ CO: full }), 'f.json');
    expect(() => checkAgainstRecordCounts(parsed, { CO: 3 }, 'f.json', 'c.json')).toThrow(
      /"CO"\.actionTaken sums to 2, the record count is 3/,
    );
    expect(checkAgainstRecordCounts(parsed, { CO: 2, '': 7 }, 'f.json', 'c.json').unbrokenKeys).toEqual({ '': 7 });
    expect(() => checkAgainstRecordCounts(parsed, { CO: 2, TX: 9 }, 'f.json', 'c.json')).toThrow(/"TX" \(9 records\) is missing/);
  });
});

describe('catalogue gate', () => {
  const full = CATEGORIES.flatMap((category) => Array.from({ length: 6 }, (_, index) => stat(`${category}_${index}`, category)));

  it('accepts a catalogue with 5+ per category and 40+ in all', () => {
    expect(() => checkCatalogue(full)).not.toThrow();
  });

  it('refuses thin categories, duplicate ids and uncomputed values', () => {
    expect(() => checkCatalogue(full.filter((entry) => entry.category !== 'lenders' || entry.id.endsWith('_0')))).toThrow(
      /lenders has 1 statistics/,
    );
    expect(() => checkCatalogue([...full, stat('rates_0', 'rates')])).toThrow(/duplicate id rates_0/);
    expect(() => checkCatalogue([...full, { ...stat('x', 'rates'), value: 'NaN%' }])).toThrow(/uncomputed/);
  });

  it('refuses a statistic without a year its source states, a year out of range, and a missing population', () => {
    // An undated figure (as read from an untyped row) does not belong in the catalogue.
    expect(() => checkCatalogue([...full, { ...stat('x', 'rates'), data_year: null as unknown as number }])).toThrow(/x: data_year null/);
    expect(() => checkCatalogue([...full, { ...stat('x', 'rates'), data_year: 1900 }])).toThrow(/x: data_year 1900/);
    expect(() => checkCatalogue([...full, { ...stat('x', 'rates'), data_year: 2024.5 }])).toThrow(/x: data_year 2024.5/);
    expect(() => checkCatalogue([...full, { ...stat('x', 'rates'), population: ' ' }])).toThrow(/x: no population/);
  });
});
