// Freddie Mac's weekly mortgage rate survey (PMMS): Freddie Mac publishes a rule, not a calendar
// ("each Thursday at noon ET; when a U.S. holiday falls on a Thursday, the PMMS will publish on the
// Wednesday of that week"), so the dates are derived from it and every event says so. The rule and
// the years it is applied to live in data/calendar/pmms-schedule.json.
import { z } from 'zod';
import { ValidationError } from '../sync/errors.ts';
import { seriesEvent, type CalendarEventRecord } from './series.ts';
import { isoDay } from '../platform/dates.ts';

export const PmmsScheduleSchema = z.object({
  publisher: z.literal('Freddie Mac'),
  description: z.string().min(10),
  asOf: z.iso.date(),
  rule: z.object({ text: z.string().min(20), sourceUrl: z.url(), since: z.iso.date() }),
  holidays: z.object({ text: z.string().min(20), sourceUrl: z.url() }),
  years: z.array(z.object({ year: z.int().min(2023).max(2100), sourceUrl: z.url() })).min(1),
  notes: z.array(z.string()),
});

export type PmmsSchedule = z.infer<typeof PmmsScheduleSchema>;

const iso = (year: number, month: number, day: number): string =>
  `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;

/**
 * The legal public holidays (5 U.S.C. 6103(a)) that can fall on a Thursday, by their date. The
 * Monday holidays never can, and observance moves a weekend holiday to a Friday or a Monday.
 */
export function thursdayCapableHolidays(year: number): Map<string, string> {
  const holidays = new Map<string, string>([
    [iso(year, 1, 1), "New Year's Day"],
    [iso(year, 7, 4), 'Independence Day'],
    [iso(year, 11, 11), 'Veterans Day'],
    [iso(year, 12, 25), 'Christmas Day'],
  ]);
  if (year >= 2021) holidays.set(iso(year, 6, 19), 'Juneteenth National Independence Day');
  const firstOfNovember = new Date(Date.UTC(year, 10, 1)).getUTCDay();
  const firstThursday = 1 + ((4 - firstOfNovember + 7) % 7);
  holidays.set(iso(year, 11, firstThursday + 21), 'Thanksgiving Day');
  return holidays;
}

export interface PmmsRelease {
  date: string;
  /** The holiday that moved the release from its Thursday, if any. */
  movedFor?: string;
}

/** Every PMMS release day of a year by the rule: Thursdays, or the Wednesday before a Thursday holiday. */
export function pmmsReleaseDays(year: number): PmmsRelease[] {
  const holidays = thursdayCapableHolidays(year);
  const releases: PmmsRelease[] = [];
  const day = new Date(Date.UTC(year, 0, 1));
  day.setUTCDate(day.getUTCDate() + ((4 - day.getUTCDay() + 7) % 7));
  for (; day.getUTCFullYear() === year; day.setUTCDate(day.getUTCDate() + 7)) {
    const thursday = isoDay(day);
    const holiday = holidays.get(thursday);
    if (!holiday) {
      releases.push({ date: thursday });
      continue;
    }
    const wednesday = new Date(day);
    wednesday.setUTCDate(wednesday.getUTCDate() - 1);
    // The Wednesday before January 1 falls in the year before: it belongs to that year's list.
    if (wednesday.getUTCFullYear() === year) releases.push({ date: isoDay(wednesday), movedFor: holiday });
  }
  const next = thursdayCapableHolidays(year + 1).get(iso(year + 1, 1, 1));
  if (next && new Date(`${iso(year + 1, 1, 1)}T12:00:00Z`).getUTCDay() === 4) releases.push({ date: iso(year, 12, 31), movedFor: next });
  return releases;
}

export const PMMS_DERIVED_NOTE =
  "Date derived from Freddie Mac's stated rule (published each Thursday at noon ET, on the Wednesday when a U.S. holiday falls on the Thursday); Freddie Mac publishes no calendar of dates.";

export function pmmsEvents(schedule: PmmsSchedule): CalendarEventRecord[] {
  const years = schedule.years.map((entry) => entry.year);
  if (new Set(years).size !== years.length) throw new ValidationError('pmms-schedule.json: a year is listed twice');
  return schedule.years.flatMap(({ year, sourceUrl }) =>
    pmmsReleaseDays(year).map((release) =>
      seriesEvent(
        'pmms',
        release.date,
        undefined,
        release.movedFor ? `${PMMS_DERIVED_NOTE} Moved from Thursday for ${release.movedFor}.` : PMMS_DERIVED_NOTE,
        sourceUrl,
      ),
    ),
  );
}
