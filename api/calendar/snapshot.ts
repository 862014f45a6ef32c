// Every calendar event in memory, read once per load of the `economic_calendar` dataset (a few
// hundred rows), so a request filters an array instead of querying the database.
import type { Queryable } from '../platform/db/database.ts';
import { SERIES, type CalendarEventRecord, type Category, type Impact } from './series.ts';

/** An event held in memory: the stored record. */
export type SnapshotEvent = CalendarEventRecord;

export interface CalendarSnapshot {
  /** The dataset load it was read from (load time and checksum): a new load means a new snapshot. */
  version: string;
  asOf: string | null;
  loadedAt: string;
  /** Sorted by date, then name in byte order (as `COLLATE "C"` sorts). */
  events: readonly SnapshotEvent[];
}

export interface EventFilter {
  from: string;
  to: string;
  impacts: ReadonlySet<Impact>;
  categories: ReadonlySet<Category>;
  limit: number;
}

/** An event as its table row, the shape loads are archived in (so archives already kept still read). */
type EventRow = Omit<CalendarEventRecord, 'sourceUrl'> & { source_url: string };

const byDateThenName = (a: SnapshotEvent, b: SnapshotEvent): number =>
  a.date < b.date ? -1 : a.date > b.date ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0;

/** What the `economic_calendar` dataset's load is archived as: every event. */
export interface CalendarArchive {
  events: EventRow[];
}

async function readEvents(db: Queryable): Promise<EventRow[]> {
  // Dates travel as text so neither driver shifts them through a local-time Date.
  const { rows } = await db.query<EventRow>(
    `SELECT series, to_char(date, 'YYYY-MM-DD') AS date, name, impact, category, description, source_url FROM calendar_events`,
  );
  return rows;
}

export const archiveCalendar = async (db: Queryable): Promise<CalendarArchive> => ({ events: await readEvents(db) });

export async function readCalendarSnapshot(
  db: Queryable,
  record: { version: string; asOf: string | null; loadedAt: string },
): Promise<CalendarSnapshot> {
  return calendarSnapshotOf(await readEvents(db), record);
}

/** The snapshot of event rows (read now or archived with a version). */
export function calendarSnapshotOf(
  rows: readonly EventRow[],
  record: { version: string; asOf: string | null; loadedAt: string },
): CalendarSnapshot {
  const events = rows
    .map((row) => ({
      series: row.series,
      date: String(row.date),
      name: row.name,
      impact: row.impact,
      category: row.category,
      description: row.description,
      sourceUrl: row.source_url,
    }))
    .sort(byDateThenName);
  return { version: record.version, asOf: record.asOf, loadedAt: record.loadedAt, events };
}

/** Index of the first event on or after `day` (binary search over the sorted events). */
function firstOnOrAfter(events: readonly SnapshotEvent[], day: string): number {
  let low = 0;
  let high = events.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((events[middle] as SnapshotEvent).date < day) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The events of the range that pass the filters, the first `limit` of them, and how many passed. */
export function selectEvents(snapshot: CalendarSnapshot, filter: EventFilter): { events: SnapshotEvent[]; total: number } {
  const events: SnapshotEvent[] = [];
  let total = 0;
  for (let index = firstOnOrAfter(snapshot.events, filter.from); index < snapshot.events.length; index += 1) {
    const event = snapshot.events[index] as SnapshotEvent;
    if (event.date > filter.to) break;
    if (!filter.impacts.has(event.impact) || !filter.categories.has(event.category)) continue;
    total += 1;
    if (events.length < filter.limit) events.push(event);
  }
  return { events, total };
}

/** The publisher of an event's series, to name its source. */
export function publisherOf(event: SnapshotEvent): string {
  return SERIES[event.series]?.publisher ?? 'Publisher';
}
