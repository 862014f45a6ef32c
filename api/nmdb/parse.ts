// Reads FHFA's NMDB state CSV (the one CSV of its zip) record by record, keeping the rate rows. The file is long form (one row
// per state × market × quarter × series, 384,948 rows); other series (counts, balances, LTV, credit
// scores) are counted and skipped. A row that does not fit the published layout fails the load with
// its file and line.
import { eachDelimitedRecord } from '../sync/delimited.ts';
import { SourceFormatError } from '../sync/errors.ts';
import { zipEntries, zipEntryBytes, type ZipEntry } from '../sync/zip.ts';
import { NMDB_RATE_SERIES, marketOfLabel, type NmdbMarket, type NmdbRateSeries } from './series.ts';

/** One kept row: `valueLoan` is FHFA's VALUE1 (loan-count weighted), `valueDollar` VALUE2 (dollar weighted). */
export interface NmdbRow {
  state: string;
  stateName: string;
  market: NmdbMarket;
  period: string;
  series: NmdbRateSeries;
  valueLoan: number | null;
  valueDollar: number | null;
  suppressed: boolean;
  line: number;
}

export interface NmdbParse {
  rows: NmdbRow[];
  csvName: string;
  linesRead: number;
  /** Rows of series this service does not keep. */
  skippedSeries: number;
  /** Rows of market segments this service does not know (a segment FHFA adds later), by label. */
  unknownMarkets: Record<string, number>;
}

const COLUMNS = [
  'SOURCE',
  'FREQUENCY',
  'GEOLEVEL',
  'GEOID',
  'GEONAME',
  'MARKET',
  'PERIOD',
  'YEAR',
  'QUARTER',
  'SUPPRESSED',
  'SERIESID',
  'VALUE1',
  'VALUE2',
] as const;
type Column = (typeof COLUMNS)[number];
const KEPT = new Set<string>(NMDB_RATE_SERIES);
const NUMBER = /^-?(?:\d+(?:\.\d*)?|\.\d+)$/;

function value(text: string | undefined, column: string, line: number, file: string): number | null {
  const trimmed = (text ?? '').trim();
  if (trimmed === '' || trimmed === '.') return null;
  if (!NUMBER.test(trimmed)) throw new SourceFormatError(file, line, `${column} is not a number: ${JSON.stringify(trimmed.slice(0, 20))}`);
  return Number(trimmed);
}

/** The one CSV of an archive that must hold exactly one (folders and other files are ignored). */
function onlyCsvEntry(bytes: Buffer, file: string): ZipEntry {
  const csvs = zipEntries(bytes, file).filter((entry) => entry.name.toLowerCase().endsWith('.csv') && !entry.name.startsWith('__MACOSX/'));
  if (csvs.length !== 1) {
    throw new SourceFormatError(
      file,
      undefined,
      `expected one CSV in the zip, found ${csvs.length === 0 ? 'none' : csvs.map((entry) => entry.name).join(', ')}`,
    );
  }
  return csvs[0] as ZipEntry;
}

export async function parseNmdbStates(bytes: Buffer, file: string): Promise<NmdbParse> {
  const entry = onlyCsvEntry(bytes, file);
  const where = `${file}!${entry.name}`;
  const rows: NmdbRow[] = [];
  const unknownMarkets: Record<string, number> = {};
  let index: Record<Column, number> | undefined;
  let linesRead = 0;
  let skippedSeries = 0;
  eachDelimitedRecord(zipEntryBytes(bytes, entry, file), ',', where, ({ line, fields }) => {
    linesRead = line;
    if (!index) {
      const header = fields.map((cell) => cell.trim().toUpperCase());
      const missing = COLUMNS.filter((column) => !header.includes(column));
      if (missing.length > 0)
        throw new SourceFormatError(where, line, `the header lacks ${missing.join(', ')}; FHFA may have changed the layout`);
      index = Object.fromEntries(COLUMNS.map((column) => [column, header.indexOf(column)])) as Record<Column, number>;
      return;
    }
    const cell = (column: Column) => (fields[index![column]] ?? '').trim();
    const series = cell('SERIESID');
    if (!KEPT.has(series)) {
      skippedSeries += 1;
      return;
    }
    if (cell('GEOLEVEL') !== 'State')
      throw new SourceFormatError(where, line, `GEOLEVEL is ${JSON.stringify(cell('GEOLEVEL'))}; the state file holds only State rows`);
    if (cell('FREQUENCY') !== 'Quarterly')
      throw new SourceFormatError(where, line, `FREQUENCY is ${JSON.stringify(cell('FREQUENCY'))}, not Quarterly`);
    const period = cell('PERIOD');
    if (!/^\d{4}Q[1-4]$/.test(period) || period !== `${cell('YEAR')}Q${cell('QUARTER')}`) {
      throw new SourceFormatError(
        where,
        line,
        `PERIOD ${JSON.stringify(period)} does not match YEAR ${cell('YEAR')} and QUARTER ${cell('QUARTER')}`,
      );
    }
    const state = cell('GEOID');
    if (!/^[A-Z]{2}$/.test(state)) throw new SourceFormatError(where, line, `GEOID ${JSON.stringify(state)} is not a 2-letter state code`);
    const marketLabel = cell('MARKET');
    const market = marketOfLabel(marketLabel);
    if (!market) {
      unknownMarkets[marketLabel] = (unknownMarkets[marketLabel] ?? 0) + 1;
      return;
    }
    const suppressed = cell('SUPPRESSED');
    if (suppressed !== '0' && suppressed !== '1')
      throw new SourceFormatError(where, line, `SUPPRESSED is ${JSON.stringify(suppressed)}, not 0 or 1`);
    const valueLoan = value(fields[index.VALUE1], 'VALUE1', line, where);
    const valueDollar = value(fields[index.VALUE2], 'VALUE2', line, where);
    if (suppressed === '0' && (valueLoan === null || valueDollar === null)) {
      throw new SourceFormatError(where, line, `${series} has no value but is not marked suppressed`);
    }
    rows.push({
      state,
      stateName: cell('GEONAME'),
      market,
      period,
      series: series as NmdbRateSeries,
      valueLoan,
      valueDollar,
      suppressed: suppressed === '1',
      line,
    });
  });
  if (!index) throw new SourceFormatError(where, undefined, 'the CSV is empty');
  return { rows, csvName: entry.name, linesRead, skippedSeries, unknownMarkets };
}
