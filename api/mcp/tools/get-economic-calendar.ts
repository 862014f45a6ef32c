// get_economic_calendar: upcoming events that move mortgage rates (FOMC decisions, CPI, jobs,
// housing releases, the weekly rate survey), filtered by impact, category and date range. The
// schemas are the calendar contract's, shared with GET /calendar. Years of events (up to `limit`
// 500) are more than one answer carries: the answer then holds the first days' events that fit a
// page and names the day to ask `from` for the rest (`next_from`).
import { z } from 'zod';
import { defineTool, sourcesText } from '../tool-kit.ts';
import { largestFittingPage, fitsPage } from '../result-budget.ts';
import { CalendarAnswerSchema, CalendarQuerySchema, type CalendarAnswer } from '../../calendar/contract.ts';

/** The answer as text: how many events and which part of them, one line per event, the sources. */
export function calendarAnswerText(answer: CalendarAnswer, nextFrom?: string): string {
  if (answer.events.length === 0) return `No events between ${answer.from} and ${answer.to} match.`;
  const high = answer.events.filter((event) => event.impact === 'high').length;
  const shown = answer.total > answer.events.length ? `; the first ${answer.events.length} below` : '';
  const summary = `${answer.total} event${answer.total === 1 ? '' : 's'} from ${answer.from} to ${answer.to}${shown} (${high} of high impact):`;
  const lines = answer.events.map((event) => `${event.date}  ${event.name} (${event.impact}, ${event.category})`);
  const rest = answer.total - answer.events.length;
  const more =
    rest <= 0
      ? ''
      : nextFrom
        ? `\n(${rest} more in the range: ask again with from: "${nextFrom}" for the next.)`
        : `\n(${rest} more in the range; raise limit to see them.)`;
  return `${summary}\n${lines.join('\n')}${more}\n\n${sourcesText(answer.sources)}`;
}

/**
 * The answer, or the events of its first days that fit a page: cut between two days, so asking
 * again `from` the next day repeats none and misses none.
 */
function withinPage(answer: CalendarAnswer): { structured: CalendarAnswer & { next_from?: string }; text: string } {
  const whole = { structured: answer, text: calendarAnswerText(answer) };
  if (fitsPage(whole)) return whole;
  const render = (count: number) => {
    const events = answer.events.slice(0, count);
    const nextFrom = answer.events[count]?.date;
    const part = { ...answer, events };
    return { structured: nextFrom ? { ...part, next_from: nextFrom } : part, text: calendarAnswerText(part, nextFrom) };
  };
  let count = largestFittingPage(answer.events, 0, (events) => render(events.length), fitsPage).page.count;
  // Back to the last whole day (one day's events always go together).
  while (count > 0 && count < answer.events.length && answer.events[count]?.date === answer.events[count - 1]?.date) count -= 1;
  if (count === 0) count = answer.events.filter((event) => event.date === answer.events[0]?.date).length;
  return render(count);
}

export const getEconomicCalendarTool = defineTool({
  name: 'get_economic_calendar',
  title: 'Economic calendar',
  description: 'Rate-moving events (FOMC, jobs, CPI, housing): date, impact, category; default the next 60 days.',
  inputSchema: CalendarQuerySchema,
  outputSchema: CalendarAnswerSchema.extend({
    next_from: z.iso.date().optional().describe('When the events did not fit one answer: the day to ask `from` for the rest.'),
  }),
  uses: ['calendar'],
  async run(args, { deps }) {
    return withinPage(await deps.services.calendar.answer(args));
  },
});
