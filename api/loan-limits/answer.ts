// Composes one loan-limits answer from the in-memory snapshot: conforming (FHFA), FHA (HUD), VA (the
// conforming limit) and USDA (no limit) for a state or one county, each program at its year, with
// the national figures, sources and notes. No I/O beyond the snapshot's first read of a year.
import type { DatasetRecord } from '../platform/datasets.ts';
import { NotFoundError } from '../platform/errors.ts';
import type { CountyLimits, LoanLimitsAnswer, LoanLimitsSource, LoanType, Program, ProgramLimit, UnitLimits } from './contract.ts';
import { fhaComputedMethod, fhaYearNotLoaded, historyFor } from './history.ts';
import { titleCase } from '../geo/county-names.ts';
import { stateName, type CountyRecord } from './resolve.ts';
import type { FourLimits, LimitRow, LoanLimitSnapshot, NationalLimits } from './snapshot.ts';
import { FHFA_PAGE, HUD_PAGE } from './sources.ts';
import { SPECIAL_AREAS } from './validate.ts';
import type { DatasetVersion } from '../platform/contract/versions.ts';

export const DATASET: Record<Program, string> = { conforming: 'loan_limits_conforming', fha: 'loan_limits_fha' };
const PUBLISHER_OF: Record<Program, string> = { conforming: 'FHFA', fha: 'HUD' };
const programLabel = (program: Program) => (program === 'fha' ? 'FHA' : 'conforming');
const money = (value: number) => `$${value.toLocaleString('en-US')}`;

export const VA_NOTE =
  'VA loans use the conforming limit of the county: it caps the guaranty for borrowers with reduced (partial) entitlement. ' +
  'Borrowers with full entitlement have had no VA loan limit since 2020 (Blue Water Navy Vietnam Veterans Act of 2019).';
export const USDA_NOTE =
  'USDA guaranteed loans (Section 502) have no loan limit: eligibility is set by household income limits and the property area, and the amount by repayment ability.';
export const USDA_URL =
  'https://www.rd.usda.gov/programs-services/single-family-housing-programs/single-family-housing-guaranteed-loan-program';

/** A request after its state and county were found in the county list. */
export interface ResolvedRequest {
  state: string;
  /** The one county asked for, or undefined for every county of the state. */
  county: CountyRecord | undefined;
  year: number | undefined;
  loanType: LoanType;
  units: number | undefined;
}

export interface AnswerContext {
  /** The dataset records of the programs answered (their source URLs). */
  records: ReadonlyMap<Program, DatasetRecord | undefined>;
  currentYear: number;
  /** The dataset versions the snapshot holds (the county list and each program's load). */
  versions: readonly DatasetVersion[];
}

function pickUnits(values: FourLimits, units: number | undefined): UnitLimits {
  const all: UnitLimits = { '1': values[0], '2': values[1], '3': values[2], '4': values[3] };
  if (units === undefined) return all;
  const key = String(units) as keyof UnitLimits;
  return { [key]: all[key] };
}

/** The programs with county files a loan type needs (VA uses the conforming file). */
export function programsFor(loanType: LoanType): Program[] {
  const programs: Program[] = [];
  if (loanType === 'all' || loanType === 'conforming' || loanType === 'va') programs.push('conforming');
  if (loanType === 'all' || loanType === 'fha') programs.push('fha');
  return programs;
}

function notLoaded(requested: number, available: readonly number[], programs: readonly Program[]): NotFoundError {
  const label = programs.map(programLabel).join(' or ');
  const national = programs.flatMap((program) => {
    const figures = historyFor(program, requested);
    // A computed FHA year is said as every face says it: computed, with its method.
    if (program === 'fha' && fhaComputedMethod(requested) !== undefined) return [];
    if (!figures?.floor) return [];
    const [low, high] = program === 'fha' ? ['FHA floor', 'ceiling'] : ['national conforming baseline', 'high-cost ceiling'];
    return [`the ${low} was ${money(figures.floor)}${figures.ceiling ? ` and the ${high} ${money(figures.ceiling)}` : ''}`];
  });
  const computed = programs.includes('fha') && fhaComputedMethod(requested) !== undefined ? ` ${fhaYearNotLoaded(requested)}` : '';
  return new NotFoundError(
    `No ${label} county loan limits are loaded for ${requested}. Years available: ${available.join(', ') || 'none'}. ` +
      `National one-unit limits back to 1972: get_loan_limits {"state":"<code>","from_year":1972} (REST /api/v1/loan-limits/history)${national.length > 0 ? `; for ${requested} ${national.join('; ')}` : ''}.${computed}`,
  );
}

/**
 * Each program's year: a requested year is every program's (a program without it says so; with
 * `all` it must have conforming data), otherwise each program's latest published year up to the
 * current one (else its latest loaded).
 */
function programYears(
  data: LoanLimitSnapshot,
  programs: readonly Program[],
  request: ResolvedRequest,
  currentYear: number,
): Partial<Record<Program, number>> {
  const yearOf: Partial<Record<Program, number>> = {};
  if (request.year !== undefined) {
    const deciding: Program[] = programs.includes('conforming') ? ['conforming'] : [...programs];
    const available = [...new Set(deciding.flatMap((program) => data.years[program]))].sort((a, b) => a - b);
    if (deciding.length > 0 && !available.includes(request.year)) throw notLoaded(request.year, available, deciding);
    for (const program of programs) yearOf[program] = request.year;
    return yearOf;
  }
  for (const program of programs) {
    const loaded = data.years[program];
    yearOf[program] = loaded.filter((year) => year <= currentYear).at(-1) ?? loaded.at(-1) ?? currentYear;
  }
  return yearOf;
}

/** `high_cost` above the area's statutory baseline (150% of the national one in AK, HI, GU, VI). */
function conformingTier(oneUnit: number, state: string, national: NationalLimits): string {
  const baseline = national.floor?.[0] ?? Infinity;
  return oneUnit > (SPECIAL_AREAS.has(state) ? Math.floor(baseline * 1.5) : baseline) ? 'high_cost' : 'baseline';
}

export async function composeAnswer(data: LoanLimitSnapshot, request: ResolvedRequest, context: AnswerContext): Promise<LoanLimitsAnswer> {
  const { state, county, loanType, units } = request;
  const current = context.currentYear;
  const wanted = new Set(loanType === 'all' ? ['conforming', 'fha', 'va', 'usda'] : [loanType]);
  const programs = programsFor(loanType);
  const yearOf = programYears(data, programs, request, current);
  const year = yearOf[programs[0] ?? 'conforming'] ?? request.year ?? current;

  // Each program at its own year: (conforming, 2026) and (fha, 2025) when those are the defaults.
  const conformingYear = yearOf.conforming ?? -1;
  const fhaYear = yearOf.fha ?? -1;
  const conformingRows = await data.limits('conforming', conformingYear, state);
  const fhaRows = await data.limits('fha', fhaYear, state);
  const nationalConforming = data.national('conforming', conformingYear);
  const nationalFha = data.national('fha', fhaYear);

  const counties = data.countiesOf(state);
  const places: CountyRecord[] = county ? [county] : [...counties];
  // Names a publisher lists that the county list lacks (rare renames) still appear, in the publisher's words.
  if (!county) {
    const known = new Set(counties.map((candidate) => candidate.fips));
    for (const row of [...conformingRows.values(), ...fhaRows.values()]) {
      if (known.has(row.fips)) continue;
      known.add(row.fips);
      places.push({
        fips: row.fips,
        state,
        stateFips: row.fips.slice(0, 2),
        name: titleCase(row.sourceName),
        matchKey: '',
        kind: 'county',
        note: null,
      });
    }
  }

  const fhaYears = data.years.fha;
  const result: CountyLimits[] = [];
  for (const place of places) {
    const conforming: LimitRow | undefined = conformingRows.get(place.fips);
    const fha: LimitRow | undefined = fhaRows.get(place.fips);
    if (!county && !conforming && !fha) continue; // e.g. old CT counties in years FHFA dropped them
    const entry: CountyLimits = {
      fips: place.fips,
      county: place.name,
      state,
      kind: place.kind,
      cbsa: conforming?.cbsa ?? fha?.cbsa ?? null,
      ...(place.note ? { note: place.note } : {}),
    };
    const missing = (program: string, programYear: number) =>
      program === 'FHA' && !fhaYears.includes(programYear)
        ? `HUD FHA limits for ${programYear} are not loaded (years available: ${fhaYears.join(', ')}).`
        : place.state === 'CT'
          ? `The ${programYear} ${program} file does not list ${place.name}; Connecticut appears as ${place.kind === 'planning_region' ? 'its former counties' : 'planning regions'} there.`
          : `The ${programYear} ${program} file has no record for ${place.name}.`;
    const conformingLimit: ProgramLimit = conforming
      ? {
          available: true,
          year: conformingYear,
          limits: pickUnits(conforming.limits, units),
          tier: conformingTier(conforming.limits[0], state, nationalConforming),
        }
      : { available: false, year: conformingYear, limits: null, note: missing('conforming', conformingYear) };
    if (wanted.has('conforming')) entry.conforming = conformingLimit;
    if (wanted.has('fha')) {
      entry.fha = fha
        ? { available: true, year: fhaYear, limits: pickUnits(fha.limits, units), tier: fha.limitType === 'H' ? 'high_cost' : 'standard' }
        : { available: false, year: fhaYear, limits: null, note: missing('FHA', fhaYear) };
    }
    if (wanted.has('va'))
      entry.va = { available: conformingLimit.available, year: conformingLimit.year, limits: conformingLimit.limits, note: VA_NOTE };
    if (wanted.has('usda')) entry.usda = { available: false, limits: null, note: USDA_NOTE };
    result.push(entry);
  }

  const bothOf = (figures: NationalLimits) =>
    figures.floor && figures.ceiling ? { floor: pickUnits(figures.floor, units), ceiling: pickUnits(figures.ceiling, units) } : null;
  const national: LoanLimitsAnswer['national'] = {};
  if (programs.includes('conforming')) {
    const figures = bothOf(nationalConforming);
    national.conforming = figures ? { baseline: figures.floor, ceiling: figures.ceiling } : null;
  }
  if (programs.includes('fha')) national.fha = bothOf(nationalFha);

  const sources: LoanLimitsSource[] = [];
  const conformingUrl = context.records.get('conforming')?.sourceUrl ?? FHFA_PAGE;
  if (wanted.has('conforming')) {
    sources.push({
      name: 'Federal Housing Finance Agency (FHFA)',
      url: conformingUrl,
      as_of: `${conformingYear}-01-01`,
      loan_type: 'conforming',
      dataset: DATASET.conforming,
    });
  }
  if (wanted.has('fha')) {
    sources.push({
      name: 'U.S. Department of Housing and Urban Development (HUD)',
      url: context.records.get('fha')?.sourceUrl ?? HUD_PAGE,
      as_of: fhaYears.includes(fhaYear) ? `${fhaYear}-01-01` : null,
      loan_type: 'fha',
      dataset: DATASET.fha,
    });
  }
  if (wanted.has('va')) {
    sources.push({
      name: 'FHFA conforming limits, as used by the Department of Veterans Affairs',
      url: conformingUrl,
      as_of: `${conformingYear}-01-01`,
      loan_type: 'va',
      dataset: DATASET.conforming,
    });
  }
  if (wanted.has('usda'))
    sources.push({
      name: 'U.S. Department of Agriculture Rural Development',
      url: USDA_URL,
      as_of: null,
      loan_type: 'usda',
      dataset: null,
    });

  const distinctYears = new Set(programs.map((program) => yearOf[program]));
  const notes = [
    distinctYears.size <= 1
      ? `Limits apply to loans acquired or endorsed in calendar year ${year} (effective January 1).`
      : `Limits apply to loans acquired or endorsed in the calendar year shown for each program (effective January 1): ${programs.map((program) => `${programLabel(program)} ${yearOf[program]}`).join(', ')}.`,
  ];
  if (request.year === undefined) {
    for (const program of programs) {
      const programYear = yearOf[program];
      if (programYear !== undefined && programYear < current) {
        notes.push(
          program === 'fha'
            ? `${fhaYearNotLoaded(current)} The FHA figures here are HUD's ${programYear} limits, the latest loaded.`
            : `${PUBLISHER_OF[program]}'s ${current} ${programLabel(program)} limits are not loaded yet; the ${programLabel(program)} figures are its ${programYear} limits, the latest loaded.`,
        );
      }
    }
  }
  if (!county) notes.push(`${result.length} counties of ${stateName(state)}; give 'county' for one.`);
  return {
    parameters: { state, state_name: stateName(state), county: county?.name ?? null, year, loan_type: loanType, units: units ?? null },
    year,
    years: Object.fromEntries(programs.map((program) => [program, yearOf[program]])),
    counties: result,
    national,
    sources,
    notes,
    dataset_versions: context.versions.filter(
      (entry) => entry.dataset === 'counties' || programs.some((program) => DATASET[program] === entry.dataset),
    ),
  };
}
