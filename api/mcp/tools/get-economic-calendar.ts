// get_economic_calendar: upcoming events that move mortgage rates (FOMC decisions, CPI, jobs,
// housing releases, the weekly rate survey), filtered by impact, category and date range. The
// schemas are the calendar contract's, shared with GET /calendar.
import { defineTool, sourcesText } from '../tool-kit.ts';
import { CalendarAnswerSchema, CalendarQuerySchema, type CalendarAnswer } from '../../calendar/contract.ts';
import { PINNED_TOOL_NOTE } from '../../platform/contract/versions.ts';

/** The answer as text: one line per event, a note when the limit cut the list, the sources. */
export function calendarAnswerText(answer: CalendarAnswer): string {
  if (answer.events.length === 0) return `No events between ${answer.from} and ${answer.to} match.`;
  const lines = answer.events.map((event) => `${event.date}  ${event.name} (${event.impact}, ${event.category})`);
  const more = answer.total > answer.events.length ? `\n(${answer.total - answer.events.length} more in the range; raise limit to see them.)` : '';
  return `${lines.join('\n')}${more}\n\n${sourcesText(answer.sources)}`;
}

export const getEconomicCalendarTool = defineTool({
  name: 'get_economic_calendar',
  title: 'Economic calendar',
  description:
    'Economic events that move mortgage rates: FOMC rate decisions (Federal Reserve), the jobs report, CPI and other ' +
    "BLS releases, housing releases (Census, NAR, FHFA) and Freddie Mac's weekly mortgage rate survey, each with date, " +
    'impact, category and the publisher page it comes from. Defaults to today through 60 days ahead. Examples: ' +
    '{"category": "fed"} for the next FOMC decisions; {"impact": "high", "from": "2026-12-01", "to": "2026-12-31"} for ' +
    "December 2026's FOMC decision, CPI and jobs report; {\"category\": [\"inflation\", \"employment\"], \"limit\": 5}. " +
    '`impact` and `category` take one value or a list, in any case; dates are YYYY-MM-DD.' +
    PINNED_TOOL_NOTE,
  inputSchema: CalendarQuerySchema,
  outputSchema: CalendarAnswerSchema,
  async run(args, { deps }) {
    const answer = await deps.services.calendar.answer(args);
    return { structured: answer, text: calendarAnswerText(answer) };
  },
});
