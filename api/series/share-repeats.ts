// One load of a family, with what its series repeat held once. The families build each series on
// its own: a county's loan limits get their own "2024-01-01" strings, every state's NMDB series its
// own copy of the same quarter ends, every series its own notes. Held for as long as the load is
// current, those copies were about a quarter of the families' memory (6.4 of 30 MiB on the mirror's
// data, measured with each family loaded alone): equal arrays of dates, periods and notes become one
// frozen array, and equal strings in them one string (../platform/held-once.ts).
import { heldOnce } from '../platform/held-once.ts';
import type { HeldSeries } from './types.ts';

type SharedFields = 'dates' | 'periods' | 'notes';

export function shareRepeats<Series extends HeldSeries>(held: Series[]): Series[] {
  const once = heldOnce();
  for (const series of held) {
    // A series whose fields are read through getters (the HMDA family's) already shares them.
    for (const field of ['dates', 'periods', 'notes'] satisfies SharedFields[]) {
      const values = series[field];
      if (values !== undefined && Object.hasOwn(series, field))
        (series as Record<SharedFields, unknown>)[field] = once.array(values, once.string);
    }
  }
  return held;
}
