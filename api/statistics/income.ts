// The `hud_median_family_income` dataset: HUD's Section 8 area median family income per county (or
// New England town), FY2018–FY2022, an input of the affordability statistics, with the income limits
// of each area (extremely low, very low and low, for households of 1 to 8) that /ask answers from.
// The files differ in column order, quoting and encoding (FY19 is Latin-1), so columns are mapped by
// header name.
import { columnIndexes, decodeText, parseDelimited } from '../sync/delimited.ts';
import { SourceFormatError, ValidationError } from '../sync/errors.ts';
import { combineChecksums } from '../sync/source.ts';
import { deleteMissingRows, upsertRows } from '../sync/upsert.ts';
import type { DatasetDefinition, SourceFile } from '../sync/types.ts';
import type { Queryable } from '../platform/db/database.ts';
import { STATE_CODES } from '../geo/states.ts';
import { HUD_INCOME_LIMITS_URL, INCOME_YEARS, hudIncomeEntry } from '../hmda-aggregates/reads.ts';

export const HUD_INCOME_DATASET = 'hud_median_family_income';

/** UTF-8 unless the bytes are not valid UTF-8, then Latin-1 (FY19's "Doña Ana County"). */
function decode(bytes: Buffer): string {
  const utf8 = bytes.toString('utf8');
  return decodeText(utf8.includes('\uFFFD') ? bytes.toString('latin1') : utf8);
}

export function parseIncomeFile(file: SourceFile, fiscalYear: number): (string | number)[][] {
  const [header, ...records] = parseDelimited(decode(file.bytes), ',', file.origin);
  if (!header) throw new SourceFormatError(file.origin, 1, 'empty file');
  const columns = columnIndexes(
    header,
    {
      state: ['State_Alpha'],
      fips: ['fips2010'],
      median: [`median${fiscalYear}`],
      county: ['County_Name', 'county_town_name'],
      town: ['county_town_name', 'County_Name'],
      ...limitColumns(),
    },
    file.origin,
  );
  return records.map((record) => {
    const cell = (name: keyof typeof columns) => (record.fields[columns[name]] ?? '').trim();
    const fips = cell('fips');
    const median = Number(cell('median'));
    if (!/^\d{10}$/.test(fips)) throw new SourceFormatError(file.origin, record.line, `fips2010 "${fips}" is not 10 digits`);
    if (!Number.isInteger(median) || median < 10_000 || median > 500_000) {
      throw new SourceFormatError(
        file.origin,
        record.line,
        `median${fiscalYear} "${cell('median')}" is not a plausible median family income`,
      );
    }
    const limits = Object.fromEntries(
      INCOME_LEVELS.map(({ key, column }) => [key, HOUSEHOLD_SIZES.map((size) => Number(cell(`${column}_${size}` as never)) || null)]),
    );
    return [fiscalYear, fips, cell('state'), fips.slice(0, 5), cell('town') || cell('county'), median, JSON.stringify(limits)];
  });
}

/** HUD's income levels, as the files name their columns (`ELI_4`, `l50_4`, `l80_4`). */
export const INCOME_LEVELS = [
  { key: 'extremely_low', column: 'ELI', title: 'extremely low-income (30%) limit' },
  { key: 'very_low', column: 'l50', title: 'very low-income (50%) limit' },
  { key: 'low', column: 'l80', title: 'low-income (80%) limit' },
] as const;
export type IncomeLevel = (typeof INCOME_LEVELS)[number]['key'];
export const HOUSEHOLD_SIZES = [1, 2, 3, 4, 5, 6, 7, 8] as const;

function limitColumns(): Record<string, string[]> {
  return Object.fromEntries(
    INCOME_LEVELS.flatMap(({ column }) => HOUSEHOLD_SIZES.map((size) => [`${column}_${size}`, [`${column}_${size}`]])),
  );
}

/** One area's figures of a fiscal year: its median family income and its income limits by household size. */
export interface IncomeArea {
  fiscalYear: number;
  areaFips: string;
  name: string;
  state: string;
  median: number;
  limits: Partial<Record<IncomeLevel, (number | null)[]>>;
}

interface AreaRow {
  fiscal_year: number;
  area_fips: string;
  area_name: string;
  state: string;
  median: number;
  limits: unknown;
}

const toArea = (row: AreaRow): IncomeArea => ({
  fiscalYear: Number(row.fiscal_year),
  areaFips: row.area_fips,
  name: row.area_name,
  state: row.state,
  median: Number(row.median),
  limits: (typeof row.limits === 'string' ? JSON.parse(row.limits) : (row.limits ?? {})) as IncomeArea['limits'],
});

/**
 * A county's figures for a fiscal year (the latest loaded when none is given): the area HUD lists
 * for the whole county (`<county FIPS>99999`), or every New England town of it.
 */
export async function incomeAreas(db: Queryable, countyFips: string, fiscalYear?: number): Promise<IncomeArea[]> {
  const { rows } = await db.query<AreaRow>(
    `SELECT fiscal_year, area_fips, area_name, state, median, limits FROM hud_median_family_income
     WHERE county_fips = $1 AND fiscal_year = COALESCE($2::integer, (SELECT max(fiscal_year) FROM hud_median_family_income))
     ORDER BY area_fips`,
    [countyFips, fiscalYear ?? null],
  );
  return rows.map(toArea);
}

/** Every whole-county area (`<county FIPS>99999`) of one fiscal year, by county: one year of the income series. */
export async function wholeCountyAreas(db: Queryable, fiscalYear: number): Promise<IncomeArea[]> {
  const { rows } = await db.query<AreaRow>(
    `SELECT fiscal_year, area_fips, area_name, state, median, limits FROM hud_median_family_income
     WHERE area_fips LIKE '%99999' AND fiscal_year = $1 ORDER BY area_fips`,
    [fiscalYear],
  );
  return rows.map(toArea);
}

/** The fiscal years loaded, oldest first. */
export async function incomeYears(db: Queryable): Promise<number[]> {
  const { rows } = await db.query<{ fy: number }>('SELECT DISTINCT fiscal_year AS fy FROM hud_median_family_income ORDER BY 1');
  return rows.map((row) => Number(row.fy));
}

export const hudIncomeDataset: DatasetDefinition = {
  name: HUD_INCOME_DATASET,
  description: 'HUD Section 8 area median family income and income limits by county or New England town, FY2018–FY2022',
  async load(tx, context) {
    const files: SourceFile[] = [];
    const rows: (string | number)[][] = [];
    const years: number[] = [];
    for (const year of INCOME_YEARS) {
      const file = await context.readOptionalSource(hudIncomeEntry(year));
      if (!file) continue;
      files.push(file);
      const parsed = parseIncomeFile(file, year);
      const states = new Set(parsed.map((row) => row[2]));
      const missing = STATE_CODES.filter((code) => !states.has(code));
      if (parsed.length < 3_000 || missing.length > 0) {
        throw new ValidationError(
          `${file.origin}: ${parsed.length} areas${missing.length > 0 ? `, none for ${missing.join(', ')}` : ''}; expected every state and over 3,000 areas.`,
        );
      }
      rows.push(...parsed);
      years.push(year);
    }
    if (years.length === 0) throw new ValidationError(`No HUD income-limit file found for FY${INCOME_YEARS.join(', FY')}.`);
    let changed = await upsertRows(tx, {
      table: 'hud_median_family_income',
      key: ['fiscal_year', 'area_fips'],
      columns: ['fiscal_year', 'area_fips', 'state', 'county_fips', 'area_name', 'median', 'limits'],
      rows,
      onBatch: (done, total) => context.progress(done, total),
    });
    changed += await deleteMissingRows(tx, {
      table: 'hud_median_family_income',
      key: ['fiscal_year', 'area_fips'],
      scope: 'fiscal_year = ANY($1)',
      scopeParams: [years],
      keep: rows.map((row) => row.slice(0, 2)),
    });
    const latest = Math.max(...years);
    return {
      // The files carry no effective date: cite the start of the federal fiscal year (FY2022 → 2021-10-01).
      asOf: `${latest - 1}-10-01`,
      sourceUrl: HUD_INCOME_LIMITS_URL,
      checksum: combineChecksums(files),
      rows: rows.length,
      changed,
      details: { fiscal_years: years },
    };
  },
};

/** The latest fiscal year loaded, or undefined before the first load. */
export async function latestIncomeYear(db: Queryable): Promise<number | undefined> {
  const { rows } = await db.query<{ fy: number | null }>('SELECT max(fiscal_year) AS fy FROM hud_median_family_income');
  const fy = rows[0]?.fy;
  return fy === null || fy === undefined ? undefined : Number(fy);
}

/** The median of one fiscal year's area median family incomes, and how many areas it is over. */
export async function medianAreaIncome(db: Queryable, fiscalYear: number): Promise<{ median: number; areas: number }> {
  const { rows } = await db.query<{ median: string | null; n: string }>(
    'SELECT (percentile_cont(0.5) WITHIN GROUP (ORDER BY median))::text AS median, count(*)::text AS n FROM hud_median_family_income WHERE fiscal_year = $1',
    [fiscalYear],
  );
  return { median: Number(rows[0]?.median ?? 0), areas: Number(rows[0]?.n ?? 0) };
}

/** Percent of one fiscal year's areas where `monthlyPayment` exceeds `ratio` of the area's monthly median family income. */
export async function shareOfAreasOver(db: Queryable, fiscalYear: number, monthlyPayment: number, ratio: number): Promise<number> {
  const { rows } = await db.query<{ share: string | null }>(
    'SELECT (avg(CASE WHEN $2::double precision > median * $3::double precision / 12 THEN 1.0 ELSE 0.0 END) * 100)::text AS share FROM hud_median_family_income WHERE fiscal_year = $1',
    [fiscalYear, monthlyPayment, ratio],
  );
  return Number(rows[0]?.share ?? 0);
}
