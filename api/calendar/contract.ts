// The economic calendar's contract: what a calendar request accepts and answers, declared once.
// GET /calendar, the MCP tool get_economic_calendar, /ask, the /calendar page and the service's
// types derive from it.
import { z } from 'zod';
import { calendarDate, choice, integer, list } from '../platform/contract/lenient.ts';
import { SourceSchema } from '../platform/contract/sources.ts';
import { datasetAsOf, DatasetVersionsSchema } from '../platform/contract/versions.ts';
import { CATEGORIES, IMPACTS } from './series.ts';

export const CALENDAR_WINDOW_DAYS = 60;
export const CALENDAR_LIMIT_DEFAULT = 100;
export const CALENDAR_LIMIT_MAX = 500;

/** Other words people use for a category, each meaning exactly one of them. */
const CATEGORY_ALIASES = {
  fomc: 'fed',
  federal_reserve: 'fed',
  cpi: 'inflation',
  jobs: 'employment',
  labor: 'employment',
  labour: 'employment',
} as const;

export const CalendarQuerySchema = z.object({
  from: calendarDate().optional().describe('First day. Default: today (UTC).'),
  to: calendarDate().optional().describe(`Last day. Default: \`from\` + ${CALENDAR_WINDOW_DAYS} days.`),
  impact: list(choice(IMPACTS), { max: IMPACTS.length }).optional().describe('high (FOMC, CPI, jobs), medium or low; one or a list.'),
  category: list(choice(CATEGORIES, { aliases: CATEGORY_ALIASES }), { max: CATEGORIES.length })
    .optional()
    .describe('fed, inflation, employment or housing; one or a list.'),
  limit: integer({ min: 1, max: CALENDAR_LIMIT_MAX })
    .default(CALENDAR_LIMIT_DEFAULT)
    .describe(`Most events, earliest first (default ${CALENDAR_LIMIT_DEFAULT}).`),
  as_of: datasetAsOf(),
});
/** A request as every face passes it to the service: parsed, with the default limit applied. */
export type CalendarQuery = z.output<typeof CalendarQuerySchema>;

export const CALENDAR_FORMATS = ['json', 'ics'] as const;

/** GET /calendar's parameters: the query plus the representation. */
export const CalendarRestQuerySchema = CalendarQuerySchema.extend({
  format: choice(CALENDAR_FORMATS)
    .default('json')
    .describe('`json` (default) or `ics` for the same events as an iCalendar (text/calendar) feed of all-day events.'),
});

export const CalendarEventSchema = z.object({
  name: z
    .string()
    .describe('The release, with its reference month where the publisher names one, e.g. "Consumer Price Index (October 2026)".'),
  date: z.iso.date().describe('YYYY-MM-DD, the day of the release (U.S. Eastern).'),
  impact: z.enum(IMPACTS).describe('How much the release tends to move mortgage rates.'),
  category: z.enum(CATEGORIES),
  description: z
    .string()
    .describe(
      "What the release is and, where the schedule states it, when in the day it comes out; an FOMC decision before 2021 says it comes from the Fed's record of past meetings (unscheduled decisions included).",
    ),
  source_url: z.string().describe("The publisher's schedule or page the date comes from."),
});
export type CalendarEvent = z.infer<typeof CalendarEventSchema>;

export const CalendarAnswerSchema = z.object({
  from: z.iso.date().describe('First day of the range answered (YYYY-MM-DD).'),
  to: z.iso.date().describe('Last day of the range answered (YYYY-MM-DD).'),
  events: z.array(CalendarEventSchema).describe('Matching events, sorted by date, then name.'),
  total: z.int().describe('Events in the range that match the filters; more than `events` holds when `limit` cut the list.'),
  limit: z.int(),
  as_of: z.string().nullable().describe("YYYY-MM-DD the schedules were last checked against the publishers' pages."),
  coverage: z
    .array(
      z.object({
        publisher: z.string(),
        through: z.iso.date().describe("The last day this publisher's schedule, as held, has a release on."),
      }),
    )
    .describe(
      "Where each publisher's schedule ends, earliest first: a range past `through` holds none of that publisher's later releases, " +
        'which it has not scheduled yet (e.g. the BLS feed ends with its last dated release of the year).',
    ),
  sources: z.array(SourceSchema).describe('The publishers of the events returned, to cite.'),
  dataset_versions: DatasetVersionsSchema,
});
export type CalendarAnswer = z.infer<typeof CalendarAnswerSchema>;
