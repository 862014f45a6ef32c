// The fallback policy as data: which request cells each national benchmark actually covers. A
// benchmark answers for a cell only when the cell lies inside the population the publisher averages
// over (Optimal Blue index definitions; Freddie Mac PMMS methodology). Nothing here adjusts a rate.
import type { FicoTier, LoanTerm, LtvTier, ProductType, RatesRequest } from './params.ts';
import type { SeriesId } from './series.ts';

export interface Coverage {
  series: SeriesId;
  productType: ProductType;
  loanTerm: LoanTerm;
  fico: FicoTier[];
  ltv: LtvTier[];
  /** The population in words, for the disclaimer. */
  population: string;
  /** True when the series is an average over every FICO/LTV tier of its product. */
  productWide: boolean;
  loanPurposes: RatesRequest['loanPurpose'][];
}

const ALL_FICO: FicoTier[] = [1, 2, 3, 4, 5];
const ALL_LTV: LtvTier[] = [1, 2];

/**
 * In order of preference when several cover a cell and are equally recent. Optimal Blue's indices
 * cover owner-occupied single-unit purchase and rate/term refinance locks; PMMS covers conventional
 * conforming purchase loans with 20% down and excellent credit.
 */
export const BENCHMARK_COVERAGE: Coverage[] = [
  {
    series: 'OBMMIC30YF',
    productType: 'conventional',
    loanTerm: 30,
    fico: [1, 2],
    ltv: [1],
    population: 'conforming 30-year fixed locks with FICO 740+ and LTV at most 80%, owner-occupied single-family, purchase or rate/term refinance',
    productWide: false,
    loanPurposes: ['purchase', 'refinance'],
  },
  {
    series: 'MORTGAGE30US',
    productType: 'conventional',
    loanTerm: 30,
    fico: [1, 2],
    ltv: [1],
    population: 'conventional conforming 30-year fixed purchase loans with 20% down and excellent credit',
    productWide: false,
    loanPurposes: ['purchase'],
  },
  {
    series: 'MORTGAGE15US',
    productType: 'conventional',
    loanTerm: 15,
    fico: [1, 2],
    ltv: [1],
    population: 'conventional conforming 15-year fixed purchase loans with 20% down and excellent credit',
    productWide: false,
    loanPurposes: ['purchase'],
  },
  ...(['fha', 'va', 'jumbo'] as const).map(
    (productType): Coverage => ({
      series: productType === 'fha' ? 'OBMMIFHA30YF' : productType === 'va' ? 'OBMMIVA30YF' : 'OBMMIJUMBO30YF',
      productType,
      loanTerm: 30,
      fico: ALL_FICO,
      ltv: ALL_LTV,
      population: `all ${productType === 'jumbo' ? 'jumbo' : productType.toUpperCase()} 30-year fixed locks, owner-occupied single-family, purchase or rate/term refinance, averaged over every FICO score and LTV`,
      productWide: true,
      loanPurposes: ['purchase', 'refinance'],
    }),
  ),
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

export function coveringBenchmarks(request: RatesRequest): Coverage[] {
  return BENCHMARK_COVERAGE.filter(
    (coverage) =>
      coverage.productType === request.productType &&
      coverage.loanTerm === request.loanTerm &&
      coverage.fico.includes(request.fico) &&
      coverage.ltv.includes(request.ltv) &&
      coverage.loanPurposes.includes(request.loanPurpose),
  );
}
