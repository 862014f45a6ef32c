// Parses FRED's keyless CSV download (`fredgraph.csv?id=SERIES`) in every layout met in the wild:
// `observation_date,SERIES` (current), `DATE,SERIES` (older), `date,value` (re-exports), no header
// at all; LF or CRLF; an optional BOM; trailing zeros dropped (`7.4`); holidays as `.` or blank.
import { parseDelimited } from '../../sync/delimited.ts';
import { SourceFormatError } from '../../sync/errors.ts';
import { isoDay } from '../../platform/dates.ts';

export interface Observation {
  /** YYYY-MM-DD */
  date: string;
  /** Percent, as published (up to three decimals). */
  value: number;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const NUMBER = /^-?\d+(\.\d+)?$/;

/** True for a real calendar day in YYYY-MM-DD form. */
export function isCalendarDate(text: string): boolean {
  if (!DATE.test(text)) return false;
  const parsed = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && isoDay(parsed) === text;
}

/** Parses a published percent value; undefined for FRED's missing-value markers. */
export function parseValue(raw: string, file: string, line: number): number | undefined {
  const text = raw.trim();
  if (text === '' || text === '.') return undefined;
  if (!NUMBER.test(text)) throw new SourceFormatError(file, line, `value ${JSON.stringify(text)} is not a number`);
  return Math.round(Number(text) * 1000) / 1000;
}

/**
 * Returns the observations in file order. `file` names the file in error messages; `seriesId`
 * guards against a file of another series (a FRED-style header names its series).
 */
export function parseFredCsv(text: string, file: string, seriesId: string): Observation[] {
  const observations: Observation[] = [];
  let previous: string | undefined;
  for (const record of parseDelimited(text, ',', file)) {
    const fields = record.fields.map((field) => field.trim());
    if (record.line === 1 && !DATE.test(fields[0] ?? '')) {
      checkHeader(fields, file, seriesId);
      continue;
    }
    if (fields.length !== 2) {
      throw new SourceFormatError(file, record.line, `expected 2 fields (date,value), found ${fields.length}`);
    }
    const [date = '', rawValue = ''] = fields;
    if (!isCalendarDate(date)) throw new SourceFormatError(file, record.line, `${JSON.stringify(date)} is not a date (YYYY-MM-DD)`);
    if (previous !== undefined && date <= previous) {
      throw new SourceFormatError(file, record.line, `date ${date} is not after the previous row's ${previous}`);
    }
    previous = date;
    const value = parseValue(rawValue, file, record.line);
    if (value !== undefined) observations.push({ date, value });
  }
  return observations;
}

function checkHeader(fields: string[], file: string, seriesId: string): void {
  const [dateColumn = '', valueColumn = ''] = fields.map((field) => field.toLowerCase());
  if (fields.length !== 2 || !['observation_date', 'date'].includes(dateColumn)) {
    throw new SourceFormatError(file, 1, `unrecognised header ${JSON.stringify(fields.join(','))}; expected observation_date,${seriesId}`);
  }
  if (valueColumn !== 'value' && valueColumn !== seriesId.toLowerCase()) {
    throw new SourceFormatError(file, 1, `the file holds series ${fields[1]}, not ${seriesId}`);
  }
}
