// BLS release schedules from BLS's iCalendar feed (bls.gov/schedule/news_release/bls.ics): an
// RFC 5545 reader (line unfolding, parameters, text unescaping) and the mapping of release titles
// ("Consumer Price Index for October 2026") to calendar series.
import { SourceFormatError } from '../sync/errors.ts';
import { seriesEvent, type CalendarEventRecord, type SeriesId } from './series.ts';

export const BLS_ICS_URL = 'https://www.bls.gov/schedule/news_release/bls.ics';

export interface IcsProperty {
  name: string;
  params: Record<string, string>;
  value: string;
  line: number;
}

export interface IcsEvent {
  line: number;
  properties: IcsProperty[];
}

/** Unfolds RFC 5545 content lines (a CRLF/LF followed by a space or tab continues the line). */
export function unfoldLines(text: string): { text: string; line: number }[] {
  const lines: { text: string; line: number }[] = [];
  text.replace(/^\uFEFF/, '').split(/\r?\n/).forEach((raw, index) => {
    const last = lines[lines.length - 1];
    if ((raw.startsWith(' ') || raw.startsWith('\t')) && last) last.text += raw.slice(1);
    else if (raw.length > 0) lines.push({ text: raw, line: index + 1 });
  });
  return lines;
}

function unescapeText(value: string): string {
  return value.replace(/\\([\\;,nN])/g, (_match, char: string) => (char === 'n' || char === 'N' ? '\n' : char));
}

function parseContentLine(text: string, line: number, file: string): IcsProperty {
  // The name and parameters end at the first colon outside a quoted parameter value.
  let inQuotes = false;
  let colon = -1;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (char === '"') inQuotes = !inQuotes;
    else if (char === ':' && !inQuotes) {
      colon = index;
      break;
    }
  }
  if (colon <= 0) throw new SourceFormatError(file, line, `not an iCalendar content line: "${text.slice(0, 60)}"`);
  const [name = '', ...rawParams] = text.slice(0, colon).split(';');
  const params: Record<string, string> = {};
  for (const param of rawParams) {
    const [key, ...rest] = param.split('=');
    if (key) params[key.toUpperCase()] = rest.join('=').replace(/^"|"$/g, '');
  }
  return { name: name.toUpperCase(), params, value: text.slice(colon + 1), line };
}

/** The VEVENTs of an iCalendar text; throws SourceFormatError with the line on malformed input. */
export function parseIcsEvents(text: string, file = 'bls.ics'): IcsEvent[] {
  const lines = unfoldLines(text);
  if (lines[0]?.text.trim().toUpperCase() !== 'BEGIN:VCALENDAR') {
    throw new SourceFormatError(file, lines[0]?.line ?? 1, 'expected BEGIN:VCALENDAR');
  }
  const events: IcsEvent[] = [];
  let current: IcsEvent | undefined;
  let sawEnd = false;
  for (const { text: content, line } of lines) {
    const property = parseContentLine(content, line, file);
    if (property.name === 'BEGIN' && property.value.toUpperCase() === 'VEVENT') {
      if (current) throw new SourceFormatError(file, line, 'VEVENT inside VEVENT');
      current = { line, properties: [] };
    } else if (property.name === 'END' && property.value.toUpperCase() === 'VEVENT') {
      if (!current) throw new SourceFormatError(file, line, 'END:VEVENT without BEGIN:VEVENT');
      events.push(current);
      current = undefined;
    } else if (property.name === 'END' && property.value.toUpperCase() === 'VCALENDAR') {
      sawEnd = true;
    } else if (current) {
      current.properties.push(property);
    }
  }
  if (current) throw new SourceFormatError(file, current.line, 'VEVENT is not closed (truncated file?)');
  if (!sawEnd) throw new SourceFormatError(file, lines[lines.length - 1]?.line, 'missing END:VCALENDAR (truncated file?)');
  return events;
}

/**
 * Release names as BLS's feed writes them in SUMMARY ("Consumer Price Index", "State Employment
 * and Unemployment (Monthly)"), mapped to series. The feed carries no reference period; a title
 * that does name one ("... for October 2026") has it captured.
 */
const TITLE_RULES: [RegExp, SeriesId][] = [
  [/^Consumer Price Index(?: for (.+))?$/i, 'cpi'],
  [/^(?:The )?Employment Situation(?: for (.+))?$/i, 'employment_situation'],
  [/^Producer Price Index(?: for (.+))?$/i, 'ppi'],
  [/^Job Openings and Labor Turnover Survey(?: for (.+))?$/i, 'jolts'],
  [/^Employment Cost Index(?: for (.+))?$/i, 'eci'],
  [/^U\.?S\.? Import and Export Price Indexes(?: for (.+))?$/i, 'import_export_prices'],
  [/^Real Earnings(?: for (.+))?$/i, 'real_earnings'],
  [/^Productivity and Costs(?: \(.*?\))?(?: for (.+))?$/i, 'productivity'],
  [/^State Employment and Unemployment(?: \(Monthly\))?(?: for (.+))?$/i, 'state_employment'],
];

export interface BlsFeedResult {
  events: CalendarEventRecord[];
  /** VEVENTs that are other BLS releases (not tracked by this calendar). */
  skipped: number;
}

function dateOf(property: IcsProperty | undefined, file: string, eventLine: number): string {
  const match = property ? /^(\d{4})(\d{2})(\d{2})/.exec(property.value) : null;
  if (!property || !match) throw new SourceFormatError(file, property?.line ?? eventLine, 'VEVENT without a valid DTSTART');
  const date = `${match[1]}-${match[2]}-${match[3]}`;
  if (Number.isNaN(Date.parse(date)) || new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10) !== date) {
    throw new SourceFormatError(file, property.line, `impossible date in DTSTART "${property.value}"`);
  }
  // DTSTART carries Eastern local time (TZID=US-Eastern) or a date: the first 8 digits are the release day.
  return date;
}

/** Maps the feed's VEVENTs to calendar events (one per series and day). */
export function blsEventsFromIcs(text: string, file = 'bls.ics'): BlsFeedResult {
  const events = new Map<string, CalendarEventRecord>();
  let skipped = 0;
  for (const event of parseIcsEvents(text, file)) {
    const summary = event.properties.find((property) => property.name === 'SUMMARY');
    if (!summary) throw new SourceFormatError(file, event.line, 'VEVENT without SUMMARY');
    const title = unescapeText(summary.value).trim();
    const rule = TITLE_RULES.find(([pattern]) => pattern.test(title));
    if (!rule) {
      skipped += 1;
      continue;
    }
    const period = rule[0].exec(title)?.[1]?.trim();
    const date = dateOf(event.properties.find((property) => property.name === 'DTSTART'), file, event.line);
    events.set(`${rule[1]}|${date}`, seriesEvent(rule[1], date, period, undefined, BLS_ICS_URL));
  }
  return { events: [...events.values()], skipped };
}
