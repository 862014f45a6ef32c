// The reader's calendar answers: the events of each time asked (a release by name, Fed decisions),
// counted when asked how many, and the days between two events. A release named with its reference
// month ("the CPI for August 2024") is found by that month in the event's name, though it comes out
// the month after. Every date comes from the calendar service.
import type { CalendarEvent } from '../../calendar/contract.ts';
import type { DatasetVersion } from '../../platform/contract/versions.ts';
import type { BuiltinDeps } from './draft.ts';
import { formatDate } from './draft.ts';
import type { CalendarAsk } from './reader/plan-types.ts';
import { addDays, DAY_MS, daysBetween, isoDay } from '../../platform/dates.ts';
import { MONTH_NAMES } from '../../platform/contract/months.ts';

interface Found {
  ask: CalendarAsk;
  events: CalendarEvent[];
}

async function eventsFor(
  ask: CalendarAsk,
  deps: BuiltinDeps,
): Promise<{ events: CalendarEvent[]; versions: readonly DatasetVersion[]; url: string }> {
  // Counted releases are those dated in the month ("how many CPI releases in March 2026"), not the month's own.
  const monthly = !ask.count && ask.from.slice(0, 7) === ask.to.slice(0, 7) && ask.from.endsWith('-01');
  // A month's release may come out in the following weeks: look there for its reference month.
  const to = monthly && ask.names.length > 0 ? addDays(ask.to, 45) : ask.to;
  const answer = await deps.services.calendar.answer({
    from: ask.from,
    to,
    ...(ask.category ? { category: [ask.category] } : {}),
    limit: 200,
  });
  const named = answer.events.filter((event) => ask.names.length === 0 || ask.names.some((name) => event.name.includes(name)));
  const reference = `${MONTH_NAMES[Number(ask.from.slice(5, 7)) - 1]} ${ask.from.slice(0, 4)}`;
  const byReference = monthly ? named.filter((event) => event.name.includes(reference)) : [];
  const within = byReference.length > 0 ? byReference : named.filter((event) => event.date <= ask.to);
  const events = ask.first || ask.pick === 'first' ? within.slice(0, 1) : ask.pick === 'last' ? within.slice(-1) : within;
  const url = `${deps.config.baseUrl}/api/v1/calendar?from=${ask.from}&to=${to}${ask.category ? `&category=${ask.category}` : ''}`;
  return { events, versions: answer.dataset_versions, url };
}

const line = (event: CalendarEvent) => `- ${formatDate(event.date)} (${event.date}): ${event.name}`;

const weekday = (day: string) => new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', { weekday: 'long', timeZone: 'UTC' });

/** "The next CPI release" or one picked: its weekday, and the days from today to it (or since it). */
function fromToday(ask: CalendarAsk, events: readonly CalendarEvent[], today: Date): string[] {
  const [event] = events;
  // A release picked from a past span is answered by its day; the days from today are for one still to come.
  if (!event || events.length !== 1 || !(ask.first || (ask.pick && event.date >= isoDay(today)))) return [];
  const days = daysBetween(isoDay(today), event.date);
  const distance =
    days === 0
      ? 'today'
      : days > 0
        ? `${days} ${days === 1 ? 'day' : 'days'} from today`
        : `${-days} ${days === -1 ? 'day' : 'days'} before today`;
  return [`That is a ${weekday(event.date)}, ${distance} (${formatDate(isoDay(today))}).`];
}

/** The releases of one kind between two events (exclusive): the bounds found first, then what came out between them. */
async function answerBetween(
  asks: readonly CalendarAsk[],
  deps: BuiltinDeps,
): Promise<{ text: string; sources: string[]; versions: DatasetVersion[] }> {
  const [firstAsk, secondAsk, counted] = asks as [CalendarAsk, CalendarAsk, CalendarAsk];
  const [first, second] = await Promise.all([eventsFor(firstAsk, deps), eventsFor(secondAsk, deps)]);
  const start = first.events[0];
  const end = second.events[0];
  if (!start || !end)
    return {
      text: `The calendar holds no ${!start ? firstAsk.label : secondAsk.label} event to count from, and I won't guess its date.`,
      sources: [first.url, second.url],
      versions: [...first.versions],
    };
  const from = addDays(start.date < end.date ? start.date : end.date, 1);
  const to = addDays(start.date < end.date ? end.date : start.date, -1);
  const inside = await eventsFor({ ...counted, from, to }, deps);
  const what = counted.names[0] ? `${counted.names[0]} releases` : 'releases';
  const head = `**${inside.events.length}** ${what} came out between ${start.name} on ${formatDate(start.date)} and ${end.name} on ${formatDate(end.date)}${inside.events.length > 0 ? ':' : '.'}`;
  return {
    text: [head, inside.events.map(line).join('\n')].filter(Boolean).join('\n'),
    sources: [first.url, second.url, inside.url],
    versions: [...first.versions],
  };
}

const singular = (what: string) => what.replace('meetings', 'meeting').replace('releases', 'release');

/** The line before the events: the next one, how many there were (or are still to come), or which. */
function headOf(ask: CalendarAsk, count: number, what: string, today: Date): string {
  if (ask.first) return `The next of the ${what}, from ${formatDate(ask.from)}:`;
  if (ask.pick) return `The ${ask.pick} ${singular(what)} ${ask.label}:`;
  if (!ask.count)
    return `${what.charAt(0).toUpperCase()}${what.slice(1)} for ${ask.label} (${formatDate(ask.from)} to ${formatDate(ask.to)}):`;
  const ahead = ask.label.startsWith('what is left') || ask.from > isoDay(today);
  const verb = ahead ? (count === 1 ? 'is' : 'are') : count === 1 ? 'was' : 'were';
  return `There ${verb} ${count} ${count === 1 ? singular(what) : what} in ${ask.label}:`;
}

/** An event as the question picked it ("the last FOMC rate decision of 2024"), or by its name. */
const named = (entry: Found, event: CalendarEvent) =>
  entry.ask.pick ? `the ${entry.ask.pick} ${event.name} ${entry.ask.label}` : event.name;

/** The days between the first event of each of two asks, and which came first. */
function daysApart(found: readonly Found[]): string | undefined {
  const [a, b] = found;
  const first = a?.events[0];
  const second = b?.events[0];
  if (!a || !b || !first || !second) return undefined;
  const days = Math.round(Math.abs(Date.parse(second.date) - Date.parse(first.date)) / DAY_MS);
  const order = first.date === second.date ? 'the same day as' : first.date < second.date ? 'before' : 'after';
  const [one, other] = [named(a, first), named(b, second)];
  const head = `${one.charAt(0).toUpperCase()}${one.slice(1)} came out on ${formatDate(first.date)} and ${other} on ${formatDate(second.date)}: **${days} days** apart (${days === 7 ? 'one week' : `${days} calendar days`})`;
  return `${head}, so ${one} came ${order === 'the same day as' ? 'on the same day as' : `**${order}**`} ${other}.`;
}

/** Days searched after an event for the next one: a year holds every release at least once. */
const AFTER_SPAN = 400;

/** "the next CPI release after it": the days after the event the earlier ask found. */
function afterFound(ask: CalendarAsk, found: readonly Found[]): CalendarAsk {
  if (ask.afterAsk === undefined) return ask;
  const event = found[ask.afterAsk]?.events[0];
  if (!event) return ask;
  const from = addDays(event.date, 1);
  return { ...ask, from, to: addDays(event.date, AFTER_SPAN), label: `after ${formatDate(event.date)}` };
}

/** What the events of an ask are called. */
function whatOf(ask: CalendarAsk): string {
  if (ask.category === 'fed') return 'FOMC meetings with a rate decision';
  if (ask.title) return `${ask.title} releases`;
  return ask.names[0] ? `${ask.names[0]} releases` : 'economic data releases';
}

/** Each ask's span and how many events it holds (to check a count the question took for granted). */
export interface Tally {
  count: number;
  what: string;
  label: string;
  from: string;
  to: string;
}

export async function answerCalendarAsks(
  asks: readonly CalendarAsk[],
  daysBetween: boolean,
  deps: BuiltinDeps,
  between = false,
): Promise<{ text: string; sources: string[]; versions: DatasetVersion[]; tallies?: Tally[] }> {
  if (between && asks.length === 3) return answerBetween(asks, deps);
  const found: Found[] = [];
  const sources = new Set<string>();
  const versions: DatasetVersion[] = [];
  for (const written of asks) {
    const ask = afterFound(written, found);
    const { events, versions: own, url } = await eventsFor(ask, deps);
    found.push({ ask, events });
    sources.add(url);
    for (const event of events) sources.add(event.source_url);
    for (const version of own) if (!versions.some((known) => known.dataset === version.dataset)) versions.push(version);
  }
  const parts: string[] = [];
  if (daysBetween) {
    const between = daysApart(found);
    if (between) parts.push(between);
  }
  for (const { ask, events } of found) {
    const what = whatOf(ask);
    if (events.length === 0) {
      parts.push(
        `The calendar holds no ${what} for ${ask.label} (${formatDate(ask.from)} to ${formatDate(ask.to)}): they have not been published, and I won't guess dates the publishers have not posted.`,
      );
      continue;
    }
    const head = headOf(ask, events.length, what, deps.clock());
    if (!daysBetween) parts.push([head, events.map(line).join('\n'), ...fromToday(ask, events, deps.clock())].join('\n'));
  }
  const tallies = found.map(({ ask, events }) => ({
    count: events.length,
    what: whatOf(ask),
    label: ask.label,
    from: ask.from,
    to: ask.to,
  }));
  return { text: parts.join('\n\n'), sources: [...sources], versions, tallies };
}
