// Equal values held once: the first equal string or array given is the one handed back, arrays
// compared element by element and frozen, and unequal ones kept apart.
import { describe, expect, it } from 'vitest';
import { heldOnce } from '../../api/platform/held-once.ts';

// Built at run time, so equal values start as different strings and arrays.
const date = (year: number) => `${year}-01-01`;

describe('heldOnce', () => {
  it('hands back the first equal string and the first equal array, frozen', () => {
    const once = heldOnce();
    const first = once.array([date(2024), date(2025)], once.string);
    const second = once.array([date(2024), date(2025)], once.string);
    expect(second).toBe(first);
    expect(once.string(date(2024))).toBe(first[0]);
    expect(Object.isFrozen(first)).toBe(true);
    expect(() => (first as string[]).push(date(2026))).toThrow(TypeError);
  });

  it('keeps arrays apart that differ in a value, its kind or its place', () => {
    const once = heldOnce();
    const arrays = [
      [1, 2],
      [2, 1],
      ['1', 2],
      [null, 2],
      [1, 2, 3],
    ].map((values) => once.array<unknown>(values));
    expect(new Set(arrays).size).toBe(5);
    expect(arrays[3]).toEqual([null, 2]);
  });

  it('holds nested arrays once when asked to for each element', () => {
    const once = heldOnce();
    const a = once.array<readonly number[]>([[806_500, 1_032_650]], (units) => once.array(units));
    const b = once.array<readonly number[]>(
      [
        [766_550, 981_500],
        [806_500, 1_032_650],
      ],
      (units) => once.array(units),
    );
    expect(b[1]).toBe(a[0]);
    expect(b).not.toBe(a);
  });
});
