// Validation gates for a year of county loan limits before it is published: enough counties, no
// duplicates, national figures equal to the history fact file, and known anchor values.
import { ValidationError } from '../sync/errors.ts';
import { historyFor } from './history.ts';
import type { LimitRow } from './fhfa-parser.ts';

export const MIN_COUNTIES = 3_200;

/** Where the statute sets limits 50% higher: excluded when finding the contiguous-US ceiling. */
export const SPECIAL_AREAS = new Set(['AK', 'HI', 'GU', 'VI']);

export type Limits4 = [number, number, number, number];

export interface NationalFigures {
  floor: Limits4;
  ceiling: Limits4;
}

/** Lowest limit anywhere (the baseline/floor) and highest outside the special areas (the ceiling). */
export function nationalFigures(rows: readonly LimitRow[]): NationalFigures {
  const floor: Limits4 = [Infinity, Infinity, Infinity, Infinity];
  const ceiling: Limits4 = [0, 0, 0, 0];
  for (const row of rows) {
    for (let unit = 0; unit < 4; unit += 1) {
      const value = row.limits[unit] as number;
      floor[unit] = Math.min(floor[unit] as number, value);
      if (!SPECIAL_AREAS.has(row.state)) ceiling[unit] = Math.max(ceiling[unit] as number, value);
    }
  }
  return { floor, ceiling };
}

export function checkCounties(rows: readonly LimitRow[], file: string): void {
  const seen = new Map<string, number>();
  for (const row of rows) {
    const earlier = seen.get(row.fips);
    if (earlier !== undefined) throw new ValidationError(`${file}:${row.line}: county ${row.fips} already appears on line ${earlier}.`);
    seen.set(row.fips, row.line);
  }
  if (rows.length < MIN_COUNTIES) {
    throw new ValidationError(`${file}: only ${rows.length} counties; at least ${MIN_COUNTIES} expected (truncated file?).`);
  }
}

const fmt = (value: number) => value.toLocaleString('en-US');

/** The computed national figures must equal the history file's one-unit values for that year. */
export function checkAgainstHistory(program: 'conforming' | 'fha', year: number, figures: NationalFigures, file: string): void {
  const expected = historyFor(program, year);
  if (!expected) return;
  const label = program === 'conforming' ? 'baseline' : 'floor';
  if (expected.floor !== null && figures.floor[0] !== expected.floor) {
    throw new ValidationError(
      `${file}: ${year} ${program} ${label} is ${fmt(figures.floor[0])}; the national history says ${fmt(expected.floor)}.`,
    );
  }
  if (expected.ceiling !== null && figures.ceiling[0] !== expected.ceiling) {
    throw new ValidationError(
      `${file}: ${year} ${program} ceiling is ${fmt(figures.ceiling[0])}; the national history says ${fmt(expected.ceiling)}.`,
    );
  }
}

export interface Anchor {
  year: number;
  what: string;
  expected: number;
  actual: (rows: readonly LimitRow[], figures: NationalFigures) => number | undefined;
}

export function checkAnchors(
  anchors: readonly Anchor[],
  year: number,
  rows: readonly LimitRow[],
  figures: NationalFigures,
  file: string,
): void {
  for (const anchor of anchors) {
    if (anchor.year !== year) continue;
    const actual = anchor.actual(rows, figures);
    if (actual !== anchor.expected) {
      throw new ValidationError(
        `${file}: ${anchor.what} for ${year} is ${actual === undefined ? 'missing' : fmt(actual)}; expected ${fmt(anchor.expected)}.`,
      );
    }
  }
}

const county = (fips: string) => (rows: readonly LimitRow[]) => rows.find((row) => row.fips === fips)?.limits[0];

export const CONFORMING_ANCHORS: Anchor[] = [
  { year: 2025, what: 'the one-unit baseline', expected: 806_500, actual: (_r, f) => f.floor[0] },
  { year: 2025, what: 'the one-unit ceiling', expected: 1_209_750, actual: (_r, f) => f.ceiling[0] },
  { year: 2026, what: 'the one-unit baseline', expected: 832_750, actual: (_r, f) => f.floor[0] },
  { year: 2026, what: 'the one-unit ceiling', expected: 1_249_125, actual: (_r, f) => f.ceiling[0] },
  { year: 2026, what: 'Los Angeles County (06037) one-unit limit', expected: 1_249_125, actual: county('06037') },
];

export const FHA_ANCHORS: Anchor[] = [
  { year: 2025, what: 'the FHA one-unit floor', expected: 524_225, actual: (_r, f) => f.floor[0] },
  { year: 2025, what: 'the FHA one-unit ceiling', expected: 1_209_750, actual: (_r, f) => f.ceiling[0] },
];
