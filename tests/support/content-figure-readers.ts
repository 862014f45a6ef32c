// Small, independent readers of the official publisher files, used to check the figures quoted in
// content/articles against the files themselves. They deliberately share no code with api/: a
// mistake in the service's parsers must not be able to confirm a mistake in an article.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateRawSync } from 'node:zlib';
import readXlsxFile from 'read-excel-file/node';
import { sourceFile } from './source-data.ts';

/** A text file without its BOM, split into non-empty lines (LF or CRLF). */
export function lines(...parts: string[]): string[] {
  const text = fs.readFileSync(sourceFile(...parts), 'utf8').replace(/^\uFEFF/, '');
  return text.split(/\r?\n/).filter((line) => line.trim() !== '');
}

/** One CSV line into fields, honouring double quotes (HUD's metro names contain commas). */
export function csvFields(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      fields.push(field);
      field = '';
    } else field += ch;
  }
  fields.push(field);
  return fields;
}

/** Rows of a headed CSV as objects keyed by the header's column names. */
export function csvRecords(...parts: string[]): Record<string, string>[] {
  const [header, ...rows] = lines(...parts);
  const names = csvFields(header ?? '').map((name) => name.trim());
  return rows.map((row) => Object.fromEntries(csvFields(row).map((value, i) => [names[i] ?? `col${i}`, value.trim()])));
}

export interface CountyLimit {
  state: string;
  cbsa: string;
  oneUnit: number;
}

/** FHFA's pipe-delimited county list (2018–2025): fixed column order, header with or without spaces. */
export function fhfaPipe(year: number): Map<string, CountyLimit> {
  const [header, ...rows] = lines('loan_limits', 'fhfa_conforming', `FullCountyLoanLimitList${year}.txt`);
  if (!/^FIPS\s*State\s*Code\|/i.test(header ?? '')) throw new Error(`unexpected FHFA ${year} header: ${header}`);
  const out = new Map<string, CountyLimit>();
  for (const row of rows) {
    const f = row.split('|');
    out.set(`${(f[0] ?? '').trim().padStart(2, '0')}${(f[1] ?? '').trim().padStart(3, '0')}`, {
      state: (f[3] ?? '').trim(),
      cbsa: (f[4] ?? '').trim().replace(/\.0$/, ''),
      oneUnit: Number(f[5]),
    });
  }
  return out;
}

/** FHFA's own 2026 workbook ("GSE Limits" sheet: a title row, then the header). */
export async function fhfa2026(): Promise<Map<string, CountyLimit>> {
  const sheets = (await readXlsxFile(
    fs.readFileSync(sourceFile('loan_limits', 'fhfa_conforming', 'fullcountyloanlimitlist2026_hera-based_final_flat.xlsx')),
  )) as unknown as { sheet: string; data: unknown[][] }[];
  const sheet = sheets.find((s) => /gse/i.test(s.sheet)) ?? sheets[0];
  const rows = (sheet?.data ?? []).map((row) => row.map((cell) => (cell === null || cell === undefined ? '' : String(cell).trim())));
  const headerAt = rows.findIndex((row) => row[0] === 'FIPS State Code');
  const header = (rows[headerAt] ?? []).map((name) => name.replace(/\s+/g, ' ')); // "One-Unit\r\nLimit"
  const col = (name: string) => header.indexOf(name);
  const out = new Map<string, CountyLimit>();
  for (const row of rows.slice(headerAt + 1)) {
    if (!row[col('FIPS State Code')]) continue;
    out.set(`${row[col('FIPS State Code')]?.padStart(2, '0')}${row[col('FIPS County Code')]?.padStart(3, '0')}`, {
      state: row[col('State')] ?? '',
      cbsa: row[col('CBSA Number')] ?? '',
      oneUnit: Number(row[col('One-Unit Limit')]),
    });
  }
  return out;
}

export interface FhaCounty {
  state: string;
  county: string;
  type: string;
  oneUnit: number;
  median: number;
  metro: string;
}

/** HUD's forward-mortgage county limits (CHUMS layout as CSV); national rows have no state. */
export function hudForward(year: number): FhaCounty[] {
  return csvRecords('loan_limits', 'hud_fha', `forward_limits_${year}.csv`)
    .filter((r) => (r.state ?? '') !== '')
    .map((r) => ({
      state: r.state ?? '',
      county: r['county-fips'] ?? '',
      type: r['limit-type'] ?? '',
      oneUnit: Number(r['limit-1-unit']),
      median: Number(r['median-price']),
      metro: r['metro-name'] ?? '',
    }));
}

/** `date,value` lines; blank and "." values (holidays) are skipped. */
function dated(rows: string[]): [string, number][] {
  return rows
    .map((line) => line.split(','))
    .filter(([, value]) => value !== undefined && value.trim() !== '' && value.trim() !== '.')
    .map(([date, value]) => [String(date).trim(), Number(value)]);
}

/** A FRED-style two-column series with a header row. */
export const series = (...parts: string[]): [string, number][] => dated(lines(...parts).slice(1));

/** The same for a file that has no header row (Freddie Mac's 5/1 ARM copy). */
export const headerlessSeries = (...parts: string[]): [string, number][] => dated(lines(...parts));

/** The first column of a headed CSV (the FOMC decision calendar has only a date column). */
export const firstColumn = (...parts: string[]): string[] =>
  lines(...parts)
    .slice(1)
    .map((line) => (line.split(',')[0] ?? '').trim());

/** The single CSV inside a zip archive, read through the central directory (no dependency). */
export function unzipOnlyFile(...parts: string[]): string {
  const zip = fs.readFileSync(sourceFile(...parts));
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== 0x06054b50) end -= 1;
  if (end < 0) throw new Error('not a zip archive');
  const central = zip.readUInt32LE(end + 16);
  if (zip.readUInt32LE(central) !== 0x02014b50) throw new Error('bad central directory');
  const method = zip.readUInt16LE(central + 10);
  const compressed = zip.readUInt32LE(central + 20);
  const local = zip.readUInt32LE(central + 42);
  const dataStart = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
  const data = zip.subarray(dataStart, dataStart + compressed);
  return (method === 0 ? data : inflateRawSync(data)).toString('utf8');
}

export type NmdbKey = `${string}|${string}|${string}|${string}`;

/** FHFA NMDB state file: `state|market|period|series` → [VALUE1 (per loan), VALUE2 (per dollar)]. */
export function nmdbStates(wanted: ReadonlySet<string>): Map<NmdbKey, [number, number]> {
  const [header, ...rows] = unzipOnlyFile('rates', 'state_nmdb', 'nmdb-outstanding-mortgage-statistics-states-quarterly.zip').split('\n');
  const names = (header ?? '').trim().split(',');
  const at = (name: string) => names.indexOf(name);
  const [geo, market, period, id, v1, v2] = ['GEOID', 'MARKET', 'PERIOD', 'SERIESID', 'VALUE1', 'VALUE2'].map(at);
  const out = new Map<NmdbKey, [number, number]>();
  for (const row of rows) {
    const f = row.trim().split(',');
    if (!wanted.has(f[id as number] ?? '')) continue;
    out.set(`${f[geo as number]}|${f[market as number]}|${f[period as number]}|${f[id as number]}`, [
      Number(f[v1 as number]),
      Number(f[v2 as number]),
    ]);
  }
  return out;
}

export type Counts = Record<string, number>;
export type HmdaGeo = Record<string, Counts>;

/** FFIEC HMDA aggregates (the HMDA Maps data): geography → field → code → count. */
export function hmda(kind: 'state' | 'county', year: number): Record<string, HmdaGeo> {
  return JSON.parse(fs.readFileSync(sourceFile('hmda', 'aggregates', `by_${kind}_${year}.json`), 'utf8')) as Record<string, HmdaGeo>;
}

export const total = (counts: Counts | undefined): number => Object.values(counts ?? {}).reduce((a, b) => a + b, 0);
export const count = (counts: Counts | undefined, code: string): number => counts?.[code] ?? 0;

/** Denied ÷ (originated + approved not accepted + denied), in percent. */
export function denialRate(actions: Counts | undefined): number {
  const decided = count(actions, '1') + count(actions, '2') + count(actions, '3');
  return (100 * count(actions, '3')) / decided;
}

/**
 * The 50 states and DC (territories and the "NA" bucket are never ranked), sorted: the rows of the
 * mirror's state code list below FIPS 60, where the territories' codes begin.
 */
export function stateCodes(): string[] {
  const [header = '', ...rows] = lines('geo', 'state_codes_DERIVED.csv').map(csvFields);
  const [abbr, fips] = [header.indexOf('state_abbr'), header.indexOf('state_fips')];
  return rows
    .filter((row) => Number(row[fips]) < 60)
    .map((row) => row[abbr] ?? '')
    .sort();
}

export function population(): Record<string, number> {
  return JSON.parse(fs.readFileSync(sourceFile('geo', 'hmda_county_population_2024.json'), 'utf8')) as Record<string, number>;
}

/** Rounds half away from zero at one decimal, the way the articles print shares. */
export const round1 = (x: number): number => (Math.sign(x) * Math.round(Math.abs(x) * 10 + 1e-9)) / 10;
export const pct1 = (x: number): string => `${round1(x).toFixed(1)}%`;
export const money = (n: number): string => `$${n.toLocaleString('en-US')}`;
export const thousands = (n: number): string => n.toLocaleString('en-US');

export const articlesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'content', 'articles');
export function article(slug: string): string {
  return fs.readFileSync(path.join(articlesDir, `${slug}.md`), 'utf8');
}
