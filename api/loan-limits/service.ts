// Loan limits for a state or one county: conforming (FHFA), FHA (HUD), VA (the conforming limit)
// and USDA (no limit), 1–4 units, with each figure's source and as-of date. The REST route, the
// MCP tool `get_loan_limits` and /ask all answer through `getLoanLimits`.
import type { Clock } from '../deps.ts';
import type { Queryable } from '../platform/db/database.ts';
import type { DatasetRecord, DatasetStatus } from '../platform/datasets.ts';
import { NotFoundError } from '../platform/http/errors.ts';
import { historyFor, readNationalHistory, type NationalHistory } from './history.ts';
import { historyView, type LoanLimitHistory, type LoanLimitHistoryQuery } from './history-view.ts';
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
  /** The calendar year these limits apply to (a program's latest published year when no year was asked). */
  year?: number;
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
  /**
   * The year each program's figures are for. Without a requested year each program answers with its
   * latest published year up to the current one, so FHA may be a year behind conforming.
   */
  years: Partial<Record<Program, number>>;
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
  /** The national history as served (GET /loan-limits/history): a program and year range, each figure with its source. */
  history(query: LoanLimitHistoryQuery): LoanLimitHistory;
  /** Years with county data per program. */
  years(): Promise<Record<Program, number[]>>;
}

const DATASET: Record<Program, string> = { conforming: 'loan_limits_conforming', fha: 'loan_limits_fha' };
const PUBLISHER_OF: Record<Program, string> = { conforming: 'FHFA', fha: 'HUD' };
const programLabel = (program: Program) => (program === 'fha' ? 'FHA' : 'conforming');
const money = (value: number) => `$${value.toLocaleString('en-US')}`;

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

  function notLoaded(requested: number, available: number[], programs: Program[]): NotFoundError {
    const label = programs.map(programLabel).join(' or ');
    const national = programs.flatMap((program) => {
      const figures = historyFor(program, requested);
      if (!figures?.floor) return [];
      const [low, high] = program === 'fha' ? ['FHA floor', 'ceiling'] : ['national conforming baseline', 'high-cost ceiling'];
      return [`the ${low} was ${money(figures.floor)}${figures.ceiling ? ` and the ${high} ${money(figures.ceiling)}` : ''}`];
    });
    return new NotFoundError(
      `No ${label} county loan limits are loaded for ${requested}. Years available: ${available.join(', ') || 'none'}. ` +
        `National one-unit limits back to 1972 are at /api/v1/loan-limits/history${national.length > 0 ? `; for ${requested} ${national.join('; ')}` : ''}.`,
    );
  }

  /** The latest loaded year up to the current one (else the latest loaded): a program's default. */
  function latestPublished(available: readonly number[]): number | undefined {
    const current = clock().getFullYear();
    return available.filter((year) => year <= current).at(-1) ?? available.at(-1);
  }

  return {
    years,
    nationalHistory: () => readNationalHistory(),
    history: (query) => historyView(readNationalHistory(), query),

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
      // A requested year is every program's year (a program without it says so); with `all` it must
      // have conforming data. Without one, each program answers with its own latest published year.
      const yearOf: Partial<Record<Program, number>> = {};
      if (query.year !== undefined) {
        const deciding: Program[] = programs.includes('conforming') ? ['conforming'] : programs;
        const available = [...new Set(deciding.flatMap((program) => loaded[program]))].sort((a, b) => a - b);
        if (deciding.length > 0 && !available.includes(query.year)) throw notLoaded(query.year, available, deciding);
        for (const program of programs) yearOf[program] = query.year;
      } else {
        for (const program of programs) yearOf[program] = latestPublished(loaded[program]) ?? clock().getFullYear();
      }
      const year = yearOf[programs[0] ?? 'conforming'] ?? query.year ?? clock().getFullYear();
      const current = clock().getFullYear();

      // Each program at its own year: (conforming, 2026) and (fha, 2025) when those are the defaults.
      const conformingYear = yearOf.conforming ?? -1;
      const fhaYear = yearOf.fha ?? -1;
      const { rows } = await db.query<LimitDbRow>(
        `SELECT program, fips, source_name, cbsa, limit_1, limit_2, limit_3, limit_4, limit_type FROM loan_limits
         WHERE state = $1 AND ((program = 'conforming' AND year = $2) OR (program = 'fha' AND year = $3)) ${county ? 'AND fips = $4' : ''}`,
        county ? [state, conformingYear, fhaYear, county.fips] : [state, conformingYear, fhaYear],
      );
      const byProgram = new Map<string, LimitDbRow>(rows.map((row) => [`${row.program}:${row.fips}`, row]));
      const { rows: nationalRows } = await db.query<NationalDbRow>(
        `SELECT program, kind, limit_1, limit_2, limit_3, limit_4 FROM loan_limit_national
         WHERE (program = 'conforming' AND year = $1) OR (program = 'fha' AND year = $2)`,
        [conformingYear, fhaYear],
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
        const missing = (program: string, programYear: number) =>
          program === 'FHA' && !fhaYears.includes(programYear)
            ? `HUD FHA limits for ${programYear} are not loaded (years available: ${fhaYears.join(', ')}).`
            : place.state === 'CT'
              ? `The ${programYear} ${program} file does not list ${place.name}; Connecticut appears as ${place.kind === 'planning_region' ? 'its former counties' : 'planning regions'} there.`
              : `The ${programYear} ${program} file has no record for ${place.name}.`;
        const conformingLimit: ProgramLimit = conforming
          ? { available: true, year: conformingYear, limits: pickUnits(rowValues(conforming), query.units), tier: conformingTier(Number(conforming.limit_1), state, nationalRows) }
          : { available: false, year: conformingYear, limits: null, note: missing('conforming', conformingYear) };
        if (wanted.has('conforming')) entry.conforming = conformingLimit;
        if (wanted.has('fha')) {
          entry.fha = fha
            ? { available: true, year: fhaYear, limits: pickUnits(rowValues(fha), query.units), tier: fha.limit_type === 'H' ? 'high_cost' : 'standard' }
            : { available: false, year: fhaYear, limits: null, note: missing('FHA', fhaYear) };
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
      if (wanted.has('conforming')) sources.push({ loan_type: 'conforming', dataset: DATASET.conforming, publisher: 'Federal Housing Finance Agency (FHFA)', source_url: conformingRecord?.sourceUrl ?? FHFA_PAGE, as_of: `${conformingYear}-01-01` });
      if (wanted.has('fha')) sources.push({ loan_type: 'fha', dataset: DATASET.fha, publisher: 'U.S. Department of Housing and Urban Development (HUD)', source_url: records.get('fha')?.sourceUrl ?? HUD_PAGE, as_of: fhaYears.includes(fhaYear) ? `${fhaYear}-01-01` : null });
      if (wanted.has('va')) sources.push({ loan_type: 'va', dataset: DATASET.conforming, publisher: 'FHFA conforming limits, as used by the Department of Veterans Affairs', source_url: conformingRecord?.sourceUrl ?? FHFA_PAGE, as_of: `${conformingYear}-01-01` });
      if (wanted.has('usda')) sources.push({ loan_type: 'usda', dataset: null, publisher: 'U.S. Department of Agriculture Rural Development', source_url: USDA_URL, as_of: null });

      const distinctYears = [...new Set(programs.map((program) => yearOf[program]))];
      const notes = [
        distinctYears.length === 1
          ? `Limits apply to loans acquired or endorsed in calendar year ${year} (effective January 1).`
          : `Limits apply to loans acquired or endorsed in the calendar year shown for each program (effective January 1): ${programs.map((program) => `${programLabel(program)} ${yearOf[program]}`).join(', ')}.`,
      ];
      if (query.year === undefined) {
        for (const program of programs) {
          const programYear = yearOf[program];
          if (programYear !== undefined && programYear < current) {
            notes.push(
              `${PUBLISHER_OF[program]}'s ${current} ${programLabel(program)} limits are not loaded yet; the ${programLabel(program)} figures are its ${programYear} limits, the latest published.`,
            );
          }
        }
      }
      if (!county) notes.push(`${result.length} counties of ${stateName(state)}; give 'county' for one.`);
      return {
        parameters: { state, state_name: stateName(state), county: county?.name ?? null, year, loan_type: loanType, units: query.units ?? null },
        year,
        years: Object.fromEntries(programs.map((program) => [program, yearOf[program]])) as Partial<Record<Program, number>>,
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
