// One load of a family, with what its series repeat held once. The families build each series on
// its own: a county's loan limits get their own "2024-01-01" strings, every state's NMDB series its
// own copy of the same quarter ends, every series its own notes. Held for as long as the load is
// current, those copies were about a quarter of the families' memory (6.4 of 30 MiB on the mirror's
// data, measured with each family loaded alone): equal arrays of dates, periods and notes become one
// array, and equal date and period strings one string. The arrays are frozen: a caller that changed
// one would change every series that shares it.
import type { HeldSeries } from './types.ts';

type SharedFields = 'dates' | 'periods' | 'notes';

export function shareRepeats<Series extends HeldSeries>(held: Series[]): Series[] {
  const strings = new Map<string, string>();
  const arrays = new Map<string, readonly string[]>();
  const oneString = (value: string): string => {
    const kept = strings.get(value);
    if (kept !== undefined) return kept;
    strings.set(value, value);
    return value;
  };
  const oneArray = (values: readonly string[]): readonly string[] => {
    // The unit separator does not occur in dates, periods or notes, so equal keys mean equal arrays.
    const key = values.join('\u001f');
    let kept = arrays.get(key);
    if (kept === undefined) {
      kept = Object.freeze(values.map(oneString));
      arrays.set(key, kept);
    }
    return kept;
  };
  for (const series of held) {
    // A series whose fields are read through getters (the HMDA family's) already shares them.
    for (const field of ['dates', 'periods', 'notes'] satisfies SharedFields[]) {
      const values = series[field];
      if (values !== undefined && Object.hasOwn(series, field)) (series as Record<SharedFields, unknown>)[field] = oneArray(values);
    }
  }
  return held;
}
