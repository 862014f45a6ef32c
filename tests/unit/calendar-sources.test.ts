// The calendar's parsers and fact files: the Fed's calendar page, BLS's real iCalendar feed (counted
// against a line scan written here), the CPI history, the FOMC fact file against the mirror, and
// the iCalendar writer (checked with ical.js).
import fs from 'node:fs';
import path from 'node:path';
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { BLS_ICS_URL, BLS_RELEASE_NAMES, blsEventsFromIcs } from '../../api/calendar/bls-ics.ts';
import { cpiEventsFromCsv } from '../../api/calendar/cpi-history.ts';
import { fomcHistoryFromCsv } from '../../api/calendar/fomc-history.ts';
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
    expect(() => crossCheckFomcMirror(text, meetings, 'mirror.csv')).toThrow(
      new ValidationError('mirror.csv:3: FOMC meeting 2021-03-16/2021-03-18 is not in data/calendar/fomc-meetings.json'),
    );
  });
});

describe('FOMC decision days before the fact file', () => {
  const meetings = loadFomcFile().years.flatMap((year) => year.meetings);
  const decisions = new Set(meetings.map((meeting) => meeting.decision));

  it.skipIf(!hasSourceData)('serves 2000-2020 from the mirror, unscheduled decisions included, and only compares later years', () => {
    const text = fs.readFileSync(sourceFile('calendar', 'fomc_decision_dates_2000_2026.csv'), 'utf8');
    const rows = text.trim().split('\n').slice(1);
    const history = fomcHistoryFromCsv(text, 'fomc_decision_dates_2000_2026.csv', 2021, decisions);
    expect(history.events.map((event) => event.date)).toEqual(rows.filter((row) => row < '2021'));
    expect(history.events.filter((event) => event.date.startsWith('2020-03')).map((event) => event.date)).toEqual([
      '2020-03-03',
      '2020-03-15',
    ]);
    expect(history.events.every((event) => event.series === 'fomc' && event.category === 'fed')).toBe(true);
    // The file's 2026-05-06 is not the Fed's April 28-29 meeting: reported, never served.
    expect(history.disagreed).toEqual(['2026-05-06']);
    expect(history.agreed).toBe(rows.filter((row) => row >= '2021').length - 1);
  });

  it('refuses a row that is no day of the calendar, naming the file and line', () => {
    expect(() => fomcHistoryFromCsv('date\n2008-01-22\n2008-02-30\n', 'history.csv', 2021, decisions)).toThrow(SourceFormatError);
    expect(() => fomcHistoryFromCsv('day\n2008-01-22\n', 'history.csv', 2021, decisions)).toThrow(/expected header "date"/);
  });
});

describe('Fed calendar page parser', () => {
  const byYear = parseFedCalendarPage(fixture('fomccalendars.html'));

  it('reads each year panel, SEP asterisks and the press conference', () => {
    expect(byYear.get(2026)?.map((meeting) => meeting.decision)).toEqual([
      '2026-01-28',
      '2026-03-18',
      '2026-04-29',
      '2026-06-17',
      '2026-07-29',
      '2026-09-16',
      '2026-10-28',
      '2026-12-09',
    ]);
    expect(
      byYear
        .get(2026)
        ?.filter((meeting) => meeting.sep)
        .map((meeting) => meeting.start.slice(5, 7)),
    ).toEqual(['03', '06', '09', '12']);
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

/**
 * The test's own reading of an iCalendar file: a line scan (no unfolding needed; the real feed has
 * no continuation lines, which the scan checks) collecting each VEVENT's SUMMARY and DTSTART day.
 */
function scanVevents(text: string): { name: string; day: string }[] {
  const lines = text.split(/\r?\n/);
  expect(lines.some((line) => line.startsWith(' ') || line.startsWith('\t'))).toBe(false);
  const events: { name: string; day: string }[] = [];
  let current: { name?: string; day?: string } | undefined;
  for (const line of lines) {
    if (line === 'BEGIN:VEVENT') current = {};
    else if (line === 'END:VEVENT' && current) {
      events.push({ name: (current.name ?? '').replace(/\s+/g, ' ').trim(), day: current.day ?? '' });
      current = undefined;
    } else if (current && line.startsWith('SUMMARY:')) current.name = line.slice('SUMMARY:'.length).replace(/\\,/g, ',');
    else if (current && line.startsWith('DTSTART')) {
      const digits = line.slice(line.indexOf(':') + 1);
      current.day = `${digits.slice(0, 4)}-${digits.slice(4, 6)}-${digits.slice(6, 8)}`;
    }
  }
  return events;
}

describe.skipIf(!hasSourceData)('BLS iCalendar feed (the real calendar/bls.ics)', () => {
  const text = hasSourceData ? fs.readFileSync(sourceFile('calendar', 'bls.ics'), 'utf8') : '';
  const scanned = hasSourceData ? scanVevents(text) : [];
  const feed = hasSourceData ? blsEventsFromIcs(text, 'bls.ics') : { events: [], otherReleases: {}, span: { first: '', last: '' } };
  const daysOf = (series: string) =>
    feed.events
      .filter((event) => event.series === series)
      .map((event) => event.date)
      .sort();
  const scannedDays = (name: string) =>
    scanned
      .filter((event) => event.name === name)
      .map((event) => event.day)
      .sort();

  it('reads every release the line scan finds: 246 from 2025-01-03 to 2026-12-17', () => {
    expect(scanned).toHaveLength(246);
    expect(feed.span).toEqual({ first: '2025-01-03', last: '2026-12-17' });
    const served = feed.events.length;
    const other = Object.values(feed.otherReleases).reduce((sum, count) => sum + count, 0);
    expect(served + other).toBe(246);
  });

  it('serves each mapped release on exactly the days the feed lists, and counts the others by name', () => {
    for (const [name, series] of Object.entries(BLS_RELEASE_NAMES)) {
      expect(daysOf(series), name).toEqual(scannedDays(name));
      expect(daysOf(series).length, name).toBeGreaterThan(0);
    }
    const unmapped = new Map<string, number>();
    for (const event of scanned) if (!(event.name in BLS_RELEASE_NAMES)) unmapped.set(event.name, (unmapped.get(event.name) ?? 0) + 1);
    expect(feed.otherReleases).toEqual(Object.fromEntries(unmapped));
    expect(feed.otherReleases['Metropolitan Area Employment and Unemployment (Monthly)']).toBe(13);
  });

  it('has the 2026 jobs and CPI dates with their category and impact, and no reference month', () => {
    expect(daysOf('employment_situation').filter((day) => day.startsWith('2026'))).toEqual([
      '2026-01-09',
      '2026-02-11',
      '2026-03-06',
      '2026-04-03',
      '2026-05-08',
      '2026-06-05',
      '2026-07-02',
      '2026-08-07',
      '2026-09-04',
      '2026-10-02',
      '2026-11-06',
      '2026-12-04',
    ]);
    expect(daysOf('cpi').filter((day) => day.startsWith('2026'))).toEqual([
      '2026-01-13',
      '2026-02-13',
      '2026-03-11',
      '2026-04-10',
      '2026-05-12',
      '2026-06-10',
      '2026-07-14',
      '2026-08-12',
      '2026-09-11',
      '2026-10-14',
      '2026-11-10',
      '2026-12-10',
    ]);
    const jobs = feed.events.find((event) => event.series === 'employment_situation' && event.date === '2026-12-04');
    expect(jobs).toMatchObject({ name: 'Employment Situation', category: 'employment', impact: 'high', sourceUrl: BLS_ICS_URL });
    expect(feed.events.find((event) => event.date === '2026-12-10' && event.series === 'cpi')).toMatchObject({
      name: 'Consumer Price Index',
      category: 'inflation',
      impact: 'high',
    });
    const category = (series: string) =>
      new Set(feed.events.filter((event) => event.series === series).map((event) => `${event.category}/${event.impact}`));
    expect(category('ppi')).toEqual(new Set(['inflation/medium']));
    expect(category('real_earnings')).toEqual(new Set(['inflation/low']));
    expect(category('jolts')).toEqual(new Set(['employment/medium']));
    expect(category('eci')).toEqual(new Set(['employment/low']));
    expect(category('state_employment')).toEqual(new Set(['employment/low']));
  });

  it('carries the shutdown-revised 2025 dates: no October jobs or CPI release, November CPI on 2025-12-18', () => {
    expect(daysOf('employment_situation').filter((day) => day >= '2025-10-01' && day <= '2025-12-31')).toEqual([
      '2025-11-20',
      '2025-12-16',
    ]);
    expect(daysOf('cpi').filter((day) => day >= '2025-10-01' && day <= '2025-12-31')).toEqual(['2025-10-24', '2025-12-18']);
  });

  it('names the CPI reference month only where the CPI release table gives it for that day', () => {
    const { referenceMonths } = cpiEventsFromCsv(fs.readFileSync(sourceFile('calendar', 'us_cpi_release_dates.csv'), 'utf8'));
    const named = blsEventsFromIcs(text, 'bls.ics', referenceMonths).events.filter((event) => event.series === 'cpi');
    expect(named.find((event) => event.date === '2025-10-24')?.name).toBe('Consumer Price Index (September 2025)');
    expect(named.find((event) => event.date === '2025-12-18')?.name).toBe('Consumer Price Index');
    expect(named.find((event) => event.date === '2026-11-10')?.name).toBe('Consumer Price Index');
  });

  it('fails a truncated, foreign or emptied feed with the file named', () => {
    expect(() => blsEventsFromIcs(text.slice(0, 2000), 'bls.ics')).toThrow(SourceFormatError);
    expect(() => blsEventsFromIcs(text.slice(0, 2000), 'bls.ics')).toThrow(/^bls\.ics: not a readable iCalendar file/);
    expect(() => blsEventsFromIcs('<html>maintenance</html>', 'bls.ics')).toThrow(SourceFormatError);
    expect(() =>
      blsEventsFromIcs(text.replace('DTSTART;TZID=US-Eastern:20260109T083000', 'DTSTART;TZID=US-Eastern:2026XX09T083000'), 'bls.ics'),
    ).toThrow(/bls\.ics: release "Employment Situation" has an unreadable DTSTART/);
    const withoutJobs = text.replace(/SUMMARY:Employment Situation\r?\n/g, 'SUMMARY:Something Else\n');
    expect(() => blsEventsFromIcs(withoutJobs, 'bls.ics')).toThrow(
      new ValidationError('bls.ics: no Employment Situation release in the feed'),
    );
  });
});

describe('CPI history', () => {
  it.skipIf(!hasSourceData)('reads the mirror CPI dates and leaves out the two flagged 2025 rows', () => {
    const { events, excluded, referenceMonths } = cpiEventsFromCsv(
      fs.readFileSync(sourceFile('calendar', 'us_cpi_release_dates.csv'), 'utf8'),
    );
    expect(excluded.sort()).toEqual(['2025-11-12', '2025-12-12']);
    expect(events).toHaveLength(57);
    expect(events.find((event) => event.date === '2025-10-24')?.name).toBe('Consumer Price Index (September 2025)');
    expect(referenceMonths.get('2024-02-13')).toBe('January 2024');
  });

  it('rejects a malformed CPI row with its line number', () => {
    expect(() => cpiEventsFromCsv('release_date,reference_month\n2024-02-13,2024-01\n2024-13-12,2024-02\n', 'cpi.csv')).toThrow(
      /cpi\.csv:3:/,
    );
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
        {
          uid: 'cpi-20261110@example.org',
          date: '2026-11-10',
          summary: 'Consumer Price Index (October 2026)',
          description: 'Inflation; commas, and a long text '.repeat(5),
          categories: ['inflation', 'high impact'],
        },
        {
          uid: 'fomc-20261209@example.org',
          date: '2026-12-09',
          summary: 'FOMC rate decision',
          description: 'Statement',
          categories: ['fed'],
        },
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

  it('escapes the calendar name and categories as text, ends the day after, and folds every line within 75 octets', () => {
    const text = writeIcs(
      [
        {
          uid: 'a@example.org',
          date: '2026-12-31',
          summary: 'Year end; close',
          description: `Line one\nline two, ${'😀'.repeat(40)}`,
          categories: ['rates, weekly', 'fed'],
          url: 'https://example.org/a?b=1,2',
        },
      ],
      { name: 'Calendar, test; name', stamp: new Date('2026-11-22T05:00:00.500Z') },
    );
    expect(text).toContain('\r\nX-WR-CALNAME:Calendar\\, test\\; name\r\n');
    expect(text).toContain('\r\nDTSTAMP:20261122T050000Z\r\n');
    expect(text).toContain('\r\nDTEND;VALUE=DATE:20270101\r\n');
    expect(text.split('\r\n').every((line) => Buffer.byteLength(line, 'utf8') <= 75)).toBe(true);
    const calendar = new ICAL.Component(ICAL.parse(text));
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('Calendar, test; name');
    const vevent = calendar.getFirstSubcomponent('vevent')!;
    expect(vevent.getFirstProperty('categories')?.getValues()).toEqual(['rates, weekly', 'fed']);
    expect(new ICAL.Event(vevent).description).toBe(`Line one\nline two, ${'😀'.repeat(40)}`);
    expect(vevent.getFirstPropertyValue('url')).toBe('https://example.org/a?b=1,2');
  });
});
