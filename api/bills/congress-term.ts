// Which Congress sits on a given day, and when a Congress ends: since the 20th Amendment each
// Congress runs two years from January 3 of an odd year (the 119th: 2025-01-03 to 2027-01-03).
import { isoDay } from '../platform/dates.ts';

const FIRST_CONGRESS_YEAR = 1789;

/** The day the Congress ends (YYYY-MM-DD): January 3 two years after it began. */
export function congressEndDate(congress: number): string {
  return `${FIRST_CONGRESS_YEAR + 2 * congress}-01-03`;
}

/** The day the Congress began (YYYY-MM-DD). */
export function congressStartDate(congress: number): string {
  return `${FIRST_CONGRESS_YEAR + 2 * (congress - 1)}-01-03`;
}

/** The Congress in session on the day (UTC calendar date of `now`). */
export function congressOn(now: Date): number {
  const day = isoDay(now);
  let year = now.getUTCFullYear();
  if (day < `${year}-01-03`) year -= 1;
  return Math.floor((year - FIRST_CONGRESS_YEAR) / 2) + 1;
}

/** True once the Congress's term is over: its bills can no longer move. */
export function congressHasEnded(congress: number, now: Date): boolean {
  return isoDay(now) >= congressEndDate(congress);
}
