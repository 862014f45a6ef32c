// BLS release dates from BLS's iCalendar feed (bls.gov/schedule/news_release/bls.ics), read with
// ical.js. The feed's SUMMARY is the bare release name ("Employment Situation", "Consumer Price
// Index"): it carries no reference month, and BLS documents no fixed lag that would give one (the
// 2025 lapse in appropriations moved the September jobs report to November), so feed events carry
// none unless BLS's own CPI release table names it for the same day (see cpiReferenceMonths).
import ICAL from 'ical.js';
import { SourceFormatError, ValidationError } from '../sync/errors.ts';
import { seriesEvent, type CalendarEventRecord, type SeriesId } from './series.ts';
import { isoDay } from '../platform/dates.ts';

export const BLS_ICS_URL = 'https://www.bls.gov/schedule/news_release/bls.ics';

/**
 * Release names exactly as the feed writes them (whitespace collapsed), mapped to series. Every
 * other name in the feed (county wages, union membership, time use...) is counted, not served.
 */
export const BLS_RELEASE_NAMES: Readonly<Record<string, SeriesId>> = {
  'Consumer Price Index': 'cpi',
  'Employment Situation': 'employment_situation',
  'Producer Price Index': 'ppi',
  'Job Openings and Labor Turnover Survey': 'jolts',
  'Employment Cost Index': 'eci',
  'U.S. Import and Export Price Indexes': 'import_export_prices',
  'Real Earnings': 'real_earnings',
  'Productivity and Costs': 'productivity',
  'State Employment and Unemployment (Monthly)': 'state_employment',
};

/** Releases the calendar cannot do without: a feed that lacks them is not BLS's schedule. */
const REQUIRED_SERIES: readonly SeriesId[] = ['employment_situation', 'cpi'];

export interface BlsFeedResult {
  events: CalendarEventRecord[];
  /** Names of the feed's other releases, with how often each occurs. */
  otherReleases: Record<string, number>;
  /** First and last release day in the feed: the span the feed speaks for. */
  span: { first: string; last: string };
}

const pad = (value: number): string => String(value).padStart(2, '0');

/** The release day as BLS states it: DTSTART is Eastern wall-clock time (TZID=US-Eastern) or a date. */
function releaseDay(value: unknown, file: string, name: string): string {
  if (!(value instanceof ICAL.Time)) throw new SourceFormatError(file, undefined, `release "${name}" has no DTSTART date`);
  const day = `${value.year}-${pad(value.month)}-${pad(value.day)}`;
  const check = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(check.getTime()) || isoDay(check) !== day) {
    throw new SourceFormatError(file, undefined, `release "${name}" has an impossible date ${day}`);
  }
  return day;
}

function parseCalendar(text: string, file: string): ICAL.Component {
  try {
    const root = new ICAL.Component(ICAL.parse(text));
    if (root.name !== 'vcalendar') throw new Error(`expected a VCALENDAR, found ${root.name.toUpperCase()}`);
    return root;
  } catch (error) {
    throw new SourceFormatError(file, undefined, `not a readable iCalendar file: ${(error as Error).message}`);
  }
}

/**
 * Maps the feed's VEVENTs to calendar events (one per series and day). `referenceMonths` names the
 * reference month of a CPI release by its day, when BLS's CPI release table gives it.
 */
export function blsEventsFromIcs(text: string, file = 'bls.ics', referenceMonths: ReadonlyMap<string, string> = new Map()): BlsFeedResult {
  const events = new Map<string, CalendarEventRecord>();
  const otherReleases: Record<string, number> = {};
  const days: string[] = [];
  for (const vevent of parseCalendar(text, file).getAllSubcomponents('vevent')) {
    const summary = vevent.getFirstPropertyValue('summary');
    const name = typeof summary === 'string' ? summary.replace(/\s+/g, ' ').trim() : '';
    if (name === '') throw new SourceFormatError(file, undefined, 'a release without a SUMMARY (name)');
    let value: unknown;
    try {
      value = vevent.getFirstPropertyValue('dtstart');
    } catch (error) {
      throw new SourceFormatError(file, undefined, `release "${name}" has an unreadable DTSTART: ${(error as Error).message}`);
    }
    const day = releaseDay(value, file, name);
    days.push(day);
    const series = BLS_RELEASE_NAMES[name];
    if (!series) {
      otherReleases[name] = (otherReleases[name] ?? 0) + 1;
      continue;
    }
    const period = series === 'cpi' ? referenceMonths.get(day) : undefined;
    events.set(`${series}|${day}`, seriesEvent(series, day, period, undefined, BLS_ICS_URL));
  }
  for (const series of REQUIRED_SERIES) {
    if (![...events.values()].some((event) => event.series === series)) {
      throw new ValidationError(`${file}: no ${series === 'cpi' ? 'Consumer Price Index' : 'Employment Situation'} release in the feed`);
    }
  }
  days.sort();
  return { events: [...events.values()], otherReleases, span: { first: days[0] ?? '', last: days.at(-1) ?? '' } };
}
