// A monthly mortgage payment in its parts: principal and interest (the standard amortisation
// formula), property tax and homeowners insurance (the reader's own yearly figures, over twelve),
// and mortgage insurance (FHA's premiums as HUD sets them; for a conventional loan above 80% LTV,
// the reader's private mortgage insurance rate, since no public source sets one). Pure code.
import { FHA_MAX_LTV_PERCENT, FHA_UPFRONT_PREMIUM_BPS, fhaAnnualPremiumBps } from './fha-premiums.ts';

export interface PaymentInput {
  price: number;
  downPercent: number;
  /** Note rate, percent a year. */
  ratePercent: number;
  termYears: number;
  loanType: 'conventional' | 'fha';
  annualTax?: number | undefined;
  annualInsurance?: number | undefined;
  /** Conventional private mortgage insurance, percent of the loan a year. */
  pmiRatePercent?: number | undefined;
}

export interface MortgageInsurance {
  kind: 'fha' | 'pmi' | 'none' | 'pmi_not_given';
  /** Percent of the loan a year (FHA annual premium or the reader's PMI rate). */
  annualRatePercent: number | null;
  monthly: number | null;
  /** FHA's upfront premium, financed into the loan. */
  upfrontPremium: number | null;
}

export interface PaymentBreakdown {
  downPayment: number;
  /** The loan before any financed premium. */
  baseLoan: number;
  /** What is borrowed: the base loan plus FHA's financed upfront premium. */
  loanAmount: number;
  ltvPercent: number;
  principalAndInterest: number;
  tax: number | null;
  insurance: number | null;
  mortgageInsurance: MortgageInsurance;
  /** The parts that are known, added up. */
  total: number;
}

const cents = (value: number): number => Math.round(value * 100) / 100;

/**
 * Monthly principal and interest: L·r / (1 − (1 + r)^−n), with r the monthly rate (the rate as
 * given, unrounded) and n the months. The one amortisation of the service: the calculator, REST and
 * MCP's payment, /ask and the affordability statistics all compute through it. The denominator is
 * taken as −expm1(−n·log1p(r)): written as 1 − (1 + r)^−n it cancels to a few digits at tiny rates,
 * and at 0.0000001% over 50 years the payment came out below L/n, a negative total interest.
 */
export function principalAndInterest(loanAmount: number, ratePercent: number, termYears: number): number {
  const months = termYears * 12;
  const monthlyRate = ratePercent / 100 / 12;
  if (monthlyRate === 0) return loanAmount / months;
  return (loanAmount * monthlyRate) / -Math.expm1(-months * Math.log1p(monthlyRate));
}

export class PaymentInputError extends Error {
  readonly status = 400;
}

export function paymentBreakdown(input: PaymentInput): PaymentBreakdown {
  const downPayment = cents((input.price * input.downPercent) / 100);
  const baseLoan = cents(input.price - downPayment);
  const ltvPercent = Math.round((baseLoan / input.price) * 10_000) / 100;
  if (input.loanType === 'fha' && ltvPercent > FHA_MAX_LTV_PERCENT) {
    throw new PaymentInputError(`An FHA loan needs at least ${cents(100 - FHA_MAX_LTV_PERCENT)}% down; give down_percent of 3.5 or more.`);
  }
  let loanAmount = baseLoan;
  let mortgageInsurance: MortgageInsurance = { kind: 'none', annualRatePercent: null, monthly: null, upfrontPremium: null };
  if (input.loanType === 'fha') {
    const upfrontPremium = cents((baseLoan * FHA_UPFRONT_PREMIUM_BPS) / 10_000);
    loanAmount = cents(baseLoan + upfrontPremium);
    const bps = fhaAnnualPremiumBps(baseLoan, ltvPercent, input.termYears);
    // HUD charges the annual premium on each year's average balance; the first year's is close to the base loan.
    mortgageInsurance = { kind: 'fha', annualRatePercent: bps / 100, monthly: cents((baseLoan * bps) / 10_000 / 12), upfrontPremium };
  } else if (ltvPercent > 80) {
    mortgageInsurance =
      input.pmiRatePercent === undefined
        ? { kind: 'pmi_not_given', annualRatePercent: null, monthly: null, upfrontPremium: null }
        : {
            kind: 'pmi',
            annualRatePercent: input.pmiRatePercent,
            monthly: cents((baseLoan * input.pmiRatePercent) / 100 / 12),
            upfrontPremium: null,
          };
  }
  const pAndI = cents(principalAndInterest(loanAmount, input.ratePercent, input.termYears));
  const tax = input.annualTax === undefined ? null : cents(input.annualTax / 12);
  const insurance = input.annualInsurance === undefined ? null : cents(input.annualInsurance / 12);
  const total = cents(pAndI + (tax ?? 0) + (insurance ?? 0) + (mortgageInsurance.monthly ?? 0));
  return { downPayment, baseLoan, loanAmount, ltvPercent, principalAndInterest: pAndI, tax, insurance, mortgageInsurance, total };
}
