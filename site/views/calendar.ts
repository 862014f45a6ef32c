// The view of /calendar (see site/views/format.ts for why views exist): the form's request read by
// the calendar contract and the answer of the same service as GET /api/v1/calendar.
import { live, queryObject } from './live.ts';
import type { PageDeps } from '../../api/publications/render-capture.ts';
import { parseOrThrow } from '../../api/platform/validation.ts';
import { CalendarQuerySchema, type CalendarQuery } from '../../api/calendar/contract.ts';
import { CATEGORIES, IMPACTS } from '../../api/calendar/series.ts';

export { CATEGORIES, IMPACTS };

/** A select shows one value; a list given in the URL (impact=high,medium) leaves it on All. */
export const chosen = (values: readonly string[] | undefined, value: string): boolean =>
  values?.length === 1 && values[0] === value;

export async function calendarView(deps: PageDeps | undefined, url: URL) {
  const query = queryObject(url);
  // The page's form sends the contract's parameters; other parameters (a tracking tag) are ignored here.
  const known = Object.fromEntries(Object.entries(query).filter(([name]) => name in CalendarQuerySchema.shape));
  const result = await live(deps, async (d) => {
    const asked: CalendarQuery = parseOrThrow(CalendarQuerySchema, known, 'query');
    return { ...(await d.services.calendar.answer(asked)), asked };
  });
  return {
    query,
    result,
    asked: result.ok ? result.value.asked : undefined,
    apiQuery: new URLSearchParams(known).toString(),
  };
}
