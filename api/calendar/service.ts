// The economic calendar capability: events by date range, impact and category, with their sources.
// Shared by GET /calendar, the MCP tool get_economic_calendar and /ask.
import type { Database } from '../platform/db/database.ts';
import type { DatasetStatus } from '../platform/datasets.ts';
import { BadRequestError } from '../platform/http/errors.ts';
import { CALENDAR_DATASET } from './sync.ts';
import { CATEGORIES, IMPACTS, type Category, type Impact, type SeriesId } from './series.ts';

/** Spec 2.4: exactly these fields. */
export interface CalendarEvent {
  name: string;
  date: string;
  impact: Impact;
  category: Category;
  description: string;
}

export interface CalendarEventWithSource extends CalendarEvent {
  series: SeriesId;
  sourceUrl: string;
}

export interface CalendarQuery {
  /** YYYY-MM-DD inclusive; default today (service clock, UTC). */
  from?: string;
  /** YYYY-MM-DD inclusive; default from + 60 days. */
  to?: string;
  impact?: Impact[];
  category?: Category[];
  /** 1..500, default 100. */
  limit?: number;
}

export interface CalendarResult {
  from: string;
  to: string;
  events: CalendarEventWithSource[];
  /** Distinct source URLs of the events returned. */
  sources: string[];
  asOf: string | null;
  loadedAt: string;
}

export interface CalendarService {
  getEvents(query: CalendarQuery): Promise<CalendarResult>;
}

export const DEFAULT_WINDOW_DAYS = 60;
export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 500;

export function addDays(iso: string, days: number): string {
  const date = new Date(`${iso}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** True for a real calendar day written YYYY-MM-DD (rejects 2026-13-01 and 2026-02-30). */
export function isIsoDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

interface EventRow {
  series: SeriesId;
  date: string | Date;
  name: string;
  impact: Impact;
  category: Category;
  description: string;
  source_url: string;
}

const dayOf = (value: string | Date): string => (value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10));

export function createCalendarService({ db, datasets, clock }: { db: Database; datasets: DatasetStatus; clock: () => Date }): CalendarService {
  return {
    async getEvents(query) {
      const invalidDay = (name: string, value: string) =>
        new BadRequestError(`Invalid value for '${name}': ${JSON.stringify(value)}. Give a date as YYYY-MM-DD, e.g. 2026-12-01.`);
      const from = query.from ?? clock().toISOString().slice(0, 10);
      // Checked before the default 'to' is computed from it: addDays on an impossible day throws.
      if (!isIsoDay(from)) throw invalidDay('from', from);
      const to = query.to ?? addDays(from, DEFAULT_WINDOW_DAYS);
      if (!isIsoDay(to)) throw invalidDay('to', to);
      if (from > to) throw new BadRequestError(`'from' (${from}) is after 'to' (${to}); give from <= to.`);
      const limit = query.limit ?? DEFAULT_LIMIT;
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
        throw new BadRequestError(`Invalid value for 'limit': ${limit}. Give an integer from 1 to ${MAX_LIMIT}.`);
      }
      const impacts = query.impact?.length ? query.impact : [...IMPACTS];
      const categories = query.category?.length ? query.category : [...CATEGORIES];
      for (const impact of impacts) if (!IMPACTS.includes(impact)) throw new BadRequestError(`Invalid value for 'impact': ${JSON.stringify(impact)}. Valid values: ${IMPACTS.join(', ')}.`);
      for (const category of categories) if (!CATEGORIES.includes(category)) throw new BadRequestError(`Invalid value for 'category': ${JSON.stringify(category)}. Valid values: ${CATEGORIES.join(', ')}.`);

      const record = await datasets.require(CALENDAR_DATASET);
      // Dates travel as text so neither driver shifts them through a local-time Date.
      const { rows } = await db.query<EventRow>(
        `SELECT series, to_char(date, 'YYYY-MM-DD') AS date, name, impact, category, description, source_url
           FROM calendar_events
          WHERE date BETWEEN $1::date AND $2::date AND impact = ANY($3::text[]) AND category = ANY($4::text[])
          ORDER BY 2, name COLLATE "C"
          LIMIT $5`,
        [from, to, impacts, categories, limit],
      );
      const events = rows.map((row) => ({
        name: row.name,
        date: dayOf(row.date),
        impact: row.impact,
        category: row.category,
        description: row.description,
        series: row.series,
        sourceUrl: row.source_url,
      }));
      return {
        from,
        to,
        events,
        sources: [...new Set(events.map((event) => event.sourceUrl))],
        asOf: record.asOf,
        loadedAt: record.loadedAt,
      };
    },
  };
}
