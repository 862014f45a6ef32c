// The economic calendar's parts, one per publisher's file: each reads and validates its own source
// and returns its events, so a broken or missing file costs only that publisher's events (the
// sync keeps the part's earlier rows and says which part is missing and why).
import fs from 'node:fs';
import path from 'node:path';
import { parseDelimited } from '../sync/delimited.ts';
import { sha256 } from '../sync/source.ts';
import type { SourceEntry, SourceFile, SyncContext } from '../sync/types.ts';
import { ValidationError } from '../sync/errors.ts';
import { blsEventsFromIcs, BLS_ICS_URL, BLS_RELEASE_NAMES } from './bls-ics.ts';
import { cpiEventsFromCsv } from './cpi-history.ts';
import { FOMC_HISTORY_URL, fomcHistoryFromCsv } from './fomc-history.ts';
import { FED_CALENDAR_URL, fomcEvent, FomcFileSchema, parseFedCalendarPage, type FomcMeeting } from './fomc.ts';
import { HOUSING_PUBLISHERS, housingEvents, housingFactPath, readHousingFacts, type HousingPublisher } from './housing-facts.ts';
import { pmmsEvents, PmmsScheduleSchema } from './pmms.ts';
import { SERIES, type CalendarEventRecord, type SeriesId } from './series.ts';

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
  fomcHistory: {
    id: 'fed-fomc-decisions-2000-2026',
    publisherUrl: FOMC_HISTORY_URL,
    format: 'csv',
    mirrorPath: 'calendar/fomc_decision_dates_2000_2026.csv',
  },
} satisfies Record<string, SourceEntry>;

/** A file a part read: a publisher's download or mirror copy, or one of our fact files. */
export type PartFile = Pick<SourceFile, 'entry' | 'checksum'>;

export interface PartOutcome {
  events: CalendarEventRecord[];
  files: PartFile[];
  /** The publisher's vintage, or when our fact file was last checked against the publisher. */
  asOf?: string;
  /** What the dataset record keeps about this part (other releases, years not found...). */
  details?: Record<string, unknown>;
  /** Problems that did not stop the part, one sentence each. */
  warnings?: string[];
}

export interface PartInput {
  context: SyncContext;
  /** Folder of the calendar's fact files (data/calendar). */
  factsDir: string;
  /** CPI reference months by release day, from BLS's CPI release table when it was read. */
  cpiReferenceMonths: ReadonlyMap<string, string>;
}

export interface CalendarPart {
  /** Stored as each row's `origin`. */
  id: string;
  /** Origins older versions gave this part's rows (cleaned up like the part's own). */
  legacyOrigins?: readonly string[];
  title: string;
  publisher: string;
  series: readonly SeriesId[];
  /** `not-configured`: this install does not use the source (e.g. a mirror-only file without a mirror). */
  load(input: PartInput): Promise<PartOutcome | 'not-configured'>;
}

/** A source this part cannot do without: absent is an error that names where it was looked for. */
async function requireSource(context: SyncContext, entry: SourceEntry): Promise<SourceFile> {
  const file = await context.readOptionalSource(entry);
  if (!file) throw new ValidationError(`not found at ${context.config.sourceDir === undefined ? entry.publisherUrl : entry.mirrorPath}`);
  return file;
}

function factFile(factsDir: string, relative: string, publisherUrl: string): { text: string; file: PartFile; label: string } {
  let text: string;
  try {
    text = fs.readFileSync(path.join(factsDir, relative), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new ValidationError(`data/calendar/${relative}: file not found`);
    throw error;
  }
  const id = `fact-${relative.replace(/\.json$/, '').replace(/[/\\]/g, '-')}`;
  return {
    text,
    label: `data/calendar/${relative}`,
    file: { entry: { id, publisherUrl, format: 'json', mirrorPath: `data/calendar/${relative}` }, checksum: sha256(text) },
  };
}

/** Every mirror row (year,meeting_start,decision_date) must equal a fact-file meeting. */
export function crossCheckFomcMirror(text: string, meetings: readonly FomcMeeting[], file: string): void {
  const known = new Set(meetings.map((meeting) => `${meeting.start},${meeting.decision}`));
  for (const { line, fields } of parseDelimited(text, ',', file).slice(1)) {
    const [start, decision] = fields.slice(1, 3).map((field) => field.trim());
    if (!start || !decision) continue;
    if (!known.has(`${start},${decision}`)) {
      throw new ValidationError(`${file}:${line}: FOMC meeting ${start}/${decision} is not in data/calendar/fomc-meetings.json`);
    }
  }
}

/** Every year 2021-2027 has its eight scheduled meetings; April 28-29, 2026 is there and May 6 is not. */
function checkFomcEvents(events: readonly CalendarEventRecord[]): void {
  for (let year = 2021; year <= 2027; year += 1) {
    const count = events.filter((event) => event.date.startsWith(`${year}-`)).length;
    if (count < 8) throw new ValidationError(`${count} FOMC decisions in ${year}, expected 8 scheduled meetings`);
  }
  if (!events.some((event) => event.date === '2026-04-29'))
    throw new ValidationError('no FOMC decision on 2026-04-29 (the Fed scheduled April 28-29, 2026)');
  if (events.some((event) => event.date === '2026-05-06'))
    throw new ValidationError('2026-05-06 is not an FOMC decision date (the Fed scheduled April 28-29, 2026)');
}

const fomcPart: CalendarPart = {
  id: 'fomc',
  legacyOrigins: ['fomc-fact-file', 'fed-fomc-calendar'],
  title: 'FOMC meetings (data/calendar/fomc-meetings.json, the Fed calendar page when readable)',
  publisher: 'Federal Reserve',
  series: ['fomc'],
  async load({ context, factsDir }) {
    const facts = factFile(factsDir, 'fomc-meetings.json', FED_CALENDAR_URL);
    const fomcFile = FomcFileSchema.parse(JSON.parse(facts.text));
    const files: PartFile[] = [facts.file];
    const warnings: string[] = [];
    const byYear = new Map(
      fomcFile.years.map((year) => [year.year, { meetings: year.meetings as FomcMeeting[], sourceUrl: year.sourceUrl }]),
    );
    // The Fed's page replaces a year when it can be read; an unreadable page leaves the fact file in charge.
    try {
      const page = await context.readOptionalSource(CALENDAR_SOURCES.fedPage);
      if (page) {
        for (const [year, meetings] of parseFedCalendarPage(page.bytes.toString('utf8'), page.origin))
          byYear.set(year, { meetings, sourceUrl: FED_CALENDAR_URL });
        files.push(page);
      }
    } catch (error) {
      if (!isPartFailure(error)) throw error;
      warnings.push(`The Federal Reserve calendar page could not be used (${describe(error)}); the fact file's meetings are served.`);
    }
    if (context.config.sourceDir !== undefined) {
      const mirror = await context.readOptionalSource(CALENDAR_SOURCES.fomcMirror);
      if (mirror)
        crossCheckFomcMirror(
          mirror.bytes.toString('utf8'),
          fomcFile.years.flatMap((year) => year.meetings),
          mirror.origin,
        );
    }
    const events = [...byYear.values()].flatMap(({ meetings, sourceUrl }) => meetings.map((meeting) => fomcEvent(meeting, sourceUrl)));
    checkFomcEvents(events);
    return { events, files, asOf: fomcFile.asOf, warnings };
  },
};

/** FOMC decisions before the fact file's first year (2000-2020, unscheduled ones included); mirror-only, like the CPI history. */
const fomcHistoryPart: CalendarPart = {
  id: CALENDAR_SOURCES.fomcHistory.id,
  title: 'FOMC decision days before the fact file (calendar/fomc_decision_dates_2000_2026.csv)',
  publisher: 'Federal Reserve',
  series: ['fomc'],
  async load({ context, factsDir }) {
    if (context.config.sourceDir === undefined) return 'not-configured';
    const file = await requireSource(context, CALENDAR_SOURCES.fomcHistory);
    const facts = FomcFileSchema.parse(JSON.parse(factFile(factsDir, 'fomc-meetings.json', FED_CALENDAR_URL).text));
    const firstFactYear = Math.min(...facts.years.map((year) => year.year));
    const decisions = new Set(facts.years.flatMap((year) => year.meetings.map((meeting) => meeting.decision)));
    const history = fomcHistoryFromCsv(file.bytes.toString('utf8'), file.origin, firstFactYear, decisions);
    if (!history.events.some((event) => event.date === '2020-03-15'))
      throw new ValidationError(`${file.origin}: expected the unscheduled FOMC decision of 2020-03-15`);
    // Rows the fact file contradicts (its notes name 2026-05-06) are kept in the record, not raised on every sync.
    return {
      events: history.events,
      files: [file],
      details: { before: firstFactYear, agreedWithFactFile: history.agreed, notInFactFile: history.disagreed },
    };
  },
};

const cpiHistoryPart: CalendarPart = {
  id: CALENDAR_SOURCES.cpiHistory.id,
  title: 'BLS CPI release history (calendar/us_cpi_release_dates.csv)',
  publisher: 'Bureau of Labor Statistics',
  series: ['cpi'],
  async load({ context }) {
    if (context.config.sourceDir === undefined) return 'not-configured';
    const file = await requireSource(context, CALENDAR_SOURCES.cpiHistory);
    const history = cpiEventsFromCsv(file.bytes.toString('utf8'), file.origin);
    if (!history.events.some((event) => event.date === '2024-02-13')) {
      throw new ValidationError(`${file.origin}: expected the January 2024 CPI release on 2024-02-13`);
    }
    return {
      events: history.events,
      files: [file],
      details: { excludedRows: history.excluded, referenceMonths: Object.fromEntries(history.referenceMonths) },
    };
  },
};

const blsFeedPart: CalendarPart = {
  id: CALENDAR_SOURCES.blsFeed.id,
  title: 'BLS release calendar (bls.ics)',
  publisher: 'Bureau of Labor Statistics',
  series: [...new Set(Object.values(BLS_RELEASE_NAMES))],
  async load({ context, cpiReferenceMonths }) {
    const file = await requireSource(context, CALENDAR_SOURCES.blsFeed);
    const feed = blsEventsFromIcs(file.bytes.toString('utf8'), file.origin, cpiReferenceMonths);
    return { events: feed.events, files: [file], details: { span: feed.span, otherReleases: feed.otherReleases } };
  },
};

function housingPart(publisher: HousingPublisher): CalendarPart {
  return {
    id: `${publisher.id}-release-schedule`,
    legacyOrigins: ['housing-fact-file'],
    title: `${publisher.name} release schedule (data/calendar/housing/${publisher.file})`,
    publisher: publisher.name,
    series: publisher.series,
    async load({ factsDir }) {
      const relative = path.relative(factsDir, housingFactPath(factsDir, publisher));
      const facts = factFile(factsDir, relative, SERIES[publisher.series[0] ?? 'housing_starts'].sourceUrl);
      const parsed = readHousingFacts(facts.text, facts.label, publisher);
      return {
        events: housingEvents(parsed),
        files: [facts.file],
        asOf: parsed.asOf,
        details: { years: parsed.years.map((year) => year.year), yearsNotFound: parsed.yearsNotFound },
      };
    },
  };
}

const pmmsPart: CalendarPart = {
  id: 'freddie-mac-pmms',
  title: "Freddie Mac PMMS release days (derived from Freddie Mac's rule, data/calendar/pmms-schedule.json)",
  publisher: 'Freddie Mac',
  series: ['pmms'],
  async load({ factsDir }) {
    const facts = factFile(factsDir, 'pmms-schedule.json', 'https://www.freddiemac.com/pmms/pmms_faqs');
    const schedule = PmmsScheduleSchema.parse(JSON.parse(facts.text));
    return {
      events: pmmsEvents(schedule),
      files: [facts.file],
      asOf: schedule.asOf,
      details: { years: schedule.years.map((year) => year.year), rule: schedule.rule.sourceUrl },
    };
  },
};

/** In load order: the CPI history before the feed, whose CPI releases it names the month of. */
export const CALENDAR_PARTS: readonly CalendarPart[] = [
  fomcPart,
  fomcHistoryPart,
  cpiHistoryPart,
  blsFeedPart,
  ...HOUSING_PUBLISHERS.map(housingPart),
  pmmsPart,
];

/** Errors that mean "this part's file is missing or wrong" (anything else is a fault of ours). */
export function isPartFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return ['SourceFormatError', 'ValidationError', 'SourceUnavailableError', 'ZodError', 'SyntaxError'].includes(error.name);
}

/** One clause saying what is wrong, without a stack or a schema dump. */
export function describe(error: unknown): string {
  const issues = (error as { issues?: { path: PropertyKey[]; message: string }[] }).issues;
  if (Array.isArray(issues) && issues[0]) {
    const first = issues[0];
    return `${first.path.length > 0 ? `${first.path.map(String).join('.')}: ` : ''}${first.message}${issues.length > 1 ? ` (and ${issues.length - 1} more)` : ''}`;
  }
  return error instanceof Error ? error.message : String(error);
}
