// GET /calendar: economic events as JSON or, with format=ics, as an iCalendar document. The REST
// face of the MCP tool get_economic_calendar; the schemas are the calendar contract's.
import type { AppDeps } from '../deps.ts';
import { DATA_CACHE_CONTROL, RESPONSE_WRITTEN, routeContract, type ApiRegistry } from '../platform/http/api-registry.ts';
import { errorResponses } from '../platform/http/error-responses.ts';
import { CalendarAnswerSchema, CalendarRestQuerySchema } from './contract.ts';
import { PINNED_VERSION_ERRORS, PINNED_VERSIONS_NOTE } from '../platform/contract/versions.ts';

export const calendarRoutes = {
  getCalendar: routeContract({
    method: 'get',
    path: '/calendar',
    operationId: 'getCalendar',
    example: { query: { impact: 'high', limit: '5' } },
    summary: 'Economic events that move mortgage rates',
    description:
      'FOMC decisions, BLS releases (CPI, Employment Situation, PPI, JOLTS and others), housing releases (Census, NAR, FHFA) and ' +
      "Freddie Mac's weekly mortgage rate survey, sorted by date then name, each with its source. " +
      'FOMC decisions run from 2021 (scheduled meetings, through the next year the Fed has announced); where the source folder is loaded, ' +
      "also 2000-2020 from the Fed's record of past decision days, unscheduled ones included. " +
      'Impact: FOMC decisions, CPI and the Employment Situation are high; PPI, JOLTS, housing starts and new/existing home sales medium; all others low. ' +
      '`impact` and `category` take one value, a comma-separated list or the parameter repeated, in any case. ' +
      '`format=ics` returns the same events as an iCalendar feed (all-day events).' +
      PINNED_VERSIONS_NOTE,
    tags: ['Calendar'],
    query: CalendarRestQuerySchema,
    responses: {
      200: {
        description: 'The events of the range; with format=ics the same events as a text/calendar document',
        schema: CalendarAnswerSchema,
        otherContentTypes: ['text/calendar'],
      },
      ...errorResponses({
        400: 'Invalid date, range, impact, category, limit, format or as_of; the message names the parameter and what is valid.',
        ...PINNED_VERSION_ERRORS,
      }),
    },
  }),
};

export function registerCalendarRoutes(registry: ApiRegistry, deps: AppDeps): void {
  const host = new URL(deps.config.baseUrl).hostname;
  registry.route({
    ...calendarRoutes.getCalendar,
    handler: async ({ query, res }) => {
      const { format, ...request } = query;
      if (format !== 'ics') return deps.services.calendar.answerJson(request);
      const body = await deps.services.calendar.ics(request, host);
      res.setHeader('Cache-Control', DATA_CACHE_CONTROL);
      res.setHeader('Content-Disposition', 'inline; filename="economic-calendar.ics"');
      res.type('text/calendar; charset=utf-8').send(body);
      return RESPONSE_WRITTEN;
    },
  });
}
