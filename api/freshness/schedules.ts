// When each publisher releases a new figure of its series: the schedules freshness is judged by.
// A schedule lists, for a span of days, the releases that would each carry a figure newer than one
// already held: the figure's own date (what a record shows) and the day it is published (what a
// reader can expect). Days are UTC calendar days, YYYY-MM-DD.
import { allForYear } from '@18f/us-federal-holidays';
import { pmmsReleaseDays } from '../calendar/pmms.ts';
import { addDays, isoDay } from '../platform/dates.ts';

export interface Release {
  /** The date the release's figure carries (a PMMS Thursday, an Optimal Blue business day, an APOR week's Monday). */
  figureDate: string;
  /** The day the publisher makes it public. */
  publishedOn: string;
}

export interface ReleaseSchedule {
  /** The schedule in words, e.g. "weekly, on Thursdays (Wednesdays before a Thursday holiday)". */
  description: string;
  /** Releases carrying a figure dated after `after` and published on or before `through`, ascending. */
  releasesBetween(after: string, through: string): Release[];
}

const yearOf = (date: string) => Number(date.slice(0, 4));
const weekday = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();

const yearsOf = (after: string, through: string): number[] => {
  const years: number[] = [];
  for (let year = yearOf(after); year <= yearOf(through); year += 1) years.push(year);
  return years;
};

const holidayCache = new Map<number, Set<string>>();
/** Federal holidays as observed (5 U.S.C. 6103; a weekend holiday moves to the Friday or the Monday). */
function federalHolidays(year: number): Set<string> {
  let days = holidayCache.get(year);
  if (!days) {
    days = new Set(allForYear(year).map((holiday) => isoDay(holiday.date)));
    holidayCache.set(year, days);
  }
  return days;
}

export function isBusinessDay(date: string): boolean {
  const day = weekday(date);
  return day !== 0 && day !== 6 && !federalHolidays(yearOf(date)).has(date);
}

export function nextBusinessDay(date: string): string {
  let next = addDays(date, 1);
  while (!isBusinessDay(next)) next = addDays(next, 1);
  return next;
}

/** Freddie Mac PMMS: each Thursday at noon ET, on the Wednesday when a holiday falls on the Thursday. */
export const PMMS_WEEKLY: ReleaseSchedule = {
  description: 'weekly, on Thursdays (on the Wednesday when a federal holiday falls on the Thursday)',
  releasesBetween(after, through) {
    return yearsOf(after, through)
      .flatMap((year) => pmmsReleaseDays(year))
      .filter((release) => release.date > after && release.date <= through)
      .map((release) => ({ figureDate: release.date, publishedOn: release.date }));
  },
};

/** Optimal Blue's indices: one figure per business day, published (via FRED) the next business day. */
export const BUSINESS_DAILY: ReleaseSchedule = {
  description: 'each business day (published the next business day)',
  releasesBetween(after, through) {
    const releases: Release[] = [];
    for (let day = addDays(after, 1); day <= through; day = addDays(day, 1)) {
      const publishedOn = isBusinessDay(day) ? nextBusinessDay(day) : undefined;
      if (publishedOn !== undefined && publishedOn <= through) releases.push({ figureDate: day, publishedOn });
    }
    return releases;
  },
};

/**
 * The FFIEC's Average Prime Offer Rates: weekly, each row dated the Monday its rates take effect,
 * published the Thursday before (with the PMMS they are computed from).
 */
export const APOR_WEEKLY: ReleaseSchedule = {
  description: 'weekly, for the week starting each Monday (published the Thursday before)',
  releasesBetween(after, through) {
    const releases: Release[] = [];
    let monday = addDays(after, 1);
    while (weekday(monday) !== 1) monday = addDays(monday, 1);
    for (; addDays(monday, -4) <= through; monday = addDays(monday, 7))
      releases.push({ figureDate: monday, publishedOn: addDays(monday, -4) });
    return releases;
  },
};

/** A yearly release on a fixed month and day (loan limits for the next year, an annual file). */
export function yearly(
  description: string,
  month: number,
  day: number,
  figureDateOf: (year: number) => string = (year) => `${year + 1}-01-01`,
): ReleaseSchedule {
  const pad = (value: number) => String(value).padStart(2, '0');
  return {
    description,
    releasesBetween(after, through) {
      // The release of year Y carries the figure dated figureDateOf(Y) (e.g. limits in force from Y+1-01-01).
      return yearsOf(addDays(after, -400), through)
        .map((year) => ({ figureDate: figureDateOf(year), publishedOn: `${year}-${pad(month)}-${pad(day)}` }))
        .filter((release) => release.figureDate > after && release.publishedOn <= through);
    },
  };
}

/** FHFA announces the next year's conforming loan limits in late November (about the last Tuesday). */
export const FHFA_YEARLY = yearly('yearly, in late November for the next year', 11, 25);
/** HUD announces the next year's FHA limits in December. */
export const HUD_YEARLY = yearly('yearly, in December for the next year', 12, 15);
