// Parses HUD's FHA forward-mortgage limits in the CHUMS layout (CSV conversion): one 203B row per
// county with zero-padded limits and an S (standard) or H (high-cost) limit type, plus national rows
// with an empty state: program `203B` is the floor, `ZZ203` the ceiling.
import { columnIndexes, decodeText, parseDelimited } from '../sync/delimited.ts';
import { SourceFormatError } from '../sync/errors.ts';
import { checkLimits, parseAmount, type LimitRow } from './fhfa-parser.ts';

export interface FhaRow extends LimitRow {
  limitType: 'S' | 'H';
  medianPrice: number | null;
}

export interface NationalRow {
  line: number;
  limits: [number, number, number, number];
}

export interface FhaFile {
  counties: FhaRow[];
  floor: NationalRow | undefined;
  ceiling: NationalRow | undefined;
}

const COLUMNS = {
  msa: ['msa-code'],
  program: ['program'],
  limitType: ['limit-type'],
  medianPrice: ['median-price'],
  unit1: ['limit-1-unit'],
  unit2: ['limit-2-units'],
  unit3: ['limit-3-units'],
  unit4: ['limit-4-units'],
  state: ['state'],
  countyFips: ['county-fips'],
  countyName: ['county-name'],
} as const;

/** `stateFips` maps USPS codes to 2-digit FIPS (from the counties dataset). */
export function parseFhaFile(bytes: Buffer, file: string, stateFips: ReadonlyMap<string, string>): FhaFile {
  const [header, ...body] = parseDelimited(decodeText(bytes), ',', file);
  if (!header) throw new SourceFormatError(file, 1, 'the file is empty');
  const column = columnIndexes(header, COLUMNS, file);
  const result: FhaFile = { counties: [], floor: undefined, ceiling: undefined };
  for (const { line, fields } of body) {
    const get = (index: number) => (fields[index] ?? '').trim();
    if (fields.length < header.fields.length) {
      throw new SourceFormatError(file, line, `expected ${header.fields.length} fields, found ${fields.length}`);
    }
    const program = get(column.program).toUpperCase();
    const limits = [column.unit1, column.unit2, column.unit3, column.unit4].map((index, unit) =>
      parseAmount(get(index), file, line, `${unit + 1}-unit limit`),
    ) as LimitRow['limits'];
    checkLimits(limits, file, line);
    const state = get(column.state).toUpperCase();
    if (state === '') {
      if (program === '203B') result.floor = { line, limits };
      else if (program === 'ZZ203') result.ceiling = { line, limits };
      else throw new SourceFormatError(file, line, `national row with unknown program "${program}"`);
      continue;
    }
    if (program !== '203B') throw new SourceFormatError(file, line, `county row with program "${program}" (expected 203B)`);
    const prefix = stateFips.get(state);
    if (!prefix) throw new SourceFormatError(file, line, `unknown state "${state}"`);
    const countyCode = get(column.countyFips).padStart(3, '0');
    if (!/^\d{3}$/.test(countyCode)) throw new SourceFormatError(file, line, `county FIPS "${get(column.countyFips)}" is not 3 digits`);
    const limitType = get(column.limitType).toUpperCase();
    if (limitType !== 'S' && limitType !== 'H') throw new SourceFormatError(file, line, `limit type "${limitType}" is not S or H`);
    const median = get(column.medianPrice);
    const msa = get(column.msa);
    result.counties.push({
      line,
      fips: `${prefix}${countyCode}`,
      state,
      sourceName: get(column.countyName),
      cbsa: msa === '' || msa === '99999' ? null : msa,
      limits,
      limitType,
      medianPrice: median === '' ? null : parseAmount(median, file, line, 'median price'),
    });
  }
  return result;
}
