// The words of a market update, written from its numbers: title, one-line summary and paragraphs.
// Kept apart from the queries so the phrasing can be tested with plain values.
import type { SeriesMove } from './series-move.ts';
import { longDate } from '../platform/dates.ts';

/** "2026-10-08" → "October 8, 2026", as the updates and the pages date their figures. */
export const formatDate = longDate;

const pct = (value: number): string => `${value.toFixed(2)}%`;

/** "up 0.12 percentage point", "down 0.05 percentage point", "unchanged". */
export function describeChange(change: number | null): string {
  if (change === null) return 'with no earlier reading to compare';
  if (change === 0) return 'unchanged';
  const size = Math.abs(change).toFixed(2);
  return `${change > 0 ? 'up' : 'down'} ${size} percentage point${Math.abs(change) === 1 ? '' : 's'}`;
}

/** "+0.12", "−0.05", "0.00" for tables and titles. */
export function signedChange(change: number | null): string {
  if (change === null) return 'n/a';
  if (change === 0) return '0.00';
  return `${change > 0 ? '+' : '−'}${Math.abs(change).toFixed(2)}`;
}

interface Moves {
  survey30: SeriesMove;
  survey15: SeriesMove | null;
  benchmark30: SeriesMove | null;
}

export function describeUpdate(
  week: string,
  { survey30, survey15, benchmark30 }: Moves,
): { title: string; summary: string; paragraphs: string[] } {
  const direction = survey30.change === null || survey30.change === 0 ? 'holds at' : survey30.change > 0 ? 'rises to' : 'falls to';
  const title = `Week of ${formatDate(week)}: 30-year survey rate ${direction} ${pct(survey30.value)}`;

  const paragraphs: string[] = [];
  paragraphs.push(
    `Freddie Mac's Primary Mortgage Market Survey put the average 30-year fixed rate at ${pct(survey30.value)} for the week of ${formatDate(week)}, ` +
      `${describeChange(survey30.change)}${survey30.previous === null ? '' : ` from ${pct(survey30.previous)} the week before`}.`,
  );
  if (survey15) {
    paragraphs.push(
      `The 15-year fixed rate averaged ${pct(survey15.value)}, ${describeChange(survey15.change)}` +
        `${survey15.previous === null ? '' : ` from ${pct(survey15.previous)}`}; the gap between the two terms was ` +
        `${(survey30.value - survey15.value).toFixed(2)} percentage points.`,
    );
  } else {
    paragraphs.push('No 15-year survey figure for this week is in the data.');
  }
  if (benchmark30) {
    paragraphs.push(
      `The Optimal Blue 30-year conforming benchmark, built from locked rates, closed at ${pct(benchmark30.value)} on ${formatDate(benchmark30.date)}, ` +
        `${describeChange(benchmark30.change)}${benchmark30.previous === null || benchmark30.previousDate === null ? '' : ` from ${pct(benchmark30.previous)} on ${formatDate(benchmark30.previousDate)}`}. ` +
        `The survey average sat ${Math.abs(survey30.value - benchmark30.value).toFixed(2)} percentage points ${survey30.value >= benchmark30.value ? 'above' : 'below'} the benchmark.`,
    );
  } else {
    paragraphs.push('No Optimal Blue benchmark reading falls in this week in the data.');
  }

  const parts = [`30-year ${pct(survey30.value)} (${signedChange(survey30.change)})`];
  if (survey15) parts.push(`15-year ${pct(survey15.value)} (${signedChange(survey15.change)})`);
  if (benchmark30) parts.push(`Optimal Blue 30-year conforming ${pct(benchmark30.value)} (${signedChange(benchmark30.change)})`);
  const summary = `Survey and benchmark rates for the week of ${formatDate(week)}: ${parts.join('; ')}. Generated from the data.`;
  return { title, summary, paragraphs };
}
