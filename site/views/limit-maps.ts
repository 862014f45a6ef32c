// The figures behind the loan-limit maps, read through the loan-limits service (the same answers as
// GET /api/v1/loan-limits): every county's one-unit conforming limit for the whole country, or one
// state's from an answer already in hand, with FHFA's national baseline and ceiling to band them.
import type { UsesServices } from '../../api/domain-services.ts';
import { LoanLimitsQuerySchema, type LoanLimitsAnswer } from '../../api/loan-limits/contract.ts';
import { STATE_CODES, findState } from '../../api/geo/states.ts';
import { giveWay } from '../../api/platform/give-way.ts';
import { conformingBands, countyMap, type Band, type CountyMapView } from './county-map.ts';

type LimitMapDeps = UsesServices<'loanLimits'>;

export interface HighCostCounty {
  fips: string;
  county: string;
  state: string;
  limit: number;
}

export interface ConformingMapData {
  year: number;
  baseline: number;
  ceiling: number;
  bands: Band[];
  values: Map<string, { value: number | null; label: string }>;
  /** Counties above the baseline, by state and county: the map's table. */
  aboveBaseline: HighCostCounty[];
  counties: number;
  source: { url: string; as_of: string | null };
}

/** A state answer's one-unit conforming limit per county, labelled "County, ST". */
export function conformingValues(answer: LoanLimitsAnswer): Map<string, { value: number | null; label: string }> {
  return new Map(
    answer.counties.map((county) => [
      county.fips,
      { value: county.conforming?.limits?.['1'] ?? null, label: `${county.county}, ${county.state}` },
    ]),
  );
}

/** The national baseline and ceiling (one unit) an answer carries, as bands. */
export function bandsOf(answer: LoanLimitsAnswer): { baseline: number; ceiling: number; bands: Band[] } | undefined {
  const baseline = answer.national.conforming?.baseline['1'];
  const ceiling = answer.national.conforming?.ceiling['1'];
  return baseline === undefined || ceiling === undefined
    ? undefined
    : { baseline, ceiling, bands: conformingBands(baseline, ceiling) };
}

/** Every state's and DC's counties for the latest conforming year (the map draws the 50 states and DC). */
export async function readConformingMap(deps: LimitMapDeps): Promise<ConformingMapData> {
  const values = new Map<string, { value: number | null; label: string }>();
  const aboveBaseline: HighCostCounty[] = [];
  let first: LoanLimitsAnswer | undefined;
  for (const state of STATE_CODES) {
    await giveWay(); // the first map of a data version composes every state's answer
    const answer = await deps.services.loanLimits.answer(
      LoanLimitsQuerySchema.parse({ state, loan_type: 'conforming', units: 1 }),
    );
    first ??= answer;
    for (const [fips, figure] of conformingValues(answer)) values.set(fips, figure);
  }
  const national = first ? bandsOf(first) : undefined;
  const source = first?.sources.find((candidate) => candidate.loan_type === 'conforming');
  if (!first || !national || !source)
    throw Object.assign(new Error('The conforming loan limits are not loaded yet.'), { status: 503 });
  for (const [fips, figure] of values) {
    if (figure.value !== null && figure.value > national.baseline) {
      const [county = figure.label, state = ''] = figure.label.split(/, (?=[A-Z]{2}$)/);
      aboveBaseline.push({ fips, county, state, limit: figure.value });
    }
  }
  aboveBaseline.sort((a, b) => a.state.localeCompare(b.state) || a.county.localeCompare(b.county));
  return {
    year: first.years.conforming ?? first.year,
    ...national,
    values,
    aboveBaseline,
    counties: values.size,
    source: { url: source.url, as_of: source.as_of },
  };
}

/** One state's map of one-unit conforming limits for `year`, a county outlined if given; undefined when not loaded. */
export async function stateConformingMap(
  deps: LimitMapDeps | undefined,
  state: string,
  year: number,
  highlight?: string,
): Promise<CountyMapView | undefined> {
  const info = findState(state);
  if (!deps || !info) return undefined;
  try {
    const answer = await deps.services.loanLimits.answer(
      LoanLimitsQuerySchema.parse({ state: info.code, year, loan_type: 'conforming', units: 1 }),
    );
    const national = bandsOf(answer);
    return national
      ? await countyMap({ values: conformingValues(answer), bands: national.bands, stateFips: info.fips, highlight })
      : undefined;
  } catch (error) {
    // The profile says what is missing; the map is left out rather than failing the page.
    if ((error as { status?: number }).status !== undefined) return undefined;
    throw error;
  }
}
