// The state estimate applied to a national figure: the state's adjustment for the request's product,
// purpose and LTV band, added to the benchmark, with the words and the machine-readable `estimate`
// object a record carries, or the sentence saying why there is none. Pure code.
import { LOAN_PURPOSES, LTV_TIERS, PRODUCT_TYPES, type StateEstimate } from '../contract.ts';
import type { RatesRequest } from '../params.ts';
import type { HeldEstimates } from '../snapshot.ts';
import { estimateKey, MINIMUM_SAMPLE, METHOD_SENTENCE } from './method.ts';

const round3 = (value: number) => Math.round(value * 1000) / 1000;

export interface Applied {
  rate: number;
  estimate: StateEstimate | null;
  /** Why the rate carries no state adjustment, for `missing` and the disclaimer; undefined when it does. */
  missing?: string;
  /** The sentence saying what the estimate is. */
  sentence?: string;
}

const points = (value: number) => `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(3)} points`;

/** The national figure `rate` for `request`'s cell with the state's adjustment, when one is loaded. */
export function applyStateEstimate(
  request: Pick<RatesRequest, 'state' | 'productType' | 'loanPurpose' | 'ltv' | 'loanTerm'>,
  rate: number,
  estimates: HeldEstimates | undefined,
  methodUrl: string,
): Applied {
  const national = `this rate is national, the same in every state`;
  if (request.loanTerm !== 30) {
    return { rate, estimate: null, missing: `No state adjustment: the state estimate covers 30-year loans only, so ${national}.` };
  }
  if (request.loanPurpose === 'cash_out_refinance') return { rate, estimate: null };
  if (!estimates) {
    return { rate, estimate: null, missing: `No state adjustment: HMDA loan records are not loaded on this server, so ${national}.` };
  }
  const cell = `${PRODUCT_TYPES[request.productType]} ${LOAN_PURPOSES[request.loanPurpose].toLowerCase()} loans with LTV ${request.ltv === 1 ? 'at most 80%' : 'above 80%'}`;
  const row = estimates.byKey.get(estimateKey(request.state, request.productType, request.loanPurpose, request.ltv));
  if (!row) {
    return {
      rate,
      estimate: null,
      missing: `No state adjustment: the ${estimates.hmdaYear} HMDA records hold no ${cell} in ${request.state}, so ${national}.`,
    };
  }
  const estimate: StateEstimate = {
    method: METHOD_SENTENCE,
    method_url: methodUrl,
    hmda_year: estimates.hmdaYear,
    sample_size: row.sampleSize,
    national_sample_size: row.nationalSampleSize,
    minimum_sample_size: MINIMUM_SAMPLE,
    adjustment_points: row.adjustment,
    national_rate: rate,
    synthetic: estimates.synthetic,
  };
  if (row.adjustment === null) {
    return {
      rate,
      estimate,
      missing: `No state adjustment: ${request.state} had ${row.sampleSize} ${cell} in ${estimates.hmdaYear}, fewer than the ${MINIMUM_SAMPLE} the estimate needs, so ${national}.`,
    };
  }
  const synthetic = estimates.synthetic
    ? ' The HMDA warehouse of this server holds SYNTHETIC benchmark rows, not real loans: this adjustment is not a market figure.'
    : '';
  return {
    rate: round3(rate + row.adjustment),
    estimate,
    sentence:
      `This is an estimate, not an observed ${request.state} rate: the national figure ${rate}% ${points(row.adjustment)}, ${request.state}'s median HMDA rate spread ` +
      `(${row.medianSpread}) minus the national median (${row.nationalMedianSpread}) for ${cell} originated in ${estimates.hmdaYear} ` +
      `(${row.sampleSize.toLocaleString('en-US')} loans in ${request.state}, ${LTV_TIERS[request.ltv]} tier). Method and limits: ${methodUrl}.${synthetic}`,
  };
}
