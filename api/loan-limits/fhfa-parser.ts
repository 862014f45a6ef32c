// Parses FHFA's county conforming loan limits in every shape they come in: the pipe-delimited
// conversions (2018–2025: header with or without spaces, BOM, CRLF, blank lines, squashed names,
// CBSA `14860.0`) and FHFA's own xlsx (title row, header on row 2, text FIPS). The format is sniffed
// from the bytes, so a year can move from one shape to the other without code changes.
import readXlsxFile from 'read-excel-file/node';
import { columnIndexes, decodeText, parseDelimited, type DelimitedRecord } from '../sync/delimited.ts';
import { SourceFormatError } from '../sync/errors.ts';

export interface LimitRow {
  /** 1-based line (row in a sheet) the values came from. */
  line: number;
  fips: string;
  state: string;
  /** The name as the publisher spelled it. */
  sourceName: string;
  cbsa: string | null;
  limits: [number, number, number, number];
}

const COLUMNS = {
  stateFips: ['FIPS State Code'],
  countyFips: ['FIPS County Code'],
  name: ['County Name'],
  state: ['State'],
  cbsa: ['CBSA Number'],
  unit1: ['One-Unit Limit'],
  unit2: ['Two-Unit Limit'],
  unit3: ['Three-Unit Limit'],
  unit4: ['Four-Unit Limit'],
} as const;

export const LIMIT_RANGE = { min: 50_000, max: 5_000_000 } as const;

/** `0524225`, `806500`, `14860.0` → integer; anything else is a format error at `line`. */
export function parseAmount(raw: string, file: string, line: number, what: string): number {
  const text = raw.trim();
  if (!/^\d+(\.0+)?$/.test(text)) throw new SourceFormatError(file, line, `${what} "${raw}" is not a whole number`);
  return Number.parseInt(text, 10);
}

export function checkLimits(limits: readonly number[], file: string, line: number): void {
  for (const [index, value] of limits.entries()) {
    if (value < LIMIT_RANGE.min || value > LIMIT_RANGE.max) {
      throw new SourceFormatError(file, line, `${index + 1}-unit limit ${value} is outside ${LIMIT_RANGE.min}–${LIMIT_RANGE.max}`);
    }
    if (index > 0 && value <= (limits[index - 1] as number)) {
      throw new SourceFormatError(file, line, `${index + 1}-unit limit ${value} is not above the ${index}-unit limit`);
    }
  }
}

function fromRecords(records: DelimitedRecord[], file: string): LimitRow[] {
  const headerIndex = records.findIndex((record) => record.fields.some((cell) => /^fips\s*state\s*code$/i.test(cell.trim())));
  const header = records[headerIndex];
  if (!header) throw new SourceFormatError(file, records[0]?.line ?? 1, 'no header row with "FIPS State Code" found');
  const column = columnIndexes(header, COLUMNS, file);
  const rows: LimitRow[] = [];
  for (const { line, fields } of records.slice(headerIndex + 1)) {
    const get = (index: number) => (fields[index] ?? '').trim();
    if (fields.length < header.fields.length) {
      throw new SourceFormatError(file, line, `expected ${header.fields.length} fields, found ${fields.length}`);
    }
    const stateFips = get(column.stateFips).padStart(2, '0');
    const countyFips = get(column.countyFips).padStart(3, '0');
    const fips = `${stateFips}${countyFips}`;
    if (!/^\d{5}$/.test(fips))
      throw new SourceFormatError(file, line, `FIPS "${get(column.stateFips)}|${get(column.countyFips)}" is not numeric`);
    const state = get(column.state).toUpperCase();
    if (!/^[A-Z]{2}$/.test(state)) throw new SourceFormatError(file, line, `state "${get(column.state)}" is not a 2-letter code`);
    const sourceName = get(column.name);
    if (sourceName === '') throw new SourceFormatError(file, line, 'county name is empty');
    const cbsaText = get(column.cbsa).replace(/\.0+$/, '');
    const cbsa = cbsaText === '' || cbsaText === '99999' ? null : cbsaText;
    if (cbsa !== null && !/^\d{5}$/.test(cbsa)) throw new SourceFormatError(file, line, `CBSA "${get(column.cbsa)}" is not a 5-digit code`);
    const limits = [column.unit1, column.unit2, column.unit3, column.unit4].map((index, unit) =>
      parseAmount(get(index), file, line, `${unit + 1}-unit limit`),
    ) as LimitRow['limits'];
    checkLimits(limits, file, line);
    rows.push({ line, fips, state, sourceName, cbsa, limits });
  }
  return rows;
}

async function xlsxRecords(bytes: Buffer, file: string): Promise<DelimitedRecord[]> {
  let sheets: { sheet: string; data: unknown[][] }[];
  try {
    sheets = (await readXlsxFile(bytes)) as unknown as { sheet: string; data: unknown[][] }[];
  } catch (error) {
    throw new SourceFormatError(file, undefined, `not a readable xlsx workbook (${(error as Error).message})`);
  }
  const sheet = sheets.find((candidate) => /gse/i.test(candidate.sheet)) ?? sheets[0];
  if (!sheet) throw new SourceFormatError(file, undefined, 'the workbook has no sheets');
  return sheet.data
    .map((row, index) => ({
      line: index + 1,
      fields: row.map((cell) => (cell === null || cell === undefined ? '' : String(cell))),
    }))
    .filter((record) => record.fields.some((cell) => cell.trim() !== ''));
}

/** Every county row of one FHFA file (pipe-delimited, CSV or xlsx). */
export async function parseConformingFile(bytes: Buffer, file: string): Promise<LimitRow[]> {
  if (bytes.length >= 2 && bytes[0] === 0x50 && bytes[1] === 0x4b) return fromRecords(await xlsxRecords(bytes, file), file);
  const text = decodeText(bytes);
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  return fromRecords(parseDelimited(text, firstLine.includes('|') ? '|' : ',', file), file);
}
