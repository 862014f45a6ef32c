// FOMC decision days before the years the fact file holds, from the mirror's
// calendar/fomc_decision_dates_2000_2026.csv (one `date` column, unscheduled decisions included:
// 2001, 2008, 2020-03-03 and 2020-03-15). The fact file (data/calendar/fomc-meetings.json) stays in
// charge of its own years: the history file's 2026 rows are flagged as wrong (2026-05-06 for the
// Fed's April 28-29 meeting), so its rows in those years are only compared, never served.
import { isoDay } from '../platform/dates.ts';
import { parseDelimited } from '../sync/delimited.ts';
import { SourceFormatError } from '../sync/errors.ts';
import { seriesEvent, type CalendarEventRecord } from './series.ts';

/** The Fed's page of past meetings by year, where these decision days can be checked. */
export const FOMC_HISTORY_URL = 'https://www.federalreserve.gov/monetarypolicy/fomc_historical_year.htm';

const HISTORY_DESCRIPTION =
  "Federal Open Market Committee decision day (policy statement), from the Fed's record of past meetings; " +
  'unscheduled decisions (conference calls between meetings) are included and not marked apart.';

export interface FomcHistory {
  events: CalendarEventRecord[];
  /** Rows in the fact file's years that agree with a fact-file decision, and those that do not. */
  agreed: number;
  disagreed: string[];
}

/** A YYYY-MM-DD that names a day of the calendar (not 2025-02-30). */
function isCalendarDay(text: string): boolean {
  const time = Date.parse(`${text}T00:00:00Z`);
  return /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(time) && isoDay(new Date(time)) === text;
}

/** Parses the `date` rows; keeps those before `firstFactYear`, compares the rest with `factDecisions`. */
export function fomcHistoryFromCsv(text: string, file: string, firstFactYear: number, factDecisions: ReadonlySet<string>): FomcHistory {
  const [header, ...rows] = parseDelimited(text, ',', file);
  const headerText = header?.fields.map((field) => field.trim()).join(',') ?? '';
  if (headerText !== 'date') throw new SourceFormatError(file, 1, `expected header "date", got "${headerText.slice(0, 60)}"`);
  const events: CalendarEventRecord[] = [];
  const disagreed: string[] = [];
  let agreed = 0;
  for (const { line, fields } of rows) {
    const date = (fields[0] ?? '').trim();
    if (fields.length !== 1 || !isCalendarDay(date))
      throw new SourceFormatError(file, line, `expected one YYYY-MM-DD date, got "${fields.join(',').slice(0, 60)}"`);
    if (Number(date.slice(0, 4)) >= firstFactYear) {
      if (factDecisions.has(date)) agreed += 1;
      else disagreed.push(date);
      continue;
    }
    events.push({ ...seriesEvent('fomc', date, undefined, undefined, FOMC_HISTORY_URL), description: HISTORY_DESCRIPTION });
  }
  return { events, agreed, disagreed };
}
