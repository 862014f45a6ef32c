// A rate request as the service computes it: the contract's parsed query (api/rates/contract.ts)
// reduced to one cell (state, FICO tier, LTV tier, product, term) plus the echoed attributes, the
// labels the record echoes, and the sentences saying how a score or a percent was read as a tier.
import { BadRequestError } from '../platform/errors.ts';
import { invalidValue } from '../platform/contract/messages.ts';
import {
  BELOW_TIERS_LABEL,
  FICO_TIERS,
  LOWEST_TIERED_SCORE,
  LOAN_PURPOSES,
  LOAN_TERMS,
  LTV_TIERS,
  OCCUPANCIES,
  PRODUCT_TYPES,
  PROPERTY_TYPES,
  type FicoTier,
  type LoanPurpose,
  type LoanTerm,
  type LtvTier,
  type Occupancy,
  type ProductType,
  type PropertyType,
  type RateParameters,
  type RatesQuery,
  type StateCode,
} from './contract.ts';

/** The normalised request the service computes a record for. */
export interface RatesRequest {
  state: StateCode;
  /** null: a score below every published tier (answered only for products whose indices cover every score). */
  fico: FicoTier | null;
  ltv: LtvTier;
  productType: ProductType;
  occupancy: Occupancy;
  propertyType: PropertyType;
  loanTerm: LoanTerm;
  loanPurpose: LoanPurpose;
  format: 'detailed' | 'simple';
  date: string | undefined;
  /** How a score or a percent was read as a tier, one sentence each (empty when tiers were given). */
  notes: string[];
}

/**
 * The LTV tier from `ltv` or `down_payment` (the two name the same thing). Both may be given when
 * they agree; when they disagree the request is refused, since either answer would ignore one.
 */
function ltvOf(query: Pick<RatesQuery, 'ltv' | 'down_payment'>): { tier: LtvTier; notes: string[] } {
  const { ltv, down_payment: down } = query;
  if (ltv && down && ltv.tier !== down.tier) {
    throw new BadRequestError(
      `'ltv' (${ltv.given}) and 'down_payment' (${down.given}) name different LTV tiers (${LTV_TIERS[ltv.tier]} and ${LTV_TIERS[down.tier]}); give one of them.`,
    );
  }
  const notes = [ltv?.note, down?.note].filter((note): note is string => typeof note === 'string');
  return { tier: down?.tier ?? ltv?.tier ?? 1, notes };
}

/** Products whose national indices average every credit score, so a score below 680 has an answer. */
export const EVERY_SCORE_PRODUCTS: readonly ProductType[] = ['fha', 'va', 'usda'];

export const ficoLabel = (fico: FicoTier | null): string => (fico === null ? BELOW_TIERS_LABEL : FICO_TIERS[fico]);

/**
 * The request `today` (UTC day) is asked on. Rules across fields live here, where every face passes: a
 * future `date`, and a score below 680 for a product no index covers at that score.
 */
export function toRatesRequest(query: RatesQuery, today?: string): RatesRequest {
  if (today !== undefined && query.date !== undefined && query.date > today) {
    throw new BadRequestError(
      `'date' must not be after today (${today}); "${query.date}" is in the future. Give today or an earlier day, or leave it out for the latest figures.`,
    );
  }
  if (query.fico.tier === null && !EVERY_SCORE_PRODUCTS.includes(query.product_type)) {
    throw new BadRequestError(
      invalidValue(
        ['fico'],
        query.fico.given,
        `A FICO score of ${query.fico.given} is below ${LOWEST_TIERED_SCORE}, the lowest score a published ${PRODUCT_TYPES[query.product_type]} rate tier covers ` +
          '(tier 5 is 680-699), so no published rate applies to it. The FHA, VA and USDA indices cover every score: ask for product_type=fha, va or usda.',
      ),
    );
  }
  const ltv = ltvOf(query);
  return {
    state: query.state,
    fico: query.fico.tier,
    ltv: ltv.tier,
    productType: query.product_type,
    occupancy: query.occupancy,
    propertyType: query.property_type,
    loanTerm: query.loan_term,
    loanPurpose: query.loan_purpose,
    format: query.format,
    date: query.date,
    notes: query.fico.note === null ? ltv.notes : [query.fico.note, ...ltv.notes],
  };
}

/** The `parameters` echo of the detailed record, labels exactly as the contract shows them. */
export function parameterLabels(request: RatesRequest): RateParameters {
  return {
    state: request.state,
    fico_tier: ficoLabel(request.fico),
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
  `${r.state}|${r.fico}|${r.ltv}|${r.productType}|${r.occupancy}|${r.propertyType}|${r.loanTerm}|${r.loanPurpose}|${r.format}|${r.date ?? ''}|${r.notes.join('|')}`;
