// The view of /loan-limits (see site/views/format.ts for why views exist): the county lookup read
// through the same contract and service as GET /api/v1/loan-limits, the national and state maps of
// conforming limits, and the words for a program without a figure.
import { live, queryObject } from './live.ts';
import { countyMap } from './county-map.ts';
import { bandsOf, conformingValues, readConformingMap, stateConformingMap } from './limit-maps.ts';
import type { PageDeps } from '../../api/publications/render-capture.ts';
import { parseOrThrow } from '../../api/platform/validation.ts';
import { LoanLimitsQuerySchema, type LoanLimitsAnswer, type ProgramLimit } from '../../api/loan-limits/contract.ts';
import { STATE_CODES, findState } from '../../api/geo/states.ts';

/** The form's states and territories, by code. */
export const STATE_CHOICES = [...STATE_CODES, 'PR', 'GU', 'VI'];

const money = (value: number | undefined): string => (value === undefined ? '—' : `$${value.toLocaleString('en-US')}`);

/** A program's one-unit limit; without a figure it says why: USDA has no loan limit, else the year is not loaded. */
export const oneUnit = (limit: ProgramLimit | undefined, program: string): string =>
  limit?.limits ? money(limit.limits['1']) : program === 'usda' ? 'no loan limit' : 'not available';

/** Why some program shows no figure, once each. */
function explanationsOf(answer: LoanLimitsAnswer): string[] {
  const limits = answer.counties.flatMap((county) => [county.conforming, county.fha, county.va, county.usda]);
  return [...new Set(limits.flatMap((limit) => (limit && !limit.limits && limit.note ? [limit.note] : [])))];
}

/** The state's map, with the county asked for outlined among all its state's counties (read in full for the map). */
async function stateMapOf(deps: PageDeps | undefined, answer: LoanLimitsAnswer, askedCounty: string | undefined) {
  const bands = bandsOf(answer);
  const state = findState(answer.parameters.state);
  if (!state || !bands) return undefined;
  if (askedCounty) return stateConformingMap(deps, state.code, answer.years.conforming ?? answer.year, askedCounty);
  return countyMap({ values: conformingValues(answer), bands: bands.bands, stateFips: state.fips });
}

/** The state map's title and where its figures are as text, naming the county asked for. */
function stateMapWords(answer: LoanLimitsAnswer, askedCounty: string | undefined) {
  const county = answer.counties[0]?.county;
  const year = String(answer.years.conforming ?? answer.year);
  const outlined = askedCounty ? `, ${county ?? ''} outlined` : '';
  return {
    stateMapTitle: `${answer.parameters.state_name}: one-unit conforming loan limits by county, ${year}${outlined}`,
    stateMapNote: askedCounty
      ? `${county ?? 'The county'}'s figures are in the table below; choose only the state for every county's.`
      : "Every county's figures are in the table below.",
  };
}

/** Everything /loan-limits draws for one request: the national map without a state, the state's answer with one. */
export async function loanLimitsView(deps: PageDeps | undefined, url: URL) {
  const query = queryObject(url);
  const asked = query.state !== undefined;
  const result = asked
    ? await live(deps, (d) => {
        // The page shows every program, one unit: the other parameters are the contract's.
        const parsed = parseOrThrow(LoanLimitsQuerySchema, { ...query, loan_type: 'all', units: 1 }, 'query');
        return d.services.loanLimits.answer(parsed);
      })
    : undefined;
  const national = asked ? undefined : await live(deps, (d) => readConformingMap(d));
  const nationalMap = national?.ok
    ? await countyMap({ values: national.value.values, bands: national.value.bands })
    : undefined;
  const answer = result?.ok ? result.value : undefined;
  const askedCounty = answer?.parameters.county ? answer.counties[0]?.fips : undefined;
  return {
    query,
    ...(answer ? stateMapWords(answer, askedCounty) : { stateMapTitle: '', stateMapNote: '' }),
    apiHref: `/api/v1/loan-limits?${new URLSearchParams(query).toString()}`,
    result,
    national,
    nationalMap,
    stateMap: answer ? await stateMapOf(deps, answer, askedCounty) : undefined,
    explanations: answer ? explanationsOf(answer) : [],
    // The state as the contract read it ("california" is CA).
    selectedState: answer ? answer.parameters.state : (query.state ?? '').toUpperCase(),
    // Without a year asked each program shows its latest published year, which may differ (FHA lags).
    yearOf: (program: 'conforming' | 'fha'): string => (answer ? String(answer.years[program] ?? answer.year) : ''),
    splitYears: answer ? new Set(Object.values(answer.years)).size > 1 : false,
  };
}
