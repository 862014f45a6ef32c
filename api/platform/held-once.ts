// Equal values held once, for data a service keeps in memory for as long as a load is current.
// What is read row by row repeats itself: the same dates, the same notes, the same limits in most
// counties. Each read gets its own copy unless it is looked up on the way in, and the copies stay
// for as long as the load does. Arrays are frozen: a caller that changed one would change every
// holder of it.

export interface HeldOnce {
  /** The first string equal to `value` that this holder was given. */
  string(value: string): string;
  /** The first array equal to `values` (element by element, after `each`) that this holder was given, frozen. */
  array<T>(values: readonly T[], each?: (value: T) => T): readonly T[];
}

/** A holder for one load: what it was given stays referenced for as long as it is. */
export function heldOnce(): HeldOnce {
  const strings = new Map<string, string>();
  const arrays = new Map<string, readonly unknown[]>();
  return {
    string(value) {
      const kept = strings.get(value);
      if (kept !== undefined) return kept;
      strings.set(value, value);
      return value;
    },
    array<T>(values: readonly T[], each?: (value: T) => T): readonly T[] {
      const own = each ? values.map(each) : values;
      const key = JSON.stringify(own);
      let kept = arrays.get(key) as readonly T[] | undefined;
      if (kept === undefined) {
        kept = Object.freeze([...own]);
        arrays.set(key, kept);
      }
      return kept;
    },
  };
}
