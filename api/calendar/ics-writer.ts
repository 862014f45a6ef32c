// Writes calendar events as an RFC 5545 iCalendar document through ical.js (the library that also
// reads the BLS feed): all-day events (DTSTART;VALUE=DATE), text escaped and lines folded by it, CRLF
// line ends and a final CRLF.
import ICAL from 'ical.js';

export interface IcsEventInput {
  uid: string;
  date: string;
  summary: string;
  description: string;
  categories: string[];
  url?: string;
}

/**
 * ical.js folds after `foldLength` octets of content and then adds the continuation's leading space,
 * so its default of 75 gives 76-octet continuation lines; RFC 5545 §3.1 counts the space in the 75.
 * Folding after 74 keeps every physical line within 75 octets (ical.js never splits a UTF-8
 * character). The setting is the library's, so it is changed only while a document is written.
 */
const FOLD_AFTER_OCTETS = 74;

function withRfcFolding<T>(write: () => T): T {
  const previous = ICAL.foldLength;
  ICAL.foldLength = FOLD_AFTER_OCTETS;
  try {
    return write();
  } finally {
    ICAL.foldLength = previous;
  }
}

/** Folds one content line: at most 75 octets per physical line, continuations start with a space. */
export function foldLine(line: string): string {
  return withRfcFolding(() => ICAL.helpers.foldline(line));
}

/**
 * X-WR-CALNAME (the name calendar apps show) is not in RFC 5545, so ical.js would write it raw as an
 * unknown property, or as `X-WR-CALNAME;VALUE=TEXT:` if made text; declaring it text in ical.js's
 * iCalendar design escapes it like SUMMARY and keeps the plain form clients expect.
 */
ICAL.design.icalendar.property['x-wr-calname'] ??= { defaultType: 'text' };

function allDay(iso: string, addDays = 0): ICAL.Time {
  const time = ICAL.Time.fromDateString(iso);
  if (addDays !== 0) time.adjust(addDays, 0, 0, 0);
  return time;
}

function vevent(event: IcsEventInput, dtstamp: ICAL.Time): ICAL.Component {
  const component = new ICAL.Component('vevent');
  const details = new ICAL.Event(component);
  details.uid = event.uid;
  component.updatePropertyWithValue('dtstamp', dtstamp);
  details.startDate = allDay(event.date);
  details.endDate = allDay(event.date, 1);
  details.summary = event.summary;
  details.description = event.description;
  const categories = new ICAL.Property('categories');
  categories.setValues(event.categories);
  component.addProperty(categories);
  if (event.url) component.updatePropertyWithValue('url', event.url);
  component.updatePropertyWithValue('transp', 'TRANSPARENT');
  return component;
}

/** `stamp` is DTSTAMP for every event (the dataset's load time, so the body is stable between syncs). */
export function writeIcs(events: readonly IcsEventInput[], { name, stamp }: { name: string; stamp: Date }): string {
  const calendar = new ICAL.Component('vcalendar');
  calendar.updatePropertyWithValue('version', '2.0');
  calendar.updatePropertyWithValue('prodid', '-//Mortgage Data Service//Economic Calendar//EN');
  calendar.updatePropertyWithValue('calscale', 'GREGORIAN');
  calendar.updatePropertyWithValue('method', 'PUBLISH');
  calendar.updatePropertyWithValue('x-wr-calname', name);
  const dtstamp = ICAL.Time.fromJSDate(stamp, true);
  for (const event of events) calendar.addSubcomponent(vevent(event, dtstamp));
  return `${withRfcFolding(() => calendar.toString())}\r\n`;
}
