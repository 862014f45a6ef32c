// What a precomputed statistic is (the contract's record plus what the catalogue keeps beside it)
// and the display formatting and payment arithmetic every computation shares.
import { principalAndInterest } from '../payment/monthly-payment.ts';
import type { StatRecord } from './contract.ts';

export { CATEGORIES, type Category } from './contract.ts';

/**
 * One catalogue entry: the served record (the contract's) and `numeric_value`, what `value` was
 * formatted from. Every input the label or headline shows is the exact figure the value was
 * computed with.
 */
export type Statistic = StatRecord & { numeric_value: number };

export const toRecord = (stat: Statistic): StatRecord => ({
  id: stat.id,
  value: stat.value,
  label: stat.label,
  headline: stat.headline,
  category: stat.category,
  data_year: stat.data_year,
  population: stat.population,
  source_url: stat.source_url,
  as_of: stat.as_of,
});

export const percent = (value: number, digits = 1): string => `${value.toFixed(digits)}%`;
export const signedPercent = (value: number, digits = 1): string => `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(digits)}%`;
export const points = (value: number, digits = 2): string => `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(digits)} pts`;
export const usd = (value: number): string => `$${Math.round(value).toLocaleString('en-US')}`;
export const whole = (value: number): string => Math.round(value).toLocaleString('en-US');

/**
 * A computed input (an average rate) rounded exactly as `percent(value, digits)` shows it, so a
 * figure computed from it reproduces from the text: computing with 5.3440% while showing "5.34%"
 * gives a reader a different dollar figure.
 */
export const asShown = (value: number, digits: number): number => Number(value.toFixed(digits));

/** 13,543,606 → "13.5 million"; smaller numbers with thousands separators. */
export function count(value: number): string {
  return value >= 1_000_000 ? `${(value / 1_000_000).toFixed(1)} million` : whole(value);
}

/** Monthly principal and interest of a fixed-rate loan (annual rate in percent, 360 payments): the calculator's amortisation. */
export function monthlyPayment(principal: number, annualRatePercent: number, months = 360): number {
  return principalAndInterest(principal, annualRatePercent, months / 12);
}

/** The loan a monthly payment supports (inverse of monthlyPayment). */
export function principalFor(payment: number, annualRatePercent: number, months = 360): number {
  const rate = annualRatePercent / 1200;
  if (rate === 0) return payment * months;
  return (payment * (1 - (1 + rate) ** -months)) / rate;
}

/**
 * The front-end ratio the affordability figures use: housing payment at most 28% of gross monthly
 * income, the conventional underwriting guideline (Fannie Mae/Freddie Mac's customary 28/36 rule).
 */
export const FRONT_END_RATIO = 0.28;
/** FHA's minimum down payment for borrowers with a credit score of 580 or more (24 CFR 203.18). */
export const FHA_MIN_DOWN = 0.035;
