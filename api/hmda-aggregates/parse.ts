// Parses and validates the official HMDA aggregate files (HMDA Maps `state.json`/`county.json` and
// the Data Browser's record counts): every count a non-negative integer, every dimension of every
// geography summing to that geography's official record count. Errors name the file and position.
import { SourceFormatError, ValidationError } from '../sync/errors.ts';

/** `{dimension: {code: count}}` for one geography. */
export type DimensionCounts = Record<string, Record<string, number>>;
export type GeoAggregates = Record<string, DimensionCounts>;

/** The dimensions every geography must carry (the twelve the HMDA Maps files publish). */
export const DIMENSIONS = [
  'actionTaken',
  'loanType',
  'loanPurpose',
  'lienStatus',
  'constructionMethod',
  'totalUnits',
  'loanProduct',
  'dwellingCategory',
  'race',
  'ethnicity',
  'sex',
  'age',
] as const;
export type Dimension = (typeof DIMENSIONS)[number];

/** 1-based line and column of a character offset, for error messages. */
function lineColumn(text: string, position: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let index = 0; index < position && index < text.length; index += 1) {
    if (text.charCodeAt(index) === 10) {
      line += 1;
      lineStart = index + 1;
    }
  }
  return { line, column: position - lineStart + 1 };
}

/** JSON.parse that reports a syntax error as `file:line: invalid JSON at position N (column C)`. */
export function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const match = /position (\d+)/.exec(message);
    const position = match ? Number(match[1]) : text.length;
    const { line, column } = lineColumn(text, position);
    throw new SourceFormatError(file, line, `invalid JSON at position ${position} (column ${column}): ${message}`);
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A count must be a non-negative integer; names the key path otherwise. */
function count(value: unknown, file: string, where: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new SourceFormatError(file, undefined, `${where}: expected a non-negative whole count, found ${JSON.stringify(value)}`);
  }
  return value;
}

/** `{geo: total}` record counts. */
export function parseRecordCounts(text: string, file: string): Record<string, number> {
  const parsed = parseJson(text, file);
  if (!isObject(parsed)) throw new SourceFormatError(file, 1, 'expected an object keyed by geography code');
  const counts: Record<string, number> = {};
  // The Data Browser writes the blank geography as the two characters `""`; the Maps files as ''.
  for (const [geo, value] of Object.entries(parsed)) counts[geo === '""' ? '' : geo] = count(value, file, `"${geo}"`);
  return counts;
}

/** `{geo: {dimension: {code: count}}}`; every one of DIMENSIONS must be present for every geography. */
export function parseGeoAggregates(text: string, file: string): GeoAggregates {
  const parsed = parseJson(text, file);
  if (!isObject(parsed)) throw new SourceFormatError(file, 1, 'expected an object keyed by geography code');
  const result: GeoAggregates = {};
  for (const [geo, entry] of Object.entries(parsed)) {
    if (!isObject(entry)) throw new SourceFormatError(file, undefined, `"${geo}": expected an object of dimensions`);
    const dimensions: DimensionCounts = {};
    for (const dimension of DIMENSIONS) {
      const codes = entry[dimension];
      if (!isObject(codes)) throw new SourceFormatError(file, undefined, `"${geo}".${dimension}: missing or not an object of counts`);
      const parsedCodes: Record<string, number> = {};
      for (const [code, value] of Object.entries(codes)) parsedCodes[code] = count(value, file, `"${geo}".${dimension}["${code}"]`);
      dimensions[dimension] = parsedCodes;
    }
    result[geo] = dimensions;
  }
  return result;
}

export const sumCounts = (counts: Record<string, number>): number => Object.values(counts).reduce((total, value) => total + value, 0);

/**
 * Each geography's dimensions must each sum to its official record count (the files count every
 * LAR record once per dimension). Record-count keys that are not geographies are returned instead
 * of checked: the files of 2018 and 2019 count a few records under blank or placeholder keys.
 */
export function checkAgainstRecordCounts(
  aggregates: GeoAggregates,
  counts: Record<string, number>,
  aggregatesFile: string,
  countsFile: string,
): { unbrokenKeys: Record<string, number> } {
  const problems: string[] = [];
  const isGeography = (geo: string) => /^[A-Z]{2}$/.test(geo) || /^\d{5}$/.test(geo);
  for (const [geo, dimensions] of Object.entries(aggregates)) {
    // Placeholder keys (blank, `na`, `N/AN/`: records without a usable geography) are not held to
    // the record counts: in 2019 the blank county has 56 broken-down records against a count of 77.
    if (!isGeography(geo)) continue;
    const official = counts[geo];
    if (official === undefined) {
      problems.push(`"${geo}" has no record count in ${countsFile}`);
      continue;
    }
    for (const [dimension, codes] of Object.entries(dimensions)) {
      const total = sumCounts(codes);
      if (total !== official) problems.push(`"${geo}".${dimension} sums to ${total}, the record count is ${official}`);
    }
  }
  const unbrokenKeys: Record<string, number> = {};
  for (const [geo, records] of Object.entries(counts)) {
    if (aggregates[geo] !== undefined) continue;
    // Only blank or placeholder keys may lack a breakdown; a real geography missing is an error.
    if (isGeography(geo)) problems.push(`"${geo}" (${records} records) is missing from ${aggregatesFile}`);
    else unbrokenKeys[geo] = records;
  }
  if (problems.length > 0) {
    const more = problems.length > 5 ? `; and ${problems.length - 5} more` : '';
    throw new ValidationError(`${aggregatesFile}: ${problems.slice(0, 5).join('; ')}${more}.`);
  }
  return { unbrokenKeys };
}
