// /data/calendar/<YEAR>.json and .ics, and /data/calendar/<YEAR>/<category>.json and .ics: the
// answers of GET /calendar for each calendar year (all impacts, the largest page the contract
// allows), whole and per category.
import { CALENDAR_LIMIT_MAX } from '../calendar/contract.ts';
import { CATEGORIES } from '../calendar/series.ts';
import { CALENDAR_DATASET } from '../calendar/sync.ts';
import type { CalendarService } from '../calendar/service.ts';
import { giveWay } from '../platform/give-way.ts';
import { ICS_TYPE, JSON_TYPE, type Publication } from './types.ts';

/** Publishers schedule at most a couple of years ahead; the first year is the first event's. */
const YEARS_AHEAD = 3;

async function yearsWithEvents(calendar: CalendarService, currentYear: number): Promise<number[]> {
  const first = await calendar.answer({ from: '1900-01-01', to: `${currentYear + YEARS_AHEAD}-12-31`, limit: 1 });
  const firstEvent = first.events[0];
  if (!firstEvent) return [];
  const years: number[] = [];
  for (let year = Number(firstEvent.date.slice(0, 4)); year <= currentYear + YEARS_AHEAD; year += 1) {
    await giveWay();
    const probe = await calendar.answer({ from: `${year}-01-01`, to: `${year}-12-31`, limit: 1 });
    if (probe.total > 0) years.push(year);
  }
  return years;
}

export const calendarPublication: Publication = {
  name: 'calendar',
  datasets: [CALENDAR_DATASET],
  async *produce(services, { host, year: currentYear }) {
    const calendar = services.calendar;
    for (const year of await yearsWithEvents(calendar, currentYear)) {
      const range = { from: `${year}-01-01`, to: `${year}-12-31`, limit: CALENDAR_LIMIT_MAX };
      const rest = `/calendar?from=${range.from}&to=${range.to}&limit=${range.limit}`;
      yield { path: `calendar/${year}.json`, body: await calendar.answerJson(range), contentType: JSON_TYPE, rest };
      yield { path: `calendar/${year}.ics`, body: await calendar.ics(range, host), contentType: ICS_TYPE, rest: `${rest}&format=ics` };
      for (const category of CATEGORIES) {
        // Each year and category is a document of its own to write: requests go between them.
        await giveWay();
        const request = { ...range, category: [category] };
        yield {
          path: `calendar/${year}/${category}.json`,
          body: await calendar.answerJson(request),
          contentType: JSON_TYPE,
          rest: `${rest}&category=${category}`,
        };
        yield {
          path: `calendar/${year}/${category}.ics`,
          body: await calendar.ics(request, host),
          contentType: ICS_TYPE,
          rest: `${rest}&category=${category}&format=ics`,
        };
      }
    }
  },
};
