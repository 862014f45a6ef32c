// The state estimate's method, in one place: which HMDA loans it reads, the cells it groups them in,
// the minimum sample and the words every face uses. The method page (/methods/state-rate-estimate)
// renders from these constants, so the page and the computation cannot drift apart.
import type { LtvTier, ProductType } from '../contract.ts';

export const STATE_ESTIMATE_DATASET = 'state_rate_estimates';
/** Fewer loans than this in a state's cell: no adjustment (the median would move with a few loans). */
export const MINIMUM_SAMPLE = 300;
/** A year counts as loaded when at least this many of the 50 states and DC are published in the warehouse. */
export const MINIMUM_STATES = 48;
export const METHOD_PATH = '/methods/state-rate-estimate';
export const METHOD_SENTENCE =
  "The state's median HMDA rate spread minus the national median of the same cell (originated first-lien, owner-occupied, " +
  'site-built 1-4 unit, fixed-rate 30-year loans of the product, purpose and LTV band), added to the national benchmark.';
export const ESTIMATE_PUBLISHER = 'FFIEC HMDA loan records (CFPB)';
export const ESTIMATE_PURPOSES = ['purchase', 'refinance'] as const;
export type EstimatePurpose = (typeof ESTIMATE_PURPOSES)[number];

/** The HMDA filters, as the method page lists them and the query applies them. */
export const LOAN_FILTERS: { field: string; keeps: string }[] = [
  { field: 'action_taken', keeps: '1 (loan originated)' },
  { field: 'loan_type', keeps: '1 conventional (conforming_loan_limit C; NC is jumbo), 2 FHA, 3 VA, 4 USDA' },
  { field: 'loan_purpose', keeps: '1 purchase, 31 refinance (no cash-out), each its own cell' },
  { field: 'lien_status', keeps: '1 (first lien)' },
  { field: 'occupancy_type', keeps: '1 (principal residence)' },
  { field: 'construction_method', keeps: '1 (site-built)' },
  { field: 'total_units', keeps: '1 to 4' },
  { field: 'loan_term', keeps: '360 months' },
  { field: 'intro_rate_period', keeps: 'NA (a fixed rate)' },
  { field: 'balloon_payment, interest_only_payment, negative_amortization, other_nonamortizing_features', keeps: '2 (none)' },
  { field: 'reverse_mortgage, open_end_line_of_credit, business_or_commercial_purpose', keeps: '2 (not)' },
  { field: 'rate_spread', keeps: 'reported (not NA or Exempt)' },
  { field: 'combined_loan_to_value_ratio', keeps: 'reported; ≤ 80 is LTV tier 1, > 80 tier 2' },
];

/** One estimate cell: a state (or the nation), product, purpose and LTV band. */
export interface EstimateRow {
  state: string;
  productType: ProductType;
  loanPurpose: EstimatePurpose;
  ltvBand: LtvTier;
  sampleSize: number;
  medianSpread: number;
  nationalSampleSize: number;
  nationalMedianSpread: number;
  /** Null below MINIMUM_SAMPLE. */
  adjustment: number | null;
}

export const estimateKey = (state: string, productType: string, loanPurpose: string, ltvBand: number) =>
  `${state}|${productType}|${loanPurpose}|${ltvBand}`;
