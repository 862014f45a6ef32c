// The parameters of GET /rates (contract "Rates"): allowed values, defaults and the labels the
// record echoes. Shared by the route's zod schema, the service, the MCP tool and the importers.
import { z } from 'zod';
import { isCalendarDate } from './sync/fred-csv.ts';

import { STATE_CODES, type StateCode } from '../geo/states.ts';

export { STATE_CODES, type StateCode };

export const FICO_TIERS = { 1: '780+', 2: '740-779', 3: '720-739', 4: '700-719', 5: '680-699' } as const;
export type FicoTier = keyof typeof FICO_TIERS;
/** Score range of each tier (inclusive), as the CFPB Rate Checker asks for it. */
export const FICO_RANGES: Record<FicoTier, [number, number]> = {
  1: [780, 850],
  2: [740, 779],
  3: [720, 739],
  4: [700, 719],
  5: [680, 699],
};

export const LTV_TIERS = { 1: '75%', 2: '95%' } as const;
export type LtvTier = keyof typeof LTV_TIERS;
export const LTV_PERCENT: Record<LtvTier, number> = { 1: 75, 2: 95 };

// `usda` is an addition to the contract's four products: Optimal Blue publishes a USDA index.
export const PRODUCT_TYPES = { conventional: 'Conventional', fha: 'FHA', va: 'VA', jumbo: 'Jumbo', usda: 'USDA' } as const;
export type ProductType = keyof typeof PRODUCT_TYPES;

export const OCCUPANCIES = { primary: 'Primary residence', secondary: 'Second home', investment: 'Investment property' } as const;
export const PROPERTY_TYPES = {
  single_family: 'Single family',
  condo: 'Condo',
  townhouse: 'Townhouse',
  multi_family: 'Multi-family',
  manufactured: 'Manufactured home',
} as const;
export const LOAN_TERMS = { 30: '30-year', 20: '20-year', 15: '15-year', 10: '10-year' } as const;
export type LoanTerm = keyof typeof LOAN_TERMS;
export const LOAN_PURPOSES = { purchase: 'Purchase', refinance: 'Refinance', cash_out_refinance: 'Cash-out refinance' } as const;

const keys = <T extends object>(record: T) => Object.keys(record) as [string, ...string[]];

const stateParam = z
  .string()
  .transform((value) => value.trim().toUpperCase())
  .pipe(z.enum(STATE_CODES))
  .default('CO')
  .describe('2-letter code of one of the 50 states or DC, case-insensitive.');

const dateParam = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a day written YYYY-MM-DD')
  .refine(isCalendarDate, 'must be a real calendar day written YYYY-MM-DD')
  .optional()
  .describe('YYYY-MM-DD: the record as of that day (the latest observations on or before it). Default: the latest.');

export const RatesQuerySchema = z.object({
  state: stateParam,
  fico: z
    .enum(keys(FICO_TIERS))
    .default('1')
    .describe('FICO tier: 1 = 780+, 2 = 740-779, 3 = 720-739, 4 = 700-719, 5 = 680-699.'),
  ltv: z.enum(keys(LTV_TIERS)).default('1').describe('Loan-to-value tier: 1 = 75%, 2 = 95%.'),
  product_type: z
    .enum(keys(PRODUCT_TYPES))
    .default('conventional')
    .describe('Loan product. `usda` (USDA guaranteed) is an addition to the specification\'s four.'),
  occupancy: z
    .enum(keys(OCCUPANCIES))
    .default('primary')
    .describe('Property occupancy. Echoed; no loaded source distinguishes it (see the disclaimer).'),
  property_type: z
    .enum(keys(PROPERTY_TYPES))
    .default('single_family')
    .describe('Type of property. Echoed; no loaded source distinguishes it (see the disclaimer).'),
  loan_term: z
    .enum(keys(LOAN_TERMS))
    .default('30')
    .describe('Term in years. `rate` is for this term; `rate_30yr` stays the 30-year rate of the same cell.'),
  loan_purpose: z
    .enum(keys(LOAN_PURPOSES))
    .default('purchase')
    .describe('Purpose of the loan. Echoed; no loaded source distinguishes it (see the disclaimer).'),
  format: z.enum(['detailed', 'simple']).default('detailed').describe('`detailed` (record 2.1) or `simple` (record 2.2).'),
  date: dateParam,
});

export type RatesQueryInput = z.input<typeof RatesQuerySchema>;
export type RatesQuery = z.output<typeof RatesQuerySchema>;

/** The normalised request the service computes a record for. */
export interface RatesRequest {
  state: StateCode;
  fico: FicoTier;
  ltv: LtvTier;
  productType: ProductType;
  occupancy: keyof typeof OCCUPANCIES;
  propertyType: keyof typeof PROPERTY_TYPES;
  loanTerm: LoanTerm;
  loanPurpose: keyof typeof LOAN_PURPOSES;
  format: 'detailed' | 'simple';
  date: string | undefined;
}

export function toRatesRequest(query: RatesQuery): RatesRequest {
  return {
    state: query.state,
    fico: Number(query.fico) as FicoTier,
    ltv: Number(query.ltv) as LtvTier,
    productType: query.product_type as ProductType,
    occupancy: query.occupancy as keyof typeof OCCUPANCIES,
    propertyType: query.property_type as keyof typeof PROPERTY_TYPES,
    loanTerm: Number(query.loan_term) as LoanTerm,
    loanPurpose: query.loan_purpose as keyof typeof LOAN_PURPOSES,
    format: query.format,
    date: query.date,
  };
}

/** The `parameters` echo of record 2.1, labels exactly as the contract shows them. */
export function parameterLabels(request: RatesRequest): Record<string, string> {
  return {
    state: request.state,
    fico_tier: FICO_TIERS[request.fico],
    ltv_tier: LTV_TIERS[request.ltv],
    product_type: PRODUCT_TYPES[request.productType],
    occupancy: OCCUPANCIES[request.occupancy],
    property_type: PROPERTY_TYPES[request.propertyType],
    loan_term: LOAN_TERMS[request.loanTerm],
    loan_purpose: LOAN_PURPOSES[request.loanPurpose],
  };
}

/** A stable cache key for a request (a template string: this runs on every request). */
export const requestKey = (r: RatesRequest) =>
  `${r.state}|${r.fico}|${r.ltv}|${r.productType}|${r.occupancy}|${r.propertyType}|${r.loanTerm}|${r.loanPurpose}|${r.format}|${r.date ?? ''}`;
