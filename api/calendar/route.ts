// GET /calendar: economic events (spec 2.4, contract "Calendar") as JSON or, with format=ics, as
// an iCalendar document. A thin face over the calendar service.
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { DATA_CACHE_CONTROL, type ApiRegistry } from '../platform/http/api-registry.ts';
import { writeIcs } from './ics-writer.ts';
import { DEFAULT_LIMIT, isIsoDay, MAX_LIMIT, type CalendarEvent } from './service.ts';
import { CATEGORIES, IMPACTS } from './series.ts';

const isoDay = () =>
  z
    .string()
    .refine(isIsoDay, { message: 'Give a real date as YYYY-MM-DD (month 01-12, a day that exists), e.g. 2026-12-01.' })
    .optional();

function commaList<const T extends readonly string[]>(values: T) {
  return z
    .string()
    .transform((raw, ctx) => {
      const items = [...new Set(raw.split(',').map((item) => item.trim().toLowerCase()).filter(Boolean))];
      const invalid = items.filter((item) => !values.includes(item));
      if (items.length === 0 || invalid.length > 0) {
        ctx.addIssue({ code: 'custom', message: `Valid values: ${values.join(', ')} (one, or several separated by commas).` });
        return z.NEVER;
      }
      return items as T[number][];
    })
    .optional();
}

export const CalendarQuerySchema = z
  .object({
    from: isoDay().describe('First day, YYYY-MM-DD, inclusive. Default: today (UTC).'),
    to: isoDay().describe('Last day, YYYY-MM-DD, inclusive. Default: `from` + 60 days.'),
    impact: commaList(IMPACTS).describe('high, medium or low; or a comma list such as `high,medium`.'),
    category: commaList(CATEGORIES).describe('fed, inflation, employment or housing; or a comma list.'),
    limit: z
      .string()
      .regex(/^\d{1,3}$/, { message: `Give an integer from 1 to ${MAX_LIMIT}.` })
      .transform(Number)
      .pipe(z.int().min(1, { message: `Give an integer from 1 to ${MAX_LIMIT}.` }).max(MAX_LIMIT, { message: `Give an integer from 1 to ${MAX_LIMIT}.` }))
      .optional()
      .describe(`Maximum number of events, 1-${MAX_LIMIT}. Default ${DEFAULT_LIMIT}.`),
    format: z.enum(['json', 'ics']).optional().describe('`json` (default) or `ics` for an iCalendar (text/calendar) feed.'),
  })
  .superRefine((query, ctx) => {
    if (query.from && query.to && query.from > query.to) {
      ctx.addIssue({ code: 'custom', path: ['from'], message: `'from' must not be after 'to' (${query.to}).` });
    }
  });

export const CalendarEventSchema = z.object({
  name: z.string(),
  date: z.iso.date().describe('YYYY-MM-DD'),
  impact: z.enum(IMPACTS),
  category: z.enum(CATEGORIES),
  description: z.string(),
});

export const CalendarResponseSchema = z.object({ events: z.array(CalendarEventSchema) });

export function registerCalendarRoutes(registry: ApiRegistry, deps: AppDeps): void {
  registry.add({
    method: 'get',
    path: '/calendar',
    operationId: 'getCalendar',
    summary: 'Economic events that move mortgage rates',
    description:
      'FOMC decisions, BLS releases (CPI, Employment Situation, PPI, JOLTS and others), housing releases (Census, NAR, FHFA) and ' +
      "Freddie Mac's weekly mortgage rate survey, sorted by date then name. " +
      'Impact: FOMC decisions, CPI and the Employment Situation are high; PPI, JOLTS, housing starts and new/existing home sales medium; all others low. ' +
      '`format=ics` returns the same events as an iCalendar feed (all-day events).',
    tags: ['Calendar'],
    query: CalendarQuerySchema,
    responses: {
      200: { description: 'Events (spec 2.4); with format=ics a text/calendar document', schema: CalendarResponseSchema },
      400: { description: 'Invalid date, range, impact, category or limit; the message says what is valid' },
      503: { description: 'The calendar has not been synced yet; retry after Retry-After seconds' },
    },
    handler: async ({ query, res }) => {
      const result = await deps.services.calendar.getEvents({
        from: query.from,
        to: query.to,
        impact: query.impact,
        category: query.category,
        limit: query.limit,
      });
      const events: CalendarEvent[] = result.events.map(({ name, date, impact, category, description }) => ({ name, date, impact, category, description }));
      if (query.format !== 'ics') return { events };
      const host = new URL(deps.config.baseUrl).hostname;
      const body = writeIcs(
        result.events.map((event) => ({
          uid: `${event.series}-${event.date.replace(/-/g, '')}@${host}`,
          date: event.date,
          summary: event.name,
          description: `${event.description} Impact: ${event.impact}. Source: ${event.sourceUrl}`,
          categories: [event.category, `${event.impact} impact`],
          url: event.sourceUrl,
        })),
        { name: 'Economic calendar (Mortgage Data Service)', stamp: new Date(result.loadedAt) },
      );
      res.setHeader('Cache-Control', DATA_CACHE_CONTROL);
      res.setHeader('Content-Disposition', 'inline; filename="economic-calendar.ics"');
      res.type('text/calendar; charset=utf-8').send(body);
      return undefined;
    },
  });
}
