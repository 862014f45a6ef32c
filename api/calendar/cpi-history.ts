// BLS's CPI release history as the mirror keeps it (calendar/us_cpi_release_dates.csv:
// release_date,reference_month). It reaches back before BLS's iCalendar feed and names each
// release's reference month, which the feed does not.
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
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trim() !== 'release_date,reference_month') {
    throw new SourceFormatError(file, 1, `expected header "release_date,reference_month", got "${lines[0]?.slice(0, 60) ?? ''}"`);
  }
  const events: CalendarEventRecord[] = [];
  const excluded: string[] = [];
  const referenceMonths = new Map<string, string>();
  lines.slice(1).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '') return;
    const match = /^(\d{4}-\d{2}-\d{2}),(\d{4})-(\d{2})$/.exec(line);
    const monthName = match ? MONTH_NAMES[Number(match[3]) - 1] : undefined;
    if (!match || !monthName || Number.isNaN(Date.parse(match[1] ?? ''))) {
      throw new SourceFormatError(file, index + 2, `expected YYYY-MM-DD,YYYY-MM, got "${line.slice(0, 60)}"`);
    }
    const date = match[1] ?? '';
    if (CPI_ROWS_EXCLUDED.has(date)) {
      excluded.push(date);
      return;
    }
    if (date <= `${match[2]}-${match[3]}-31`) {
      throw new SourceFormatError(file, index + 2, `release ${date} is not after its reference month ${match[2]}-${match[3]}`);
    }
    const period = `${monthName} ${match[2]}`;
    referenceMonths.set(date, period);
    events.push(seriesEvent('cpi', date, period));
  });
  return { events, excluded, referenceMonths };
}
