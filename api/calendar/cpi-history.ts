// BLS's CPI release history as the mirror keeps it (calendar/us_cpi_release_dates.csv:
// release_date,reference_month). It reaches back before BLS's iCalendar feed and names each
// release's reference month, which the feed does not.
import { parseDelimited } from '../sync/delimited.ts';
import { SourceFormatError } from '../sync/errors.ts';
import { seriesEvent, type CalendarEventRecord } from './series.ts';
import { MONTH_NAMES } from '../platform/contract/months.ts';

/**
 * CPI releases the mirror does not record as they happened: BLS could not collect October 2025
 * data (lapse in appropriations) and published no October 2025 CPI, and the November 2025 CPI came
 * out on 2025-12-18 (BLS's feed), not on the 2025-12-12 the file gives. SOURCES.md flags both rows;
 * they are left out even when the feed cannot be read.
 */
export const CPI_ROWS_EXCLUDED = new Set(['2025-11-12', '2025-12-12']);

export interface CpiHistory {
  events: CalendarEventRecord[];
  excluded: string[];
  /** Release day → reference month ("September 2025"), for the rows kept. */
  referenceMonths: Map<string, string>;
}

/** Parses `release_date,reference_month` rows into CPI events (the flagged rows excluded). */
export function cpiEventsFromCsv(text: string, file = 'us_cpi_release_dates.csv'): CpiHistory {
  const [header, ...rows] = parseDelimited(text, ',', file);
  const headerText = header?.line === 1 ? header.fields.map((field) => field.trim()).join(',') : '';
  if (headerText !== 'release_date,reference_month') {
    throw new SourceFormatError(file, 1, `expected header "release_date,reference_month", got "${headerText.slice(0, 60)}"`);
  }
  const events: CalendarEventRecord[] = [];
  const excluded: string[] = [];
  const referenceMonths = new Map<string, string>();
  for (const { line, fields } of rows) {
    const [date = '', reference = ''] = fields.map((field) => field.trim());
    const month = /^(\d{4})-(\d{2})$/.exec(reference);
    const monthName = month ? MONTH_NAMES[Number(month[2]) - 1] : undefined;
    if (fields.length !== 2 || !/^\d{4}-\d{2}-\d{2}$/.test(date) || !month || !monthName || Number.isNaN(Date.parse(date))) {
      throw new SourceFormatError(file, line, `expected YYYY-MM-DD,YYYY-MM, got "${fields.join(',').slice(0, 60)}"`);
    }
    if (CPI_ROWS_EXCLUDED.has(date)) {
      excluded.push(date);
      continue;
    }
    if (date <= `${reference}-31`) throw new SourceFormatError(file, line, `release ${date} is not after its reference month ${reference}`);
    const period = `${monthName} ${month[1]}`;
    referenceMonths.set(date, period);
    events.push(seriesEvent('cpi', date, period));
  }
  return { events, excluded, referenceMonths };
}
