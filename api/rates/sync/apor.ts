// Dataset `apor`: the FFIEC's Average Prime Offer Rates for fixed-rate loans (YieldTableFixed.txt, the
// table the CFPB's rate spread calculator reads), weekly, for every term from 1 to 50 years. The rates
// service reads its 10- and 20-year terms, which no survey covers. The file is pipe-delimited: a header
// `Term of Loan in Years|1|2|…|50`, then one row per week, `M/D/YYYY|<1-year>|…|<50-year>`, dated the
// Monday its rates take effect (published the Thursday before). A mirror without the file leaves the
// dataset not available here (skipped, saying so); a file that is there but broken fails with file:line.
import { createHash } from 'node:crypto';
import { parseDelimited } from '../../sync/delimited.ts';
import { DatasetSkippedError, SourceFormatError, ValidationError } from '../../sync/errors.ts';
import type { DatasetDefinition, SourceEntry } from '../../sync/types.ts';
import { upsertRows } from '../../sync/upsert.ts';
import { APOR_TABLE_URL } from '../benchmarks.ts';
import { archiveApor } from '../snapshot.ts';
import { isCalendarDate } from './fred-csv.ts';
import { VALUE_RANGE } from './validate.ts';
import { daysBetween } from '../../platform/dates.ts';

export const APOR_DATASET = 'apor';
export const APOR_TERMS_PUBLISHED = 50;
/** A complete table holds years of weeks; fewer rows mean a cut file. */
const MIN_WEEKS = 52;
/** The table is weekly; a longer gap than this between two rows means missing weeks. */
const MAX_GAP_DAYS = 14;

export const APOR_SOURCE: SourceEntry = {
  id: 'ffiec-apor-fixed',
  publisherUrl: APOR_TABLE_URL,
  format: 'pipe-delimited',
  mirrorPath: 'rates/apor/YieldTableFixed.txt',
};

export interface AporWeek {
  /** The Monday the week's rates take effect, YYYY-MM-DD. */
  weekOf: string;
  /** Rates by term: index 0 is the 1-year rate, index 49 the 50-year. */
  rates: number[];
}

const HEADER = ['Term of Loan in Years', ...Array.from({ length: APOR_TERMS_PUBLISHED }, (_, index) => String(index + 1))];

/** "1/2/2017" or "01/02/2017" → "2017-01-02", or undefined for anything else. */
function usDate(text: string): string | undefined {
  const match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text.trim());
  if (!match) return undefined;
  const iso = `${match[3]}-${match[1]!.padStart(2, '0')}-${match[2]!.padStart(2, '0')}`;
  return isCalendarDate(iso) ? iso : undefined;
}

/** Parses the published table; throws SourceFormatError naming file:line for anything unexpected. */
export function parseAporTable(text: string, file: string): AporWeek[] {
  const [header, ...rows] = parseDelimited(text, '|', file);
  const headerCells = header?.fields.map((cell) => cell.trim()) ?? [];
  if (headerCells.length !== HEADER.length || headerCells.some((cell, index) => cell !== HEADER[index])) {
    throw new SourceFormatError(
      file,
      header?.line ?? 1,
      `header must be "${HEADER[0]}|1|2|…|${APOR_TERMS_PUBLISHED}" (the FFIEC's fixed-rate APOR table)`,
    );
  }
  const weeks: AporWeek[] = [];
  for (const { line, fields } of rows) {
    const cells = fields.map((cell) => cell.trim());
    if (cells.length !== HEADER.length) throw new SourceFormatError(file, line, `expected ${HEADER.length} fields, found ${cells.length}`);
    const weekOf = usDate(cells[0] ?? '');
    if (!weekOf) throw new SourceFormatError(file, line, `${JSON.stringify(cells[0])} is not a date written M/D/YYYY`);
    if (new Date(`${weekOf}T00:00:00Z`).getUTCDay() !== 1)
      throw new SourceFormatError(file, line, `${weekOf} is not a Monday (each row is the Monday its week starts)`);
    const rates = cells.slice(1).map((cell, term) => {
      const rate = Number(cell);
      if (!/^\d+(\.\d+)?$/.test(cell) || rate < VALUE_RANGE.min || rate > VALUE_RANGE.max) {
        throw new SourceFormatError(
          file,
          line,
          `${term + 1}-year rate ${JSON.stringify(cell)} is not a percent between ${VALUE_RANGE.min} and ${VALUE_RANGE.max}`,
        );
      }
      return rate;
    });
    const previous = weeks.at(-1);
    if (previous && weekOf <= previous.weekOf) throw new SourceFormatError(file, line, `${weekOf} does not follow ${previous.weekOf}`);
    if (previous && daysBetween(previous.weekOf, weekOf) > MAX_GAP_DAYS) {
      throw new SourceFormatError(file, line, `${weekOf} follows ${previous.weekOf}: weeks are missing`);
    }
    weeks.push({ weekOf, rates });
  }
  return weeks;
}

export const aporDataset: DatasetDefinition = {
  name: APOR_DATASET,
  description: "FFIEC Average Prime Offer Rates, fixed-rate loans of 1 to 50 years, weekly (the rate spread calculator's table)",
  archive: (tx) => archiveApor(tx),
  async load(tx, context) {
    const file = await context.readOptionalSource(APOR_SOURCE);
    if (!file) {
      const where = context.config.sourceDir === undefined ? APOR_TABLE_URL : `the source folder (${APOR_SOURCE.mirrorPath})`;
      throw new DatasetSkippedError(
        `The FFIEC's APOR table is not available from ${where}; 10- and 20-year rates answer only from a loaded table. ` +
          `Save ${APOR_TABLE_URL} there, or sync with access to the FFIEC.`,
      );
    }
    const weeks = parseAporTable(file.bytes.toString('utf8'), file.origin);
    if (weeks.length < MIN_WEEKS)
      throw new ValidationError(`${file.origin}: ${weeks.length} weeks; a complete APOR table holds at least ${MIN_WEEKS}`);
    const rows = weeks.flatMap((week) => week.rates.map((rate, index) => [week.weekOf, index + 1, rate.toFixed(3)]));
    const changed = await upsertRows(tx, {
      table: 'apor_fixed_rates',
      key: ['week_of', 'term_years'],
      columns: ['week_of', 'term_years', 'rate'],
      rows,
      onBatch: (done, total) => context.progress(done, total),
    });
    return {
      asOf: weeks.at(-1)?.weekOf ?? '',
      sourceUrl: APOR_TABLE_URL,
      checksum: createHash('sha256').update(file.bytes).digest('hex'),
      rows: rows.length,
      changed,
      details: {
        first_week: weeks[0]?.weekOf,
        last_week: weeks.at(-1)?.weekOf,
        weeks: weeks.length,
        file: file.origin.startsWith('http') ? file.origin : APOR_SOURCE.mirrorPath,
      },
    };
  },
};
