// The figures of one state's or one county's profile, computed from the research world: limits and
// their history, the HMDA picture against the nation (or the state) with ranks, and the NMDB
// quarters beside the survey. The words about them are written in ./sentences.ts.
import { LOAN_PURPOSE, LOAN_TYPE } from '../hmda/codes.ts';
import type { StateInfo } from '../geo/states.ts';
import type { CountyLink, CountyProfile, HmdaPicture, StateProfile } from './contract.ts';
import { statePath } from './slugs.ts';
import { conformingTier, oneUnitIn, type CountyFacts, type HmdaCounts, type ResearchWorld } from './world.ts';

const round2 = (value: number) => Math.round(value * 100) / 100;
const unitsOf = (limits: readonly number[] | undefined) => ({
  '1': limits?.[0] ?? 0,
  '2': limits?.[1] ?? 0,
  '3': limits?.[2] ?? 0,
  '4': limits?.[3] ?? 0,
});

/** Shares of a dimension's codes, largest first, beside the comparison place's. */
function shares(
  labels: Record<number, string>,
  own: Record<string, number>,
  ownTotal: number,
  other: Record<string, number>,
  otherTotal: number,
) {
  return Object.entries(own)
    .filter(([code]) => labels[Number(code)] !== undefined)
    .map(([code, count]) => ({
      label: labels[Number(code)] as string,
      percent: round2((count / ownTotal) * 100),
      compare_percent: otherTotal > 0 ? round2(((other[code] ?? 0) / otherTotal) * 100) : null,
    }))
    .sort((a, b) => b.percent - a.percent);
}

/** 1-based rank of `value` among `values` (largest first). */
const rankOf = (value: number, values: readonly number[]) => values.filter((candidate) => candidate > value).length + 1;

function picture(
  world: ResearchWorld,
  own: HmdaCounts,
  compare: HmdaCounts | undefined,
  first: HmdaCounts | undefined,
  rank: number,
  among: number,
): HmdaPicture {
  const other = compare ?? { records: 0, originations: 0, denialRate: null, loanTypes: {}, purposes: {} };
  return {
    year: world.hmdaYear,
    records: own.records,
    originations: own.originations,
    denial_rate_percent: own.denialRate === null ? null : round2(own.denialRate),
    compare_denial_rate_percent: other.denialRate === null ? null : round2(other.denialRate),
    rank_by_records: rank,
    ranked_among: among,
    first_year: world.hmdaFirstYear,
    records_first_year: first?.records ?? null,
    loan_types: shares(LOAN_TYPE, own.loanTypes, own.records, other.loanTypes, other.records),
    purposes: shares(LOAN_PURPOSE, own.purposes, own.records, other.purposes, other.records),
    source: world.sources.hmda(world.hmdaYear),
  };
}

export function countyLink(world: ResearchWorld, county: CountyFacts): CountyLink {
  const conforming = oneUnitIn(county.conforming, world.conformingYear);
  return {
    fips: county.fips,
    county: county.name,
    path: county.path,
    conforming_one_unit: conforming,
    fha_one_unit: world.fhaYear === null ? null : oneUnitIn(county.fha, world.fhaYear),
    conforming_tier: conforming === null ? null : conformingTier(world, county.state.code, world.conformingYear, conforming),
    hmda_records: county.hmda?.records ?? null,
  };
}

export type CountyFigures = Omit<CountyProfile, 'analysis' | 'title' | 'sources'>;

export function countyFigures(world: ResearchWorld, county: CountyFacts): CountyFigures {
  const year = world.conformingYear;
  const at = county.conforming.years.indexOf(year);
  const conforming = county.conforming.limits[at];
  const fhaYear = world.fhaYear;
  const fhaAt = fhaYear === null || !county.fha ? -1 : county.fha.years.indexOf(fhaYear);
  const fhaLimits = fhaAt < 0 ? undefined : county.fha?.limits[fhaAt];
  const siblings = world.countiesByState.get(county.state.code) ?? [];
  const volumes = siblings.flatMap((sibling) => (sibling.hmda ? [sibling.hmda.records] : []));
  const years = [...new Set([...county.conforming.years, ...(county.fha?.years ?? [])])].sort((a, b) => a - b);
  return {
    fips: county.fips,
    county: county.name,
    state: county.state.code,
    state_name: county.state.name,
    path: county.path,
    state_path: statePath(county.state),
    limits: {
      conforming: {
        year,
        limits: unitsOf(conforming),
        tier: conformingTier(world, county.state.code, year, conforming?.[0] ?? 0),
        source: world.sources.conforming(year),
      },
      fha:
        fhaYear === null || !fhaLimits
          ? null
          : {
              year: fhaYear,
              limits: unitsOf(fhaLimits),
              tier: county.fha?.limitTypes[fhaAt] === 'H' ? 'high_cost' : 'standard',
              source: world.sources.fha(fhaYear),
            },
      va: {
        year,
        limits: unitsOf(conforming),
        note: 'VA uses the conforming limit for borrowers with reduced entitlement; with full entitlement there has been no VA limit since 2020.',
      },
      national: {
        conforming_baseline: world.national.baseline(year),
        conforming_ceiling: world.national.ceiling(year),
        fha_floor: fhaYear === null ? null : world.national.fhaFloor(fhaYear),
        fha_ceiling: fhaYear === null ? null : world.national.fhaCeiling(fhaYear),
      },
      history: years.map((entry) => ({
        year: entry,
        conforming_one_unit: oneUnitIn(county.conforming, entry),
        fha_one_unit: oneUnitIn(county.fha, entry),
        national_baseline: world.national.baseline(entry),
      })),
    },
    hmda: county.hmda
      ? picture(
          world,
          county.hmda,
          world.stateHmda.get(county.state.code),
          county.hmdaFirstYear,
          rankOf(county.hmda.records, volumes),
          volumes.length,
        )
      : null,
  };
}

export type StateFigures = Omit<StateProfile, 'analysis' | 'title' | 'escrow' | 'bills' | 'sources'>;

export function stateFigures(world: ResearchWorld, state: StateInfo): StateFigures {
  const counties = world.countiesByState.get(state.code) ?? [];
  const year = world.conformingYear;
  const links = counties.map((county) => countyLink(world, county));
  const limitYears = [...new Set(counties.flatMap((county) => county.conforming.years))].sort((a, b) => a - b);
  const history = limitYears.map((entry) => {
    const limits = counties.map((county) => oneUnitIn(county.conforming, entry)).filter((value): value is number => value !== null);
    return {
      year: entry,
      highest_conforming: Math.max(0, ...limits),
      high_cost_counties: limits.filter((value) => conformingTier(world, state.code, entry, value) === 'high_cost').length,
    };
  });
  const own = world.stateHmda.get(state.code);
  const volumes = [...world.stateHmda.values()].map((counts) => counts.records);
  const quarters = world.rates.get(state.code) ?? [];
  const latest = [...quarters].reverse().find((quarter) => quarter.nmdb !== null);
  const latestRates = latest
    ? [...world.rates.values()]
        .map((list) => list.find((quarter) => quarter.period === latest.period)?.nmdb ?? null)
        .filter((value): value is number => value !== null)
    : [];
  const point = (quarter: (typeof quarters)[number]) => ({
    period: quarter.period,
    quarter_end: quarter.quarterEnd,
    state_outstanding_percent: quarter.nmdb,
    survey_percent: quarter.pmms,
  });
  return {
    state: state.code,
    state_name: state.name,
    path: statePath(state),
    limits: {
      year,
      fha_year: world.fhaYear,
      counties: counties.length,
      high_cost_counties: links.filter((link) => link.conforming_tier === 'high_cost').length,
      fha_high_cost_counties:
        world.fhaYear === null
          ? null
          : counties.filter((county) => county.fha?.limitTypes[county.fha.years.indexOf(world.fhaYear as number)] === 'H').length,
      national_baseline: world.national.baseline(year),
      history,
      sources: [world.sources.conforming(year), ...(world.fhaYear === null ? [] : [world.sources.fha(world.fhaYear)])],
    },
    counties: links,
    hmda: own
      ? picture(world, own, world.nationHmda, world.stateHmdaFirstYear.get(state.code), rankOf(own.records, volumes), volumes.length)
      : null,
    rates: latest
      ? {
          latest: point(latest),
          // Highest first; ties share a rank (FHFA rounds to a tenth of a point).
          rank_highest: rankOf(latest.nmdb as number, latestRates),
          ranked_among: latestRates.length,
          quarters: quarters.map(point),
          definition:
            "The state's figure is the average contract rate of all closed-end first-lien mortgages outstanding at the quarter's end (FHFA's National " +
            'Mortgage Database, a 1-in-20 sample); the survey figure is the average of the weekly Freddie Mac 30-year rates offered on new loans in that quarter.',
          sources: [world.sources.nmdb, world.sources.pmms],
        }
      : null,
  };
}
