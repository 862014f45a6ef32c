// The calendar's parsers and fact files: the Fed's calendar page, BLS's iCalendar feed, the CPI
// history, the FOMC fact file against the mirror, and the iCalendar writer (checked with ical.js).
import fs from 'node:fs';
import path from 'node:path';
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { blsEventsFromIcs, parseIcsEvents, unfoldLines } from '../../api/calendar/bls-ics.ts';
import { cpiEventsFromCsv, loadHousingEvents } from '../../api/calendar/facts.ts';
import { fomcEvent, loadFomcFile, parseFedCalendarPage } from '../../api/calendar/fomc.ts';
import { foldLine, writeIcs } from '../../api/calendar/ics-writer.ts';
import { crossCheckFomcMirror } from '../../api/calendar/sync.ts';
import { SourceFormatError, ValidationError } from '../../api/sync/errors.ts';
import { hasSourceData, sourceFile } from '../support/source-data.ts';

const fixture = (name: string) => fs.readFileSync(path.join(import.meta.dirname, '..', 'fixtures', 'calendar', name), 'utf8');

describe('FOMC fact file', () => {
  const file = loadFomcFile();
  const meetings = file.years.flatMap((year) => year.meetings);

  it('covers 2021 through 2027 with eight scheduled meetings a year, each year citing the Fed', () => {
    expect(file.years.map((year) => year.year)).toEqual([2021, 2022, 2023, 2024, 2025, 2026, 2027]);
    for (const year of file.years) {
      expect(year.meetings).toHaveLength(8);
      expect(year.sourceUrl).toMatch(/^https:\/\/www\.federalreserve\.gov\//);
    }
  });

  it('follows the Fed for 2026 (April 28-29), not the mirror row 2026-05-06, and says so', () => {
    expect(meetings.some((meeting) => meeting.start === '2026-04-28' && meeting.decision === '2026-04-29')).toBe(true);
    expect(meetings.some((meeting) => meeting.decision === '2026-05-06')).toBe(false);
    expect(file.notes.join(' ')).toMatch(/2026-05-06/);
  });

  it('decides on a Wednesday (or the Thursday after a US election) with SEP in Mar/Jun/Sep/Dec', () => {
    for (const meeting of meetings) {
      const weekday = new Date(`${meeting.decision}T12:00:00Z`).getUTCDay();
      expect([3, 4], meeting.decision).toContain(weekday);
      expect(meeting.sep).toBe(['03', '06', '09', '12'].includes(meeting.start.slice(5, 7)));
    }
  });

  it.skipIf(!hasSourceData)('agrees row for row with the mirror for 2021-2025', () => {
    const text = fs.readFileSync(sourceFile('calendar', 'fomc_meetings_2021_2025.csv'), 'utf8');
    expect(() => crossCheckFomcMirror(text, meetings, 'fomc_meetings_2021_2025.csv')).not.toThrow();
    expect(text.trim().split('\n').length - 1).toBe(meetings.filter((meeting) => meeting.decision < '2026').length);
  });

  it('fails the cross-check naming the file and line when a mirror row differs', () => {
    const text = 'year,meeting_start,decision_date\n2021,2021-01-26,2021-01-27\n2021,2021-03-16,2021-03-18\n';
    expect(() => crossCheckFomcMirror(text, meetings, 'mirror.csv')).toThrow(new ValidationError('mirror.csv:3: FOMC meeting 2021-03-16/2021-03-18 is not in data/calendar/fomc-meetings.json'));
  });
});

describe('Fed calendar page parser', () => {
  const byYear = parseFedCalendarPage(fixture('fomccalendars.html'));

  it('reads each year panel, SEP asterisks and the press conference', () => {
    expect(byYear.get(2026)?.map((meeting) => meeting.decision)).toEqual([
      '2026-01-28', '2026-03-18', '2026-04-29', '2026-06-17', '2026-07-29', '2026-09-16', '2026-10-28', '2026-12-09',
    ]);
    expect(byYear.get(2026)?.filter((meeting) => meeting.sep).map((meeting) => meeting.start.slice(5, 7))).toEqual(['03', '06', '09', '12']);
    expect(byYear.get(2027)?.[3]).toEqual({ start: '2027-06-08', decision: '2027-06-09', sep: true, pressConference: true });
  });

  it('agrees with the fact file for the years both list', () => {
    const file = loadFomcFile();
    for (const year of [2026, 2027]) {
      const facts = file.years.find((entry) => entry.year === year)?.meetings;
      expect(byYear.get(year)).toEqual(facts);
    }
  });

  it('handles a meeting across two months, unscheduled meetings, and skips notation votes', () => {
    expect(byYear.get(2024)).toEqual([{ start: '2024-04-30', decision: '2024-05-01', sep: false, pressConference: true }]);
    expect(byYear.get(2020)?.map((meeting) => [meeting.decision, meeting.unscheduled])).toEqual([
      ['2020-03-03', true],
      ['2020-03-15', true],
    ]);
  });

  it('fails with the file and line on an unreadable meeting, and on a page without panels', () => {
    const broken = fixture('fomccalendars.html').replace('>28-29<', '>twenty-eight<');
    expect(() => parseFedCalendarPage(broken, 'page.htm')).toThrow(SourceFormatError);
    expect(() => parseFedCalendarPage(broken, 'page.htm')).toThrow(/page\.htm:\d+: cannot read FOMC meeting "April twenty-eight" in 2026/);
    expect(() => parseFedCalendarPage('<html>maintenance</html>', 'page.htm')).toThrow(/no "YYYY FOMC Meetings" panels/);
  });

  it('turns a meeting into a high-impact fed event on the decision day', () => {
    const event = fomcEvent({ start: '2026-04-28', decision: '2026-04-29', sep: false, pressConference: true }, 'https://example.gov');
    expect(event).toMatchObject({ date: '2026-04-29', impact: 'high', category: 'fed', name: 'FOMC rate decision' });
    expect(event.description).toContain('April 28-April 29, 2026');
  });
});

describe('BLS iCalendar feed parser', () => {
  it('unfolds continuation lines', () => {
    expect(unfoldLines('SUMMARY:Consumer Price Index for Febru\r\n ary 2025\r\n').map((line) => line.text)).toEqual([
      'SUMMARY:Consumer Price Index for February 2025',
    ]);
  });

  it('maps CPI, jobs, PPI, JOLTS and others to series with impact and category, skipping untracked releases', () => {
    const { events, skipped } = blsEventsFromIcs(fixture('bls.ics'));
    expect(skipped).toBe(1);
    const byName = Object.fromEntries(events.map((event) => [event.name, event]));
    expect(byName['Consumer Price Index (February 2025)']).toMatchObject({ date: '2025-03-12', impact: 'high', category: 'inflation' });
    expect(byName['Employment Situation (January 2025)']).toMatchObject({ date: '2025-02-07', impact: 'high', category: 'employment' });
    expect(byName['Producer Price Index (January 2025)']).toMatchObject({ impact: 'medium', category: 'inflation' });
    expect(byName['Job Openings and Labor Turnover Survey (December 2024)']).toMatchObject({ date: '2025-02-04', impact: 'medium', category: 'employment' });
    expect(byName['U.S. Import and Export Price Indexes (January 2025)']).toMatchObject({ impact: 'low' });
  });

  it('reads the same events as ical.js does', () => {
    const component = new ICAL.Component(ICAL.parse(fixture('bls.ics')));
    const theirs = component.getAllSubcomponents('vevent').map((vevent) => String(vevent.getFirstPropertyValue('summary')));
    const ours = parseIcsEvents(fixture('bls.ics')).map((event) => event.properties.find((property) => property.name === 'SUMMARY')?.value.replace(/\\,/g, ','));
    expect(ours).toEqual(theirs);
  });

  it('fails a truncated feed with the file and line', () => {
    const truncated = fixture('bls.ics').split('\r\n').slice(0, 30).join('\r\n');
    expect(() => blsEventsFromIcs(truncated, 'bls.ics')).toThrow(/bls\.ics:\d+: VEVENT is not closed/);
    expect(() => blsEventsFromIcs('<html>', 'bls.ics')).toThrow(/bls\.ics:1: expected BEGIN:VCALENDAR/);
  });
});

describe('CPI history and housing releases', () => {
  it.skipIf(!hasSourceData)('reads the mirror CPI dates and leaves out the two flagged 2025 rows', () => {
    const { events, excluded } = cpiEventsFromCsv(fs.readFileSync(sourceFile('calendar', 'us_cpi_release_dates.csv'), 'utf8'));
    expect(excluded.sort()).toEqual(['2025-11-12', '2025-12-12']);
    expect(events).toHaveLength(57);
    expect(events.find((event) => event.date === '2025-10-24')?.name).toBe('Consumer Price Index (September 2025)');
  });

  it('rejects a malformed CPI row with its line number', () => {
    expect(() => cpiEventsFromCsv('release_date,reference_month\n2024-02-13,2024-01\n2024-13-12,2024-02\n', 'cpi.csv')).toThrow(/cpi\.csv:3:/);
  });

  it('loads Census and NAR releases as housing events with the impact rule', () => {
    const events = loadHousingEvents();
    expect(events.find((event) => event.date === '2023-01-19')).toMatchObject({ impact: 'medium', category: 'housing' });
    expect(events.filter((event) => event.series === 'pending_home_sales').every((event) => event.impact === 'low')).toBe(true);
    expect(events.filter((event) => event.series === 'existing_home_sales')).toHaveLength(24);
  });
});

describe('iCalendar writer', () => {
  it('folds at 75 octets without splitting a UTF-8 character', () => {
    const line = `DESCRIPTION:${'é'.repeat(100)}`;
    const physical = foldLine(line).split('\r\n');
    for (const part of physical) expect(Buffer.byteLength(part, 'utf8')).toBeLessThanOrEqual(75);
    expect(physical.map((part, index) => (index === 0 ? part : part.slice(1))).join('')).toBe(line);
  });

  it('writes a calendar ical.js parses back to the same events', () => {
    const text = writeIcs(
      [
        { uid: 'cpi-20261110@example.org', date: '2026-11-10', summary: 'Consumer Price Index (October 2026)', description: 'Inflation; commas, and a long text '.repeat(5), categories: ['inflation', 'high impact'] },
        { uid: 'fomc-20261209@example.org', date: '2026-12-09', summary: 'FOMC rate decision', description: 'Statement', categories: ['fed'] },
      ],
      { name: 'Economic calendar', stamp: new Date('2026-11-22T05:00:00Z') },
    );
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text.split('\r\n').every((line) => Buffer.byteLength(line, 'utf8') <= 75)).toBe(true);
    const events = new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent').map((vevent) => new ICAL.Event(vevent));
    expect(events.map((event) => [event.uid, event.startDate.toString(), event.startDate.isDate, event.summary])).toEqual([
      ['cpi-20261110@example.org', '2026-11-10', true, 'Consumer Price Index (October 2026)'],
      ['fomc-20261209@example.org', '2026-12-09', true, 'FOMC rate decision'],
    ]);
    expect(events[0]?.description).toBe('Inflation; commas, and a long text '.repeat(5));
  });
});
