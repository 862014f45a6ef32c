// The fallback policy as data: which request cells each national benchmark covers. A benchmark
// answers for a cell only when the cell lies inside the population the publisher averages over
// (Optimal Blue index definitions; Freddie Mac PMMS methodology; the FFIEC's APOR). A broader one
// answers only when no closer one is loaded, and the record says it is not specific to the tier.
import type { FicoTier, LoanTerm, LtvTier, ProductType } from './contract.ts';
import type { RatesRequest } from './params.ts';
import type { AporSeriesId, BenchmarkId } from './benchmarks.ts';
import type { GridSeriesId } from './series.ts';

/**
 * How closely a series' population matches one cell: `cell` (the Optimal Blue grid series of exactly
 * that FICO band and LTV side), `tiers` (a published FICO/LTV range holding the cell), `product` (an
 * average over every FICO score and LTV of the product), `broad` (the broadest benchmark of the
 * product and term, read when nothing closer is loaded). The closest match with an observation
 * answers; among equally close ones the newest, then the first listed.
 */
export type Specificity = 'cell' | 'tiers' | 'product' | 'broad';
export const SPECIFICITY_ORDER: Specificity[] = ['cell', 'tiers', 'product', 'broad'];
/** Matches that are specific to the request's FICO and LTV tiers. */
export const TIER_SPECIFIC: readonly Specificity[] = ['cell', 'tiers'];

export interface Coverage {
  series: BenchmarkId;
  productType: ProductType;
  loanTerm: LoanTerm;
  fico: FicoTier[];
  ltv: LtvTier[];
  /** Whether it averages every credit score, so a score below the published tiers reads it too. */
  everyScore: boolean;
  /** The population in words, for the disclaimer. */
  population: string;
  specificity: Specificity;
  loanPurposes: RatesRequest['loanPurpose'][];
}

const ALL_FICO: FicoTier[] = [1, 2, 3, 4, 5];
const ALL_LTV: LtvTier[] = [1, 2];
const OPTIMAL_BLUE_PURPOSES: RatesRequest['loanPurpose'][] = ['purchase', 'refinance'];
const LOCKS = 'owner-occupied single-family, purchase or rate/term refinance';

/**
 * The contract's tiers on Optimal Blue's grid. FICO 780+ and 740-779 both lie in the grid's "740 or
 * higher" band; 720-739, 700-719 and 680-699 are bands of their own (the grid's "below 680" band has
 * no contract tier). LTV tier 1 ("75%", 20% or more down) is the grid's LTV ≤ 80 side, tier 2
 * ("95%") its LTV > 80 side.
 */
export const GRID_CELLS: { series: GridSeriesId; fico: FicoTier[]; ltv: LtvTier; population: string }[] = (
  [
    ['GE740', [1, 2], 'FICO 740 or higher'],
    ['B720A739', [3], 'FICO 720-739'],
    ['B700A719', [4], 'FICO 700-719'],
    ['B680A699', [5], 'FICO 680-699'],
  ] as const
).flatMap(([band, fico, ficoText]) =>
  (
    [
      [1, 'LE80', 'LTV at most 80%'],
      [2, 'GT80', 'LTV above 80%'],
    ] as const
  ).map(([ltv, side, ltvText]) => ({
    series: `OBMMIC30YFLV${side}F${band}` as GridSeriesId,
    fico: [...fico],
    ltv,
    population: `conforming 30-year fixed locks with ${ficoText} and ${ltvText}, ${LOCKS}`,
  })),
);

const productWide = (
  series: BenchmarkId,
  productType: ProductType,
  label: string,
  loanTerm: LoanTerm = 30,
  everyScore = true,
): Coverage => ({
  series,
  productType,
  loanTerm,
  fico: ALL_FICO,
  ltv: ALL_LTV,
  everyScore,
  population: `all ${label} ${loanTerm}-year fixed locks, ${LOCKS}, averaged over every FICO score and LTV`,
  specificity: 'product',
  loanPurposes: OPTIMAL_BLUE_PURPOSES,
});

const broad = (series: BenchmarkId, loanTerm: LoanTerm, population: string, loanPurposes: RatesRequest['loanPurpose'][]): Coverage => ({
  series,
  productType: 'conventional',
  loanTerm,
  fico: ALL_FICO,
  ltv: ALL_LTV,
  everyScore: false,
  population,
  specificity: 'broad',
  loanPurposes,
});

const apor = (series: AporSeriesId, loanTerm: LoanTerm): Coverage => ({
  ...broad(
    series,
    loanTerm,
    `the average rate offered to prime borrowers on conventional first-lien ${loanTerm}-year fixed loans (the FFIEC's Average Prime Offer Rate, derived from the weekly survey)`,
    ['purchase', 'refinance'],
  ),
  specificity: 'product',
});

/**
 * Optimal Blue's indices cover owner-occupied single-unit purchase and rate/term refinance locks (the
 * 30-year conforming index every conforming lock, whatever its FICO and LTV); PMMS covers conventional
 * conforming purchase loans to borrowers with 20% down and excellent credit; the APOR table gives the
 * prime offer rate for every fixed term from 1 to 50 years.
 */
export const BENCHMARK_COVERAGE: Coverage[] = [
  ...GRID_CELLS.map((cell): Coverage => ({
    series: cell.series,
    productType: 'conventional',
    loanTerm: 30,
    fico: cell.fico,
    ltv: [cell.ltv],
    everyScore: false,
    population: cell.population,
    specificity: 'cell',
    loanPurposes: OPTIMAL_BLUE_PURPOSES,
  })),
  {
    series: 'OBMMIC30YF',
    productType: 'conventional',
    loanTerm: 30,
    fico: [1, 2],
    ltv: [1],
    everyScore: false,
    population: `conforming 30-year fixed locks (the market benchmark for FICO 740+ and LTV at most 80%), ${LOCKS}`,
    specificity: 'tiers',
    loanPurposes: OPTIMAL_BLUE_PURPOSES,
  },
  {
    series: 'MORTGAGE30US',
    productType: 'conventional',
    loanTerm: 30,
    fico: [1, 2],
    ltv: [1],
    everyScore: false,
    population: 'conventional conforming 30-year fixed purchase loans with 20% down and excellent credit',
    specificity: 'tiers',
    loanPurposes: ['purchase'],
  },
  {
    series: 'MORTGAGE15US',
    productType: 'conventional',
    loanTerm: 15,
    fico: [1, 2],
    ltv: [1],
    everyScore: false,
    population: 'conventional conforming 15-year fixed purchase loans with 20% down and excellent credit',
    specificity: 'tiers',
    loanPurposes: ['purchase'],
  },
  productWide('OBMMIC15YF', 'conventional', 'conforming', 15, false),
  productWide('OBMMIFHA30YF', 'fha', 'FHA'),
  productWide('OBMMIVA30YF', 'va', 'VA'),
  productWide('OBMMIJUMBO30YF', 'jumbo', 'jumbo', 30, false),
  productWide('OBMMIUSDA30YF', 'usda', 'USDA'),
  apor('APOR20YF', 20),
  apor('APOR10YF', 10),
  broad('OBMMIC30YF', 30, `all conforming 30-year fixed locks, ${LOCKS}, averaged over every FICO score and LTV`, OPTIMAL_BLUE_PURPOSES),
  broad('MORTGAGE30US', 30, 'conventional conforming 30-year fixed purchase loans with 20% down and excellent credit', ['purchase']),
  broad('MORTGAGE15US', 15, 'conventional conforming 15-year fixed purchase loans with 20% down and excellent credit', ['purchase']),
];

/**
 * Occupancy and property type that every loaded source shares: the benchmarks average owner-occupied
 * single-unit loans and a rate sheet quotes its standard cell. Other values carry price adjustments no
 * source measures.
 */
export const COVERED_OCCUPANCY: RatesRequest['occupancy'][] = ['primary'];
export const COVERED_PROPERTY_TYPES: RatesRequest['propertyType'][] = ['single_family', 'townhouse'];
export const LENDER_LOAN_PURPOSES: RatesRequest['loanPurpose'][] = ['purchase'];

/** Why no source can answer this request's occupancy/property/purpose, or undefined if one can. */
export function uncoveredAttribute(request: RatesRequest): string | undefined {
  if (!COVERED_OCCUPANCY.includes(request.occupancy)) {
    return `occupancy=${request.occupancy}: the loaded sources cover primary residences only`;
  }
  if (!COVERED_PROPERTY_TYPES.includes(request.propertyType)) {
    return `property_type=${request.propertyType}: the loaded sources cover single-family homes (including townhouses) only`;
  }
  return undefined;
}

/** The benchmarks covering a cell, closest match first (the order they are tried in). */
export function coveringBenchmarks(request: Pick<RatesRequest, 'productType' | 'loanTerm' | 'fico' | 'ltv' | 'loanPurpose'>): Coverage[] {
  return BENCHMARK_COVERAGE.filter(
    (coverage) =>
      coverage.productType === request.productType &&
      coverage.loanTerm === request.loanTerm &&
      (request.fico === null ? coverage.everyScore : coverage.fico.includes(request.fico)) &&
      coverage.ltv.includes(request.ltv) &&
      coverage.loanPurposes.includes(request.loanPurpose),
  ).sort((a, b) => SPECIFICITY_ORDER.indexOf(a.specificity) - SPECIFICITY_ORDER.indexOf(b.specificity));
}

/**
 * The loan terms some loaded benchmark answers for a product: the /rates form offers only these (the
 * 10- and 20-year terms need the FFIEC's APOR table, which an offline install may not have).
 */
export function answerableTerms(productType: ProductType, loaded: (series: BenchmarkId) => boolean): LoanTerm[] {
  const terms = new Set(
    BENCHMARK_COVERAGE.filter((entry) => entry.productType === productType && loaded(entry.series)).map((entry) => entry.loanTerm),
  );
  return [...terms].sort((a, b) => b - a);
}
