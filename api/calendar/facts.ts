// The calendar's other inputs: the housing release fact file (data/calendar/housing-releases.json)
// and the mirror's CPI release history (calendar/us_cpi_release_dates.csv).
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { PROJECT_ROOT } from '../config.ts';
import { SourceFormatError } from '../sync/errors.ts';
import { seriesEvent, type CalendarEventRecord } from './series.ts';

export const HOUSING_FILE = path.join(PROJECT_ROOT, 'data', 'calendar', 'housing-releases.json');

export const HousingFileSchema = z.object({
  description: z.string(),
  asOf: z.iso.date(),
  notes: z.array(z.string()),
  releases: z.array(
    z.object({
      series: z.enum(['housing_starts', 'new_home_sales', 'existing_home_sales', 'pending_home_sales']),
      date: z.iso.date(),
      period: z.string().regex(/^[A-Z][a-z]+ \d{4}$/),
      sourceUrl: z.url(),
    }),
  ),
});

export function loadHousingEvents(file: string = HOUSING_FILE): CalendarEventRecord[] {
  const parsed = HousingFileSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
  return parsed.releases.map((release) => seriesEvent(release.series, release.date, release.period, undefined, release.sourceUrl));
}

/**
 * CPI releases the mirror does not record as they happened: BLS could not collect October 2025
 * data (lapse in appropriations) and published no October 2025 CPI, and the November 2025 CPI came
 * out later than the 2025-12-12 the file gives. SOURCES.md flags both rows; they are left out.
 */
export const CPI_ROWS_EXCLUDED = new Set(['2025-11-12', '2025-12-12']);

const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** Parses `release_date,reference_month` rows into CPI events (the flagged rows excluded). */
export function cpiEventsFromCsv(text: string, file = 'us_cpi_release_dates.csv'): { events: CalendarEventRecord[]; excluded: string[] } {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trim() !== 'release_date,reference_month') {
    throw new SourceFormatError(file, 1, `expected header "release_date,reference_month", got "${lines[0]?.slice(0, 60) ?? ''}"`);
  }
  const events: CalendarEventRecord[] = [];
  const excluded: string[] = [];
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
    events.push(seriesEvent('cpi', date, `${monthName} ${match[2]}`));
  });
  return { events, excluded };
}
