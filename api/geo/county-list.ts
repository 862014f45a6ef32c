// Census's county list (`geo/county_FIPS.csv`: `State,State ANSI,County ANSI,County Name,ANSI Cl,
// Complete FIPS`), read one way for every reader of it: the `counties` dataset, escrow's county
// matching and the content scripts. A row that does not fit fails with its file and line.
import { columnIndexes, decodeText, parseDelimited } from '../sync/delimited.ts';
import { SourceFormatError } from '../sync/errors.ts';

export interface CensusCounty {
  /** Five digits, zero-padded. */
  fips: string;
  state: string;
  /** Two digits, zero-padded. */
  stateFips: string;
  /** As Census spells it: `Autauga County`. */
  name: string;
}

export function parseCountyList(bytes: Buffer | string, file: string): CensusCounty[] {
  const [header, ...body] = parseDelimited(decodeText(bytes), ',', file);
  if (!header) throw new SourceFormatError(file, 1, 'the file is empty');
  const column = columnIndexes(
    header,
    { state: ['State'], stateFips: ['State ANSI'], countyFips: ['County ANSI'], name: ['County Name'], fips: ['Complete FIPS'] },
    file,
  );
  return body.map(({ line, fields }) => {
    const get = (index: number) => (fields[index] ?? '').trim();
    const state = get(column.state);
    const stateFips = get(column.stateFips).padStart(2, '0');
    const fips = get(column.fips).padStart(5, '0');
    const name = get(column.name);
    if (!/^[A-Z]{2}$/.test(state)) throw new SourceFormatError(file, line, `state "${state}" is not a 2-letter code`);
    if (!/^\d{5}$/.test(fips) || !fips.startsWith(stateFips)) {
      throw new SourceFormatError(file, line, `county FIPS "${get(column.fips)}" is not 5 digits of state ${stateFips}`);
    }
    if (name === '') throw new SourceFormatError(file, line, 'county name is empty');
    return { fips, state, stateFips, name };
  });
}
