// The views of the research pages (see site/views/format.ts for why views exist): a state's and a
// county's profile with its map and chart lines, every state's research page by name, the generated
// research pages /articles lists (states, and counties grouped under their state), and the shape of
// a page's sources and of its HMDA table's figures.
import { live } from './live.ts';
import { stateConformingMap } from './limit-maps.ts';
import type { ChartSeries } from '../lib/chart.ts';
import type { PageDeps } from '../../api/publications/render-capture.ts';
import { STATES } from '../../api/geo/states.ts';
import type {
  CountyProfile,
  HmdaPicture,
  ResearchListing,
  ResearchSource,
  StateProfile,
} from '../../api/research/contract.ts';
import { statePath } from '../../api/research/slugs.ts';

export type { HmdaPicture, ResearchSource };

/** Every state's research page, by name (the codes' order puts Alaska before Alabama). */
export const STATE_PAGES: readonly { name: string; path: string }[] = [...STATES]
  .sort((a, b) => a.name.localeCompare(b.name))
  .map((state) => ({ name: state.name, path: statePath(state) }));

/**
 * The research pages generated from the data, for /articles: the states, and the counties by name
 * under their state. Empty while the research data is not loaded (or when `wanted` is false).
 */
export async function researchListingsView(deps: PageDeps | undefined, wanted: boolean) {
  const research = wanted ? await live(deps, (d) => d.services.research.listings()) : undefined;
  const listings: ResearchListing[] = research?.ok ? research.value : [];
  const countiesByState = new Map<string, ResearchListing[]>();
  for (const item of listings.filter((listing) => listing.kind === 'county')) {
    countiesByState.set(item.stateName, [...(countiesByState.get(item.stateName) ?? []), item]);
  }
  const countyGroups = [...countiesByState.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([state, counties]) => ({ state, counties: counties.sort((a, b) => a.place.localeCompare(b.place)) }));
  return {
    listings,
    states: listings.filter((item) => item.kind === 'state'),
    countyGroups,
    countyCount: countyGroups.reduce((sum, group) => sum + group.counties.length, 0),
  };
}

/** A state's NMDB rate on outstanding mortgages beside the survey rate on new loans, by quarter. */
function stateRateLines(profile: StateProfile): ChartSeries[] {
  if (!profile.rates) return [];
  const quarters = profile.rates.quarters;
  return [
    {
      label: `${profile.state_name}: average rate on outstanding mortgages (FHFA NMDB)`,
      points: quarters.flatMap((quarter) =>
        quarter.state_outstanding_percent === null
          ? []
          : [{ date: quarter.quarter_end, value: quarter.state_outstanding_percent }],
      ),
    },
    {
      label: 'New 30-year loans: Freddie Mac PMMS, quarterly average',
      points: quarters.flatMap((quarter) =>
        quarter.survey_percent === null ? [] : [{ date: quarter.quarter_end, value: quarter.survey_percent }],
      ),
    },
  ];
}

/** /research/<state>: the state's profile, its county map and its rate chart. */
export async function stateResearchView(deps: PageDeps | undefined, slug: string) {
  const result = await live(deps, (d) => d.services.research.stateBySlug(slug));
  const profile = result.ok ? result.value : undefined;
  return {
    result,
    profile,
    limitMap: profile ? await stateConformingMap(deps, profile.state, profile.limits.year) : undefined,
    chartSeries: profile ? stateRateLines(profile) : [],
  };
}

type LimitYear = CountyProfile['limits']['history'][number];

/** A county's one-unit limits by year beside the national baseline. */
function countyLimitLines(profile: CountyProfile): ChartSeries[] {
  const line = (label: string, pick: (entry: LimitYear) => number | null): ChartSeries => ({
    label,
    points: profile.limits.history.flatMap((entry) => {
      const value = pick(entry);
      return value === null ? [] : [{ date: `${entry.year}-01-01`, value }];
    }),
  });
  const place = `${profile.county}, ${profile.state}`;
  return [
    line(`${place}: conforming limit, one unit (FHFA)`, (entry) => entry.conforming_one_unit),
    line(`${place}: FHA limit, one unit (HUD)`, (entry) => entry.fha_one_unit),
    line('National conforming baseline, one unit', (entry) => entry.national_baseline),
  ];
}

/** /research/<state>/<county>: the county's profile, outlined on its state's map, and its limits' chart. */
export async function countyResearchView(deps: PageDeps | undefined, stateSlug: string, countySlug: string) {
  const result = await live(deps, (d) => d.services.research.countyBySlug(stateSlug, countySlug));
  const profile = result.ok ? result.value : undefined;
  return {
    result,
    profile,
    limitMap: profile
      ? await stateConformingMap(deps, profile.state, profile.limits.conforming.year, profile.fips)
      : undefined,
    chartSeries: profile ? countyLimitLines(profile) : [],
  };
}

/** The units a limit is published for, and their label ("2 units"). */
export const UNITS = ['1', '2', '3', '4'] as const;
export const unitLabel = (units: string): string => `${units} unit${units === '1' ? '' : 's'}`;
