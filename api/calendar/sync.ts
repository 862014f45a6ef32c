// The `economic_calendar` dataset: FOMC meetings (fact file, or the Fed's calendar page when it can
// be read), BLS release dates (BLS's iCalendar feed; the mirror's CPI history), and Census/NAR
// housing releases (fact file), upserted into calendar_events on (series, date).
import { SourceUnavailableError, ValidationError } from '../sync/errors.ts';
import { combineChecksums, sha256 } from '../sync/source.ts';
import type { DatasetDefinition, SourceEntry, SourceFile, SyncContext } from '../sync/types.ts';
import { upsertRows } from '../sync/upsert.ts';
import { blsEventsFromIcs, BLS_ICS_URL } from './bls-ics.ts';
import { cpiEventsFromCsv, HOUSING_FILE, loadHousingEvents } from './facts.ts';
import { FED_CALENDAR_URL, FOMC_FILE, fomcEvent, loadFomcFile, parseFedCalendarPage, type FomcMeeting } from './fomc.ts';
import type { CalendarEventRecord } from './series.ts';
import fs from 'node:fs';

export const CALENDAR_DATASET = 'economic_calendar';

export const CALENDAR_SOURCES = {
  fedPage: { id: 'fed-fomc-calendar', publisherUrl: FED_CALENDAR_URL, format: 'html', mirrorPath: 'calendar/fomccalendars.htm' },
  blsFeed: { id: 'bls-release-calendar', publisherUrl: BLS_ICS_URL, format: 'ics', mirrorPath: 'calendar/bls.ics' },
  // Mirror-only files (no publisher download of this exact file): read only when MDS_SOURCE_DIR is set.
  cpiHistory: {
    id: 'bls-cpi-release-dates',
    publisherUrl: 'https://www.bls.gov/schedule/news_release/cpi.htm',
    format: 'csv',
    mirrorPath: 'calendar/us_cpi_release_dates.csv',
  },
  fomcMirror: {
    id: 'fed-fomc-meetings-2021-2025',
    publisherUrl: FED_CALENDAR_URL,
    format: 'csv',
    mirrorPath: 'calendar/fomc_meetings_2021_2025.csv',
  },
} satisfies Record<string, SourceEntry>;

/** Reads an optional source; a publisher that cannot be reached is reported, not fatal. */
async function tryRead(context: SyncContext, entry: SourceEntry, unavailable: Record<string, string>): Promise<SourceFile | undefined> {
  try {
    const file = await context.readOptionalSource(entry);
    if (!file) unavailable[entry.id] = `not found (${context.config.sourceDir === undefined ? entry.publisherUrl : entry.mirrorPath})`;
    return file;
  } catch (error) {
    if (!(error instanceof SourceUnavailableError)) throw error;
    context.logger.warn({ source: entry.id, err: error.message }, 'calendar source unavailable; keeping its earlier rows');
    unavailable[entry.id] = error.message;
    return undefined;
  }
}

/** Every mirror row (year,meeting_start,decision_date) must equal a fact-file meeting. */
export function crossCheckFomcMirror(text: string, meetings: readonly FomcMeeting[], file: string): void {
  const known = new Set(meetings.map((meeting) => `${meeting.start},${meeting.decision}`));
  text.split(/\r?\n/).slice(1).forEach((line, index) => {
    const [, start, decision] = line.trim().split(',');
    if (!start || !decision) return;
    if (!known.has(`${start},${decision}`)) {
      throw new ValidationError(`${file}:${index + 2}: FOMC meeting ${start}/${decision} is not in data/calendar/fomc-meetings.json`);
    }
  });
}

function requireEvent(events: Map<string, CalendarEventRecord>, key: string, why: string): void {
  if (!events.has(key)) throw new ValidationError(`economic calendar: expected ${key.replace('|', ' on ')} (${why})`);
}

export const calendarDataset: DatasetDefinition = {
  name: CALENDAR_DATASET,
  description: 'Economic calendar: FOMC decisions, BLS releases (CPI, jobs, PPI, JOLTS...), Census and NAR housing releases',
  syncByDefault: true,
  async load(tx, context) {
    const unavailable: Record<string, string> = {};
    const files: Pick<SourceFile, 'entry' | 'checksum'>[] = [];
    const events = new Map<string, CalendarEventRecord>();
    const origins = new Map<string, string>();
    const add = (list: readonly CalendarEventRecord[], origin: string) => {
      for (const event of list) {
        events.set(`${event.series}|${event.date}`, event);
        origins.set(`${event.series}|${event.date}`, origin);
      }
    };
    const usedOrigins = new Set<string>();

    // 1. FOMC: the fact file, replaced year by year by the Fed's page when it can be read.
    const fomcText = fs.readFileSync(FOMC_FILE, 'utf8');
    files.push({ entry: { id: 'fomc-fact-file', publisherUrl: FED_CALENDAR_URL, format: 'json', mirrorPath: 'data/calendar/fomc-meetings.json' }, checksum: sha256(fomcText) });
    const fomcFile = loadFomcFile();
    const fomcYears = new Map<number, { meetings: FomcMeeting[]; sourceUrl: string; origin: string }>(
      fomcFile.years.map((year) => [year.year, { meetings: year.meetings, sourceUrl: year.sourceUrl, origin: 'fomc-fact-file' }]),
    );
    const fedPage = await tryRead(context, CALENDAR_SOURCES.fedPage, unavailable);
    if (fedPage) {
      files.push(fedPage);
      for (const [year, meetings] of parseFedCalendarPage(fedPage.bytes.toString('utf8'), fedPage.origin)) {
        fomcYears.set(year, { meetings, sourceUrl: FED_CALENDAR_URL, origin: CALENDAR_SOURCES.fedPage.id });
      }
    }
    for (const { meetings, sourceUrl, origin } of fomcYears.values()) {
      add(meetings.map((meeting) => fomcEvent(meeting, sourceUrl)), origin);
      usedOrigins.add(origin);
    }

    // 2. BLS: the mirror's CPI history, then the publisher's feed (newer, wins on the same day).
    if (context.config.sourceDir !== undefined) {
      const fomcMirror = await tryRead(context, CALENDAR_SOURCES.fomcMirror, unavailable);
      if (fomcMirror) {
        crossCheckFomcMirror(fomcMirror.bytes.toString('utf8'), fomcFile.years.flatMap((year) => year.meetings), fomcMirror.origin);
      }
      const cpi = await tryRead(context, CALENDAR_SOURCES.cpiHistory, unavailable);
      if (cpi) {
        files.push(cpi);
        add(cpiEventsFromCsv(cpi.bytes.toString('utf8'), cpi.origin).events, CALENDAR_SOURCES.cpiHistory.id);
        usedOrigins.add(CALENDAR_SOURCES.cpiHistory.id);
        requireEvent(events, 'cpi|2024-02-13', 'January 2024 CPI release in the mirror');
      }
    }
    let blsSkipped = 0;
    const feed = await tryRead(context, CALENDAR_SOURCES.blsFeed, unavailable);
    if (feed) {
      files.push(feed);
      const parsed = blsEventsFromIcs(feed.bytes.toString('utf8'), feed.origin);
      if (parsed.events.length === 0) throw new ValidationError(`${feed.origin}: no CPI, jobs, PPI or JOLTS releases in the feed`);
      blsSkipped = parsed.skipped;
      add(parsed.events, CALENDAR_SOURCES.blsFeed.id);
      usedOrigins.add(CALENDAR_SOURCES.blsFeed.id);
    }

    // 3. Housing releases (Census, NAR) from the fact file.
    const housingText = fs.readFileSync(HOUSING_FILE, 'utf8');
    files.push({ entry: { id: 'housing-fact-file', publisherUrl: 'https://www.census.gov/construction/nrc/schedule.html', format: 'json', mirrorPath: 'data/calendar/housing-releases.json' }, checksum: sha256(housingText) });
    add(loadHousingEvents(), 'housing-fact-file');
    usedOrigins.add('housing-fact-file');

    // Validation gates: every year 2021-2027 has its eight scheduled meetings; the 2026 anchors.
    for (let year = 2021; year <= 2027; year += 1) {
      const count = [...events.values()].filter((event) => event.series === 'fomc' && event.date.startsWith(`${year}-`)).length;
      if (count < 8) throw new ValidationError(`economic calendar: ${count} FOMC decisions in ${year}, expected 8 scheduled meetings`);
    }
    requireEvent(events, 'fomc|2026-04-29', 'the Fed scheduled April 28-29, 2026');
    if (events.has('fomc|2026-05-06')) throw new ValidationError('economic calendar: 2026-05-06 is not an FOMC decision date (the Fed scheduled April 28-29, 2026)');

    const keys = [...events.keys()];
    const rows = keys.map((key) => {
      const event = events.get(key) as CalendarEventRecord;
      return [event.series, event.date, event.name, event.impact, event.category, event.description, event.sourceUrl, origins.get(key)];
    });
    const changed = await upsertRows(tx, {
      table: 'calendar_events',
      key: ['series', 'date'],
      columns: ['series', 'date', 'name', 'impact', 'category', 'description', 'source_url', 'origin'],
      rows,
      onBatch: (done, total) => context.progress(done, total),
    });
    // Rows of a source read this run that it no longer lists (a moved release) are removed; rows of
    // sources that could not be read stay. Keys compare as text: a date column reads back as a Date.
    const deleted = await tx.query(
      `DELETE FROM calendar_events
        WHERE origin = ANY($1::text[]) AND NOT (series || '|' || to_char(date, 'YYYY-MM-DD') = ANY($2::text[]))`,
      [[...usedOrigins], keys],
    );
    const total = await tx.query<{ count: string | number }>('SELECT count(*) AS count FROM calendar_events');
    const bySeries: Record<string, number> = {};
    for (const event of events.values()) bySeries[event.series] = (bySeries[event.series] ?? 0) + 1;
    const asOf = [fomcFile.asOf, feed ? context.clock().toISOString().slice(0, 10) : ''].sort().at(-1) ?? fomcFile.asOf;
    return {
      asOf,
      sourceUrl: FED_CALENDAR_URL,
      checksum: combineChecksums(files),
      rows: Number(total.rows[0]?.count ?? 0),
      changed: changed + deleted.rowCount,
      details: { bySeries, unavailable, blsFeedOtherReleases: blsSkipped, files: files.map((file) => file.entry.id) },
    };
  },
};
