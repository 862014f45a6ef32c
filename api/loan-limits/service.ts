// Loan limits for a state or one county: conforming (FHFA), FHA (HUD), VA (the conforming limit)
// and USDA (no limit), 1–4 units, with each figure's source and as-of date. The REST route, the
// MCP tool `get_loan_limits` and /ask all answer through `getLoanLimits`.
import type { Clock } from '../deps.ts';
import type { Queryable } from '../platform/db/database.ts';
import type { DatasetRecord, DatasetStatus } from '../platform/datasets.ts';
import { NotFoundError } from '../platform/http/errors.ts';
import { readNationalHistory, type NationalHistory } from './history.ts';
import { titleCase } from './names.ts';
import { countiesOf, resolveCounty, resolveState, stateName, type CountyRecord } from './resolve.ts';
import { FHFA_PAGE, HUD_PAGE } from './sources.ts';
import { createReferenceCache } from './reference-cache.ts';
import { SPECIAL_AREAS } from './validate.ts';

export const LOAN_TYPES = ['conforming', 'fha', 'va', 'usda', 'all'] as const;
export type LoanType = (typeof LOAN_TYPES)[number];
type Program = 'conforming' | 'fha';

export interface LoanLimitsQuery {
  /** 2-letter code or name (required). */
  state: string;
  /** County name (any common spelling) or 5-digit FIPS; omit for every county of the state. */
  county?: string;
  /** Calendar year; default: the current year when loaded, else the latest loaded. */
  year?: number;
  loanType?: LoanType;
  /** 1–4: only that unit count's limit; omit for all four. */
  units?: 1 | 2 | 3 | 4;
}

export type UnitLimits = Partial<Record<'1' | '2' | '3' | '4', number>>;

export interface ProgramLimit {
  available: boolean;
  /** Limit by number of units; null when the program has no limit or no data. */
  limits: UnitLimits | null;
  /** conforming: `baseline` or `high_cost`; FHA: `standard` (the floor) or `high_cost`. */
  tier?: string;
  note?: string;
}

export interface CountyLimits {
  fips: string;
  county: string;
  state: string;
  /** `planning_region` for Connecticut's county-equivalents since 2022. */
  kind: 'county' | 'planning_region';
  cbsa: string | null;
  conforming?: ProgramLimit;
  fha?: ProgramLimit;
  va?: ProgramLimit;
  usda?: ProgramLimit;
  note?: string;
}

export interface LoanLimitsSource {
  loan_type: string;
  dataset: string | null;
  publisher: string;
  source_url: string;
  as_of: string | null;
}

export interface LoanLimitsResult {
  parameters: { state: string; state_name: string; county: string | null; year: number; loan_type: LoanType; units: number | null };
  year: number;
  counties: CountyLimits[];
  national: {
    conforming?: { baseline: UnitLimits; ceiling: UnitLimits } | null;
    fha?: { floor: UnitLimits; ceiling: UnitLimits } | null;
  };
  sources: LoanLimitsSource[];
  notes: string[];
}

export interface LoanLimitsService {
  getLoanLimits(query: LoanLimitsQuery): Promise<LoanLimitsResult>;
  /** The national history fact file (conforming since 1972, FHA since 2008), with sources. */
  nationalHistory(): NationalHistory;
  /** Years with county data per program. */
  years(): Promise<Record<Program, number[]>>;
}

const DATASET: Record<Program, string> = { conforming: 'loan_limits_conforming', fha: 'loan_limits_fha' };

export const VA_NOTE =
  'VA loans use the conforming limit of the county: it caps the guaranty for borrowers with reduced (partial) entitlement. ' +
  'Borrowers with full entitlement have had no VA loan limit since 2020 (Blue Water Navy Vietnam Veterans Act of 2019).';
export const USDA_NOTE =
  'USDA guaranteed loans (Section 502) have no loan limit: eligibility is set by household income limits and the property area, and the amount by repayment ability.';
const USDA_URL = 'https://www.rd.usda.gov/programs-services/single-family-housing-programs/single-family-housing-guaranteed-loan-program';

interface LimitDbRow {
  program: Program;
  fips: string;
  source_name: string;
  cbsa: string | null;
  limit_1: number;
  limit_2: number;
  limit_3: number;
  limit_4: number;
  limit_type: string | null;
}

interface NationalDbRow {
  program: Program;
  kind: 'floor' | 'ceiling';
  limit_1: number;
  limit_2: number;
  limit_3: number;
  limit_4: number;
}

function pickUnits(values: readonly number[], units: number | undefined): UnitLimits {
  const all: UnitLimits = { '1': Number(values[0]), '2': Number(values[1]), '3': Number(values[2]), '4': Number(values[3]) };
  if (units === undefined) return all;
  const key = String(units) as keyof UnitLimits;
  return { [key]: all[key] };
}

const rowValues = (row: { limit_1: number; limit_2: number; limit_3: number; limit_4: number }) => [row.limit_1, row.limit_2, row.limit_3, row.limit_4];

export function createLoanLimitsService(db: Queryable, options: { datasets?: DatasetStatus; clock?: Clock } = {}): LoanLimitsService {
  const clock = options.clock ?? (() => new Date());

  const reference = createReferenceCache(db);

  async function years(from: Queryable = db): Promise<Record<Program, number[]>> {
    const { rows } = await from.query<{ program: Program; year: number }>('SELECT DISTINCT program, year FROM loan_limits ORDER BY year');
    return {
      conforming: rows.filter((row) => row.program === 'conforming').map((row) => Number(row.year)),
      fha: rows.filter((row) => row.program === 'fha').map((row) => Number(row.year)),
    };
  }

  async function record(name: string): Promise<DatasetRecord | undefined> {
    return options.datasets ? options.datasets.require(name) : undefined;
  }

  function chooseYear(requested: number | undefined, available: number[], programs: Program[]): number {
    if (requested !== undefined) {
      if (programs.length > 0 && !available.includes(requested)) {
        const label = programs.map((program) => (program === 'fha' ? 'FHA' : 'conforming')).join(' or ');
        throw new NotFoundError(
          `No ${label} county loan limits are loaded for ${requested}. Years available: ${available.join(', ') || 'none'}. ` +
            'National limits back to 1972 are in the loan-limit history.',
        );
      }
      return requested;
    }
    const current = clock().getFullYear();
    if (available.length === 0) return current;
    if (available.includes(current)) return current;
    const past = available.filter((year) => year <= current);
    return past.at(-1) ?? (available.at(-1) as number);
  }

  return {
    years,
    nationalHistory: () => readNationalHistory(),

    async getLoanLimits(query) {
      const loanType = query.loanType ?? 'all';
      const wanted = new Set<'conforming' | 'fha' | 'va' | 'usda'>(loanType === 'all' ? ['conforming', 'fha', 'va', 'usda'] : [loanType]);
      const programs: Program[] = [];
      if (wanted.has('conforming') || wanted.has('va')) programs.push('conforming');
      if (wanted.has('fha')) programs.push('fha');

      await record('counties');
      const records = new Map<Program, DatasetRecord | undefined>();
      for (const program of programs) records.set(program, await record(DATASET[program]));
      // States, counties and loaded years come from memory until one of these datasets is reloaded.
      const watched: string[] = ['counties', DATASET.conforming, DATASET.fha];
      const version = (await options.datasets?.list())
        ?.filter((entry) => watched.includes(entry.name))
        .map((entry) => `${entry.name}@${entry.loadedAt}`)
        .join(',');
      const cached = reference.at(version);

      const state = await resolveState(cached, query.state);
      const counties = await countiesOf(cached, state);
      const county = query.county === undefined || query.county.trim() === '' ? undefined : resolveCounty(counties, state, query.county);

      const loaded = await years(cached);
      // With `all`, a year needs conforming data (FHA may lack a year HUD's file is missing for).
      const yearPrograms: Program[] = programs.includes('conforming') ? ['conforming'] : programs;
      const available = [...new Set(yearPrograms.flatMap((program) => loaded[program]))].sort((a, b) => a - b);
      const year = chooseYear(query.year, available, yearPrograms);

      const { rows } = await db.query<LimitDbRow>(
        `SELECT program, fips, source_name, cbsa, limit_1, limit_2, limit_3, limit_4, limit_type FROM loan_limits
         WHERE state = $1 AND year = $2 AND program = ANY($3::text[]) ${county ? 'AND fips = $4' : ''}`,
        county ? [state, year, programs, county.fips] : [state, year, programs],
      );
      const byProgram = new Map<string, LimitDbRow>(rows.map((row) => [`${row.program}:${row.fips}`, row]));
      const { rows: nationalRows } = await db.query<NationalDbRow>(
        'SELECT program, kind, limit_1, limit_2, limit_3, limit_4 FROM loan_limit_national WHERE year = $1 AND program = ANY($2::text[])',
        [year, programs],
      );

      const places: CountyRecord[] = county ? [county] : counties;
      // Names FHFA lists that the county list lacks (rare renames) still appear, in the publisher's words.
      if (!county) {
        const known = new Set(counties.map((c) => c.fips));
        for (const row of rows) {
          if (known.has(row.fips)) continue;
          known.add(row.fips);
          places.push({ fips: row.fips, state, stateFips: row.fips.slice(0, 2), name: titleCase(row.source_name), matchKey: '', kind: 'county', note: null });
        }
      }
      const fhaYears = loaded.fha;
      const result: CountyLimits[] = [];
      for (const place of places) {
        const conforming = byProgram.get(`conforming:${place.fips}`);
        const fha = byProgram.get(`fha:${place.fips}`);
        if (!county && !conforming && !fha) continue; // e.g. old CT counties in years FHFA dropped them
        const entry: CountyLimits = {
          fips: place.fips, county: place.name, state, kind: place.kind, cbsa: conforming?.cbsa ?? fha?.cbsa ?? null,
          ...(place.note ? { note: place.note } : {}),
        };
        const missing = (program: string) =>
          program === 'FHA' && !fhaYears.includes(year)
            ? `HUD FHA limits for ${year} are not loaded (years available: ${fhaYears.join(', ')}).`
            : place.state === 'CT'
              ? `The ${year} ${program} file does not list ${place.name}; Connecticut appears as ${place.kind === 'planning_region' ? 'its former counties' : 'planning regions'} there.`
              : `The ${year} ${program} file has no record for ${place.name}.`;
        const conformingLimit: ProgramLimit = conforming
          ? { available: true, limits: pickUnits(rowValues(conforming), query.units), tier: conformingTier(Number(conforming.limit_1), state, nationalRows) }
          : { available: false, limits: null, note: missing('conforming') };
        if (wanted.has('conforming')) entry.conforming = conformingLimit;
        if (wanted.has('fha')) {
          entry.fha = fha
            ? { available: true, limits: pickUnits(rowValues(fha), query.units), tier: fha.limit_type === 'H' ? 'high_cost' : 'standard' }
            : { available: false, limits: null, note: missing('FHA') };
        }
        if (wanted.has('va')) entry.va = { ...conformingLimit, tier: undefined, note: VA_NOTE };
        if (wanted.has('usda')) entry.usda = { available: false, limits: null, note: USDA_NOTE };
        result.push(entry);
      }

      const nationalOf = (program: Program) => {
        const floor = nationalRows.find((row) => row.program === program && row.kind === 'floor');
        const ceiling = nationalRows.find((row) => row.program === program && row.kind === 'ceiling');
        return floor && ceiling ? { floor: pickUnits(rowValues(floor), query.units), ceiling: pickUnits(rowValues(ceiling), query.units) } : null;
      };
      const national: LoanLimitsResult['national'] = {};
      if (programs.includes('conforming')) {
        const figures = nationalOf('conforming');
        national.conforming = figures ? { baseline: figures.floor, ceiling: figures.ceiling } : null;
      }
      if (programs.includes('fha')) national.fha = nationalOf('fha');

      const sources: LoanLimitsSource[] = [];
      const conformingRecord = records.get('conforming');
      if (wanted.has('conforming')) sources.push({ loan_type: 'conforming', dataset: DATASET.conforming, publisher: 'Federal Housing Finance Agency (FHFA)', source_url: conformingRecord?.sourceUrl ?? FHFA_PAGE, as_of: `${year}-01-01` });
      if (wanted.has('fha')) sources.push({ loan_type: 'fha', dataset: DATASET.fha, publisher: 'U.S. Department of Housing and Urban Development (HUD)', source_url: records.get('fha')?.sourceUrl ?? HUD_PAGE, as_of: fhaYears.includes(year) ? `${year}-01-01` : null });
      if (wanted.has('va')) sources.push({ loan_type: 'va', dataset: DATASET.conforming, publisher: 'FHFA conforming limits, as used by the Department of Veterans Affairs', source_url: conformingRecord?.sourceUrl ?? FHFA_PAGE, as_of: `${year}-01-01` });
      if (wanted.has('usda')) sources.push({ loan_type: 'usda', dataset: null, publisher: 'U.S. Department of Agriculture Rural Development', source_url: USDA_URL, as_of: null });

      const notes = [`Limits apply to loans acquired or endorsed in calendar year ${year} (effective January 1).`];
      if (!county) notes.push(`${result.length} counties of ${stateName(state)}; give 'county' for one.`);
      return {
        parameters: { state, state_name: stateName(state), county: county?.name ?? null, year, loan_type: loanType, units: query.units ?? null },
        year,
        counties: result,
        national,
        sources,
        notes,
      };
    },
  };
}

/** `high_cost` above the area's statutory baseline (150% of the national one in AK, HI, GU, VI). */
function conformingTier(oneUnit: number, state: string, rows: readonly NationalDbRow[]): string {
  const national = Number(rows.find((row) => row.program === 'conforming' && row.kind === 'floor')?.limit_1 ?? Infinity);
  const baseline = SPECIAL_AREAS.has(state) ? Math.floor(national * 1.5) : national;
  return oneUnit > baseline ? 'high_cost' : 'baseline';
}
