// Calendar days as the service writes them (YYYY-MM-DD, in UTC) and the arithmetic on them, in one
// place. A day is read as UTC midnight, so no local time zone can move it; day arithmetic on
// `Date.UTC` is a line each, so no date library is needed (dayjs is installed only through
// @18f/us-federal-holidays, and would need its UTC plugin for the same lines).

export const DAY_MS = 86_400_000;

/** The UTC day of `date`: YYYY-MM-DD. */
export const isoDay = (date: Date): string => date.toISOString().slice(0, 10);

const dayStart = (day: string): number => Date.parse(`${day}T00:00:00Z`);

/** The day `days` after `day` (before it when negative). */
export const addDays = (day: string, days: number): string => isoDay(new Date(dayStart(day) + days * DAY_MS));

/** Whole days from `from` to `to`, negative when `to` comes first. */
export const daysBetween = (from: string, to: string): number => Math.round((dayStart(to) - dayStart(from)) / DAY_MS);

/** The Monday of the Monday-to-Sunday week that holds `day`. */
export const mondayOf = (day: string): string => addDays(day, -((new Date(dayStart(day)).getUTCDay() + 6) % 7));

/** A date column as a database driver hands it over (a Date, or text) as YYYY-MM-DD. */
export const dayText = (value: unknown): string => (value instanceof Date ? isoDay(value) : String(value).slice(0, 10));

const longFormat = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

/** "2026-10-08" → "October 8, 2026": a day the way a reader says it. */
export const longDate = (day: string): string => longFormat.format(dayStart(day));
