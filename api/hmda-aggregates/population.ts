// The `population` dataset: residents of every state, DC, territory and county as the FFIEC HMDA
// Data Browser divides by them (Census Bureau figures shipped in the Data Browser's front end, one
// file per level for the 2024 data year). It is the denominator of every per-resident figure.
import type { Queryable } from '../platform/db/database.ts';
import { SourceFormatError, ValidationError } from '../sync/errors.ts';
import { combineChecksums } from '../sync/source.ts';
import { deleteMissingRows, upsertRows } from '../sync/upsert.ts';
import type { DatasetDefinition, SourceEntry, SourceFile } from '../sync/types.ts';
import { STATE_CODES } from '../geo/states.ts';
import { STATE_BY_FIPS } from './labels.ts';
import { DATA_BROWSER_URL, FRONTEND_RAW } from './sources.ts';

export const POPULATION_DATASET = 'population';
/** The data years whose population files the Data Browser publishes (and the mirror holds). */
export const POPULATION_YEARS = [2024] as const;
export const POPULATION_SOURCE = 'FFIEC HMDA Data Browser population by geography (U.S. Census Bureau figures)';

export const populationEntry = (level: 'state' | 'county', year: number): SourceEntry => ({
  id: `hmda-population-${level}-${year}`,
  publisherUrl: DATA_BROWSER_URL,
  downloadUrl: `${FRONTEND_RAW}/src/data-browser/constants/populationByGeography/${level}Pop${year}.json`,
  format: 'json',
  mirrorPath: `geo/hmda_${level}_population_${year}.json`,
  year,
});

/** `{fips: residents}` → rows keyed by our codes: a state's 2-letter code, a county's 5-digit FIPS. */
export function parsePopulation(file: SourceFile, level: 'state' | 'county'): Map<string, number> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(file.bytes.toString('utf8'));
  } catch {
    throw new SourceFormatError(file.origin, 1, 'not JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new SourceFormatError(file.origin, 1, 'expected an object of {FIPS: population}');
  const rows = new Map<string, number>();
  for (const [fips, value] of Object.entries(parsed)) {
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
      throw new SourceFormatError(file.origin, 1, `population of ${fips} is not a whole number: ${JSON.stringify(value)}`);
    if (level === 'county') {
      if (!/^\d{5}$/.test(fips)) throw new SourceFormatError(file.origin, 1, `"${fips}" is not a 5-digit county FIPS code`);
      rows.set(fips, value);
    } else {
      const code = STATE_BY_FIPS.get(fips);
      if (!code) throw new SourceFormatError(file.origin, 1, `"${fips}" is not a state FIPS code`);
      rows.set(code, value);
    }
  }
  return rows;
}

export const populationDataset: DatasetDefinition = {
  name: POPULATION_DATASET,
  description:
    'Residents by state and county as the FFIEC HMDA Data Browser uses them (Census Bureau figures, 2024), for per-resident figures',
  async load(tx, context) {
    const files: SourceFile[] = [];
    const rows: (readonly [number, string, string, number])[] = [];
    for (const year of POPULATION_YEARS) {
      const stateFile = await context.readSource(populationEntry('state', year));
      const countyFile = await context.readSource(populationEntry('county', year));
      files.push(stateFile, countyFile);
      const states = parsePopulation(stateFile, 'state');
      const counties = parsePopulation(countyFile, 'county');
      const missing = STATE_CODES.filter((code) => !states.has(code));
      if (missing.length > 0) throw new ValidationError(`${stateFile.origin}: no population for ${missing.join(', ')}.`);
      // Each state's counties must add up to the state: the two files are one count.
      const sums = new Map<string, number>();
      for (const [fips, residents] of counties) {
        const code = STATE_BY_FIPS.get(fips.slice(0, 2));
        if (code) sums.set(code, (sums.get(code) ?? 0) + residents);
      }
      for (const code of STATE_CODES) {
        if (sums.get(code) !== states.get(code))
          throw new ValidationError(
            `${year}: the counties of ${code} add up to ${sums.get(code)} residents, the state file says ${states.get(code)}.`,
          );
      }
      for (const [code, residents] of states) rows.push([year, 'state', code, residents]);
      for (const [fips, residents] of counties) rows.push([year, 'county', fips, residents]);
    }
    const key = ['year', 'geo_level', 'geo_code'];
    let changed = await upsertRows(tx, { table: 'population', key, columns: [...key, 'residents'], rows });
    changed += await deleteMissingRows(tx, { table: 'population', key, keep: rows.map((row) => row.slice(0, 3)), scope: 'true' });
    const latest = Math.max(...POPULATION_YEARS);
    return { asOf: `${latest}-12-31`, sourceUrl: DATA_BROWSER_URL, checksum: combineChecksums(files), rows: rows.length, changed };
  },
};

export interface PopulationRow {
  year: number;
  level: 'state' | 'county';
  code: string;
  residents: number;
}

/** Every population row, for the series service. */
export async function readPopulation(db: Queryable): Promise<PopulationRow[]> {
  const { rows } = await db.query<{ year: number; geo_level: 'state' | 'county'; geo_code: string; residents: string }>(
    'SELECT year, geo_level, geo_code, residents FROM population ORDER BY geo_code, year',
  );
  return rows.map((row) => ({ year: Number(row.year), level: row.geo_level, code: row.geo_code, residents: Number(row.residents) }));
}
