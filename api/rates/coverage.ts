// The fallback policy as data: which request cells each national benchmark actually covers. A
// benchmark answers for a cell only when the cell lies inside the population the publisher averages
// over (Optimal Blue index definitions; Freddie Mac PMMS methodology). Nothing here adjusts a rate.
import type { FicoTier, LoanTerm, LtvTier, ProductType } from './contract.ts';
import type { RatesRequest } from './params.ts';
import type { GridSeriesId, SeriesId } from './series.ts';

/**
 * How closely a series' population matches one cell: `cell` (the Optimal Blue grid series of exactly
 * that FICO band and LTV side), `tiers` (a published FICO/LTV range holding the cell), `product` (an
 * average over every FICO score and LTV of the product). The closest match with an observation
 * answers; among equally close ones the newest, then the first listed.
 */
export type Specificity = 'cell' | 'tiers' | 'product';
export const SPECIFICITY_ORDER: Specificity[] = ['cell', 'tiers', 'product'];

export interface Coverage {
  series: SeriesId;
  productType: ProductType;
  loanTerm: LoanTerm;
  fico: FicoTier[];
  ltv: LtvTier[];
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
  ([[1, 'LE80', 'LTV at most 80%'], [2, 'GT80', 'LTV above 80%']] as const).map(([ltv, side, ltvText]) => ({
    series: `OBMMIC30YFLV${side}F${band}` as GridSeriesId,
    fico: [...fico],
    ltv,
    population: `conforming 30-year fixed locks with ${ficoText} and ${ltvText}, ${LOCKS}`,
  })),
);

const productWide = (series: SeriesId, productType: ProductType, label: string, loanTerm: LoanTerm = 30): Coverage => ({
  series,
  productType,
  loanTerm,
  fico: ALL_FICO,
  ltv: ALL_LTV,
  population: `all ${label} ${loanTerm}-year fixed locks, ${LOCKS}, averaged over every FICO score and LTV`,
  specificity: 'product',
  loanPurposes: OPTIMAL_BLUE_PURPOSES,
});

/**
 * Optimal Blue's indices cover owner-occupied single-unit purchase and rate/term refinance locks; PMMS
 * covers conventional conforming purchase loans with 20% down and excellent credit.
 */
export const BENCHMARK_COVERAGE: Coverage[] = [
  ...GRID_CELLS.map(
    (cell): Coverage => ({
      series: cell.series,
      productType: 'conventional',
      loanTerm: 30,
      fico: cell.fico,
      ltv: [cell.ltv],
      population: cell.population,
      specificity: 'cell',
      loanPurposes: OPTIMAL_BLUE_PURPOSES,
    }),
  ),
  {
    series: 'OBMMIC30YF',
    productType: 'conventional',
    loanTerm: 30,
    fico: [1, 2],
    ltv: [1],
    population: `conforming 30-year fixed locks with FICO 740+ and LTV at most 80%, ${LOCKS}`,
    specificity: 'tiers',
    loanPurposes: OPTIMAL_BLUE_PURPOSES,
  },
  {
    series: 'MORTGAGE30US',
    productType: 'conventional',
    loanTerm: 30,
    fico: [1, 2],
    ltv: [1],
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
    population: 'conventional conforming 15-year fixed purchase loans with 20% down and excellent credit',
    specificity: 'tiers',
    loanPurposes: ['purchase'],
  },
  productWide('OBMMIC15YF', 'conventional', 'conforming', 15),
  productWide('OBMMIFHA30YF', 'fha', 'FHA'),
  productWide('OBMMIVA30YF', 'va', 'VA'),
  productWide('OBMMIJUMBO30YF', 'jumbo', 'jumbo'),
  productWide('OBMMIUSDA30YF', 'usda', 'USDA'),
];

/**
 * Occupancy, property type and purpose that every loaded source shares: the benchmarks average
 * owner-occupied single-unit loans, the Rate Checker is asked for single-family purchase loans, and a
 * rate sheet quotes its standard cell. Other values carry price adjustments no source measures.
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
      coverage.fico.includes(request.fico) &&
      coverage.ltv.includes(request.ltv) &&
      coverage.loanPurposes.includes(request.loanPurpose),
  ).sort((a, b) => SPECIFICITY_ORDER.indexOf(a.specificity) - SPECIFICITY_ORDER.indexOf(b.specificity));
}
