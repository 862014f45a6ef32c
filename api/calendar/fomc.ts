// FOMC meetings: the hand-maintained fact file (data/calendar/fomc-meetings.json), a parser for the
// Federal Reserve's calendar page (fomccalendars.htm), and the mapping of meetings to events.
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { PROJECT_ROOT } from '../config.ts';
import { SourceFormatError } from '../sync/errors.ts';
import { seriesEvent, type CalendarEventRecord } from './series.ts';
import { daysBetween } from '../platform/dates.ts';
import { monthOf } from '../platform/contract/months.ts';

export const FOMC_FILE = path.join(PROJECT_ROOT, 'data', 'calendar', 'fomc-meetings.json');
export const FED_CALENDAR_URL = 'https://www.federalreserve.gov/monetarypolicy/fomccalendars.htm';

export interface FomcMeeting {
  start: string;
  decision: string;
  sep: boolean;
  pressConference: boolean;
  unscheduled?: boolean;
}

const isoDay = z.iso.date();
const MeetingSchema = z.object({ start: isoDay, decision: isoDay, sep: z.boolean(), pressConference: z.boolean() }).refine((meeting) => {
  const days = daysBetween(meeting.start, meeting.decision);
  return days >= 0 && days <= 2;
}, 'decision must be the first day or one or two days after it');

export const FomcFileSchema = z.object({
  description: z.string(),
  asOf: isoDay,
  notes: z.array(z.string()),
  years: z.array(
    z
      .object({ year: z.int(), sourceTitle: z.string().min(10), sourceUrl: z.url(), meetings: z.array(MeetingSchema).min(1) })
      .refine((year) => year.meetings.every((meeting) => meeting.decision.startsWith(`${year.year}-`)), 'meeting outside its year'),
  ),
});

export type FomcFile = z.infer<typeof FomcFileSchema>;

export function loadFomcFile(file: string = FOMC_FILE): FomcFile {
  return FomcFileSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
}

const pad = (value: number): string => String(value).padStart(2, '0');
const stripTags = (html: string): string =>
  html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();

function monthNumber(text: string): number | undefined {
  return monthOf(text.trim().slice(0, 3));
}

/**
 * Parses the Fed's FOMC calendar page: one panel per year headed "YYYY FOMC Meetings", one
 * `fomc-meeting` row per meeting with `fomc-meeting__month` ("January", "Apr/May") and
 * `fomc-meeting__date` ("27-28", "17-18*" = SEP, "30-1" across months, "9 (unscheduled)",
 * "22 (notation vote)"). Notation votes are skipped: they are not meetings with a decision day.
 */
export function parseFedCalendarPage(html: string, file = 'fomccalendars.htm'): Map<number, FomcMeeting[]> {
  const byYear = new Map<number, FomcMeeting[]>();
  const headings = [...html.matchAll(/(\d{4}) FOMC Meetings/g)];
  headings.forEach((heading, index) => {
    const year = Number(heading[1]);
    const end = headings[index + 1]?.index ?? html.length;
    const section = html.slice((heading.index ?? 0) + heading[0].length, end);
    const rows = section.matchAll(
      /class="[^"]*fomc-meeting__month[^"]*"[^>]*>([\s\S]*?)<\/div>[\s\S]*?class="[^"]*fomc-meeting__date[^"]*"[^>]*>([\s\S]*?)<\/div>/g,
    );
    const meetings: FomcMeeting[] = [];
    for (const row of rows) {
      const monthText = stripTags(row[1] ?? '');
      const dateText = stripTags(row[2] ?? '');
      if (/notation vote/i.test(dateText)) continue;
      const line = html.slice(0, (heading.index ?? 0) + heading[0].length + (row.index ?? 0)).split('\n').length;
      const months = monthText.split('/').map(monthNumber);
      const days = [...dateText.matchAll(/\d{1,2}/g)].map((match) => Number(match[0]));
      const firstMonth = months[0];
      const lastMonth = months[months.length - 1];
      if (!firstMonth || !lastMonth || days.length === 0 || days.length > 2) {
        throw new SourceFormatError(file, line, `cannot read FOMC meeting "${monthText} ${dateText}" in ${year}`);
      }
      const firstDay = days[0] ?? 0;
      const lastDay = days[days.length - 1] ?? firstDay;
      const start = `${year}-${pad(firstMonth)}-${pad(firstDay)}`;
      const decision = `${year}-${pad(lastMonth)}-${pad(lastDay)}`;
      if (Number.isNaN(Date.parse(start)) || Number.isNaN(Date.parse(decision)) || decision < start) {
        throw new SourceFormatError(file, line, `impossible FOMC meeting date "${monthText} ${dateText}" in ${year}`);
      }
      meetings.push({
        start,
        decision,
        sep: dateText.includes('*'),
        // Since January 2019 the Chair holds a press conference after every scheduled meeting.
        pressConference: year >= 2019 && !/unscheduled/i.test(dateText),
        ...(/unscheduled/i.test(dateText) ? { unscheduled: true } : {}),
      });
    }
    if (meetings.length > 0) byYear.set(year, meetings);
  });
  if (byYear.size === 0) throw new SourceFormatError(file, undefined, 'no "YYYY FOMC Meetings" panels with meetings found');
  return byYear;
}

const longDate = (iso: string): string =>
  new Date(`${iso}T12:00:00Z`).toLocaleDateString('en-US', { month: 'long', day: 'numeric', timeZone: 'UTC' });

export function fomcEvent(meeting: FomcMeeting, sourceUrl: string): CalendarEventRecord {
  const span = meeting.start === meeting.decision ? longDate(meeting.decision) : `${longDate(meeting.start)}-${longDate(meeting.decision)}`;
  const extras = [
    `Meeting ${span}, ${meeting.decision.slice(0, 4)}${meeting.unscheduled ? ' (unscheduled)' : ''}.`,
    meeting.sep ? 'Summary of Economic Projections released.' : '',
  ].filter(Boolean);
  return seriesEvent('fomc', meeting.decision, undefined, extras.join(' '), sourceUrl);
}
