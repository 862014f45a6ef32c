// Everything the research pages are drawn from, read once per data version: each county's loan
// limits since 2018, the HMDA aggregates of every state and county (latest and first year), FHFA's
// NMDB state averages and the Freddie Mac survey by quarter. Ranks and comparisons need the whole
// set, so it is read and summarised at once (a few hundred milliseconds) and kept in memory.
import type { Queryable } from '../platform/db/database.ts';
import type { DatasetRecord } from '../platform/datasets.ts';
import { STATES, type StateInfo } from '../geo/states.ts';
import {
  LIMIT_DATASETS,
  LIMIT_PUBLISHERS,
  SPECIAL_AREAS,
  nationalLimitHistory,
  readCountyLimitSeries,
  readCountyNames,
  type CountyLimitSeries,
  type LimitsByUnits,
} from '../loan-limits/series-reads.ts';
import { titleCase } from '../geo/county-names.ts';
import {
  HMDA_AGGREGATES_DATASET,
  HMDA_MAPS_URL,
  aggregateYears,
  aggregatesByGeo,
  countyAggregatesByYear,
  decisionRates,
  total,
  type Dimensions,
} from '../hmda-aggregates/reads.ts';
import { readNmdbGroups } from '../nmdb/store.ts';
import { NMDB_DATASET, NMDB_SOURCE_NAME, NMDB_STATES_URL } from '../nmdb/series.ts';
import { PMMS_DATASET, readNationalObservations } from '../rates/observations.ts';
import type { ResearchSource } from './contract.ts';
import { countyPath, slugify } from './slugs.ts';
import { giveWay } from '../platform/give-way.ts';

/** The datasets a research page is drawn from: all must be loaded before a page answers. */
export const RESEARCH_DATASETS = [
  'counties',
  LIMIT_DATASETS.conforming,
  LIMIT_DATASETS.fha,
  HMDA_AGGREGATES_DATASET,
  NMDB_DATASET,
  PMMS_DATASET,
] as const;

export interface HmdaCounts {
  records: number;
  originations: number;
  denialRate: number | null;
  loanTypes: Record<string, number>;
  purposes: Record<string, number>;
}

/** A county's limits of one program: years ascending, the one- to four-unit limits of each. */
export interface LimitHistory {
  years: readonly number[];
  limits: readonly LimitsByUnits[];
}

export interface CountyFacts {
  fips: string;
  state: StateInfo;
  name: string;
  slug: string;
  path: string;
  /** Years with a conforming limit, ascending, and the four limits of each. */
  conforming: LimitHistory;
  fha: (LimitHistory & { limitTypes: readonly (string | null)[] }) | undefined;
  hmda: HmdaCounts | undefined;
  hmdaFirstYear: HmdaCounts | undefined;
}

export interface QuarterRate {
  period: string;
  quarterEnd: string;
  nmdb: number | null;
  pmms: number | null;
}

export interface ResearchWorld {
  version: string;
  /** Latest conforming year and FHA year held. */
  conformingYear: number;
  fhaYear: number | null;
  firstLimitYear: number;
  hmdaYear: number;
  hmdaFirstYear: number;
  nationHmda: HmdaCounts;
  stateHmda: Map<string, HmdaCounts>;
  stateHmdaFirstYear: Map<string, HmdaCounts>;
  /** Counties in the latest conforming file, by state code, sorted by name. */
  countiesByState: Map<string, CountyFacts[]>;
  countyByFips: Map<string, CountyFacts>;
  /** NMDB (all mortgages) beside the PMMS 30-year quarterly average, by state. */
  rates: Map<string, QuarterRate[]>;
  national: {
    baseline(year: number): number | null;
    ceiling(year: number): number | null;
    fhaFloor(year: number): number | null;
    fhaCeiling(year: number): number | null;
  };
  sources: {
    conforming(year: number): ResearchSource;
    fha(year: number): ResearchSource;
    hmda(year: number): ResearchSource;
    nmdb: ResearchSource;
    pmms: ResearchSource;
  };
}

function hmdaCounts(dimensions: Dimensions | undefined): HmdaCounts | undefined {
  if (!dimensions) return undefined;
  const actions = dimensions.actionTaken ?? {};
  const records = total(actions);
  if (records === 0) return undefined;
  return {
    records,
    originations: actions['1'] ?? 0,
    denialRate: decisionRates(actions).denial,
    loanTypes: dimensions.loanType ?? {},
    purposes: dimensions.loanPurpose ?? {},
  };
}

/** YYYY-MM-DD → "YYYYQn". */
const quarterOf = (date: string): string => `${date.slice(0, 4)}Q${Math.floor((Number(date.slice(5, 7)) - 1) / 3) + 1}`;

function quarterlyAverages(dates: readonly string[], values: readonly number[]): Map<string, number> {
  const sums = new Map<string, { sum: number; count: number }>();
  dates.forEach((date, index) => {
    const key = quarterOf(date);
    const entry = sums.get(key) ?? { sum: 0, count: 0 };
    entry.sum += values[index] as number;
    entry.count += 1;
    sums.set(key, entry);
  });
  return new Map([...sums].map(([key, { sum, count }]) => [key, Math.round((sum / count) * 100) / 100]));
}

function seriesOf(series: CountyLimitSeries | undefined): LimitHistory {
  return series ? { years: series.years, limits: series.limits } : { years: [], limits: [] };
}

export async function readResearchWorld(db: Queryable, records: readonly DatasetRecord[], version: string): Promise<ResearchWorld> {
  const record = (name: string) => records.find((candidate) => candidate.name === name);
  // One query at a time: a search rebuild reads inside its transaction, on one connection.
  const limitSeries = await readCountyLimitSeries(db);
  const names = await readCountyNames(db);
  const hmdaYears = await aggregateYears(db);
  const nmdbGroups = await readNmdbGroups(db);
  const pmms = await readNationalObservations(db, ['MORTGAGE30US']);
  const history = nationalLimitHistory();
  const conformingYears = [
    ...new Set([...limitSeries.values()].filter((entry) => entry.program === 'conforming').flatMap((entry) => entry.years)),
  ].sort((a, b) => a - b);
  const fhaYears = [...new Set([...limitSeries.values()].filter((entry) => entry.program === 'fha').flatMap((entry) => entry.years))].sort(
    (a, b) => a - b,
  );
  const conformingYear = conformingYears.at(-1) ?? 0;
  const hmdaYear = hmdaYears.at(-1) ?? 0;
  const hmdaFirstYear = hmdaYears[0] ?? 0;
  const nation = await aggregatesByGeo(db, hmdaYear, 'nation');
  const states = await aggregatesByGeo(db, hmdaYear, 'state');
  const statesFirst = await aggregatesByGeo(db, hmdaFirstYear, 'state');
  const counties = await countyAggregatesByYear(db, hmdaYear);
  const countiesFirst = await countyAggregatesByYear(db, hmdaFirstYear);
  // The counties of the latest conforming file, by state, in the order they were read.
  const latestConformingByState = new Map<string, CountyLimitSeries[]>();
  for (const series of limitSeries.values()) {
    if (series.program !== 'conforming' || series.years.at(-1) !== conformingYear) continue;
    const list = latestConformingByState.get(series.state) ?? [];
    list.push(series);
    latestConformingByState.set(series.state, list);
  }
  const countiesByState = new Map<string, CountyFacts[]>();
  const countyByFips = new Map<string, CountyFacts>();
  for (const state of STATES) {
    await giveWay(); // thousands of counties to sum up: requests go between states
    const list: CountyFacts[] = [];
    for (const series of latestConformingByState.get(state.code) ?? []) {
      const fha = limitSeries.get(`fha|${series.fips}`);
      list.push({
        fips: series.fips,
        state,
        name: names.get(series.fips)?.name ?? titleCase(series.sourceName),
        slug: '',
        path: '',
        conforming: seriesOf(series),
        fha: fha ? { ...seriesOf(fha), limitTypes: fha.limitTypes } : undefined,
        hmda: hmdaCounts(counties.get(series.fips)),
        hmdaFirstYear: hmdaCounts(countiesFirst.get(series.fips)),
      });
    }
    list.sort((a, b) => a.name.localeCompare(b.name));
    // Two places of one name in a state (none today) would share a slug: the second keeps its FIPS.
    const taken = new Set<string>();
    for (const county of list) {
      const base = slugify(county.name);
      county.slug = taken.has(base) ? `${base}-${county.fips}` : base;
      taken.add(county.slug);
      county.path = countyPath(state, county.slug);
      countyByFips.set(county.fips, county);
    }
    countiesByState.set(state.code, list);
  }

  const pmmsSeries = pmms.get('MORTGAGE30US');
  const pmmsByQuarter = pmmsSeries ? quarterlyAverages(pmmsSeries.dates, pmmsSeries.values) : new Map<string, number>();
  const rates = new Map<string, QuarterRate[]>();
  for (const state of STATES) {
    const group = nmdbGroups.get(`${state.code}|all`);
    if (!group) continue;
    rates.set(
      state.code,
      group.periods.map((period, at) => ({
        period,
        quarterEnd: group.quarterEnds[at] as string,
        nmdb: group.values.AVE_INTRATE.loan[at] ?? null,
        pmms: pmmsByQuarter.get(period) ?? null,
      })),
    );
  }

  const stateCounts = (source: Map<string, Dimensions>) =>
    new Map(
      STATES.flatMap((state) => {
        const counts = hmdaCounts(source.get(state.code));
        return counts ? [[state.code, counts] as const] : [];
      }),
    );
  const conformingEntry = (year: number) => history.conforming.find((entry) => entry.year === year);
  const fhaEntry = (year: number) => history.fha.find((entry) => entry.year === year);
  const nmdbRecord = record(NMDB_DATASET);
  const pmmsRecord = record(PMMS_DATASET);
  return {
    version,
    conformingYear,
    fhaYear: fhaYears.at(-1) ?? null,
    firstLimitYear: conformingYears[0] ?? conformingYear,
    hmdaYear,
    hmdaFirstYear,
    nationHmda: hmdaCounts(nation.get('US')) ?? { records: 0, originations: 0, denialRate: null, loanTypes: {}, purposes: {} },
    stateHmda: stateCounts(states),
    stateHmdaFirstYear: stateCounts(statesFirst),
    countiesByState,
    countyByFips,
    rates,
    national: {
      baseline: (year) => conformingEntry(year)?.baseline ?? null,
      ceiling: (year) => conformingEntry(year)?.ceiling ?? null,
      fhaFloor: (year) => fhaEntry(year)?.floor ?? null,
      fhaCeiling: (year) => fhaEntry(year)?.ceiling ?? null,
    },
    sources: {
      conforming: (year) => ({
        name: `${LIMIT_PUBLISHERS.conforming.publisher}, conforming loan limits ${year}`,
        url: record(LIMIT_DATASETS.conforming)?.sourceUrl ?? LIMIT_PUBLISHERS.conforming.page,
        as_of: `${year}-01-01`,
      }),
      fha: (year) => ({
        name: `${LIMIT_PUBLISHERS.fha.publisher}, FHA forward mortgage limits ${year}`,
        url: record(LIMIT_DATASETS.fha)?.sourceUrl ?? LIMIT_PUBLISHERS.fha.page,
        as_of: `${year}-01-01`,
      }),
      hmda: (year) => ({
        name: `CFPB/FFIEC HMDA aggregates ${year} (HMDA Maps state and county files)`,
        url: HMDA_MAPS_URL,
        as_of: `${year}-12-31`,
      }),
      nmdb: { name: NMDB_SOURCE_NAME, url: NMDB_STATES_URL, as_of: nmdbRecord?.asOf ?? null },
      pmms: {
        name: 'Freddie Mac Primary Mortgage Market Survey, 30-year fixed (FRED MORTGAGE30US)',
        url: pmmsRecord?.sourceUrl ?? 'https://fred.stlouisfed.org/series/MORTGAGE30US',
        as_of: pmmsRecord?.asOf ?? null,
      },
    },
  };
}

/** `high_cost` above the area's baseline (150% of the national one in AK and HI), as the loan-limits answer rules it. */
export function conformingTier(world: ResearchWorld, state: string, year: number, oneUnit: number): 'baseline' | 'high_cost' {
  const baseline = world.national.baseline(year) ?? Infinity;
  return oneUnit > (SPECIAL_AREAS.has(state) ? Math.floor(baseline * 1.5) : baseline) ? 'high_cost' : 'baseline';
}

/** The one-unit limit of a county's series in a year, or null. */
export function oneUnitIn(series: LimitHistory | undefined, year: number): number | null {
  if (!series) return null;
  const at = series.years.indexOf(year);
  return at < 0 ? null : (series.limits[at]?.[0] ?? null);
}
