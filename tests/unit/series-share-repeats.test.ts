// One family load with its repeats held once: equal dates, periods and notes arrays become one
// frozen array whatever series built them, equal strings one string, and what differs stays apart.
import { describe, expect, it } from 'vitest';
import type { HeldSeries } from '../../api/series/types.ts';
import { shareRepeats } from '../../api/series/share-repeats.ts';

// Each call builds its strings at run time, as a family reading rows does, so equal values start as different strings.
const yearDate = (year: number) => `${year}-01-01`;

function county(fips: string, years: number[], note = 'FHFA conforming loan limit, one unit.'): HeldSeries {
  return {
    id: `loan-limits/conforming/${fips}`,
    title: `Conforming limit, ${fips}`,
    family: 'loan-limits-conforming',
    publisher: 'FHFA',
    frequency: 'annual',
    units: 'dollars',
    dates: years.map(yearDate),
    periods: years.map(String),
    values: years.map(() => 806_500),
    sourceUrl: 'https://www.fhfa.gov',
    sourceName: 'FHFA',
    asOf: yearDate(years.at(-1)!),
    notes: [note.slice(0)],
  };
}

describe('shareRepeats', () => {
  it('holds equal arrays once, frozen, with the values every series had', () => {
    const [a, b, c] = shareRepeats([county('06037', [2024, 2025]), county('17031', [2024, 2025]), county('48201', [2025])]);
    expect(a!.dates).toBe(b!.dates);
    expect(a!.periods).toBe(b!.periods);
    expect(a!.notes).toBe(b!.notes);
    expect(a!.dates).toEqual(['2024-01-01', '2025-01-01']);
    expect(a!.periods).toEqual(['2024', '2025']);
    expect(c!.dates).toEqual(['2025-01-01']);
    expect(c!.dates).not.toBe(a!.dates);
    expect(Object.isFrozen(a!.dates)).toBe(true);
    expect(() => (a!.dates as string[]).push('2026-01-01')).toThrow(TypeError);
    // The values are each series' own: only the labels repeat.
    expect(a!.values).not.toBe(b!.values);
  });

  it('keeps different notes apart and leaves a series without periods without them', () => {
    const plain = county('06037', [2024], 'One note.');
    delete plain.periods;
    const [first, second] = shareRepeats([plain, county('17031', [2024], 'Another note.')]);
    expect(first!.notes).toEqual(['One note.']);
    expect(second!.notes).toEqual(['Another note.']);
    expect(first!).not.toHaveProperty('periods');
  });

  it('leaves a series read through getters as it is', () => {
    const shared = ['2024-01-01'];
    const viaGetter = Object.create(
      {
        get dates() {
          return shared;
        },
        get notes() {
          return [];
        },
      },
      { id: { value: 'hmda/06037/records', enumerable: true }, values: { value: [1], enumerable: true } },
    ) as HeldSeries;
    const [same] = shareRepeats([viaGetter, county('06037', [2024])]);
    expect(same).toBe(viaGetter);
    expect(same!.dates).toBe(shared);
  });
});
