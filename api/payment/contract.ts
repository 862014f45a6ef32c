// What the payment calculator page (/calculator) accepts, read with the contract vocabulary so a
// wrong value gets one message saying what to give.
import { z } from 'zod';
import { choice, decimal } from '../platform/contract/lenient.ts';

export const LOAN_TERM_YEARS = ['30', '20', '15', '10'] as const;

export const PaymentQuerySchema = z.object({
  price: decimal({ min: 1_000, max: 100_000_000, hint: 'Give the home price in dollars, from 1000 to 100000000, e.g. 400000.' }).describe(
    'Home price, dollars.',
  ),
  down_percent: decimal({ min: 0, max: 99, hint: 'Give the down payment as a percent of the price, from 0 to 99, e.g. 20.' })
    .prefault(20)
    .describe('Down payment, percent of the price (default 20).'),
  rate: decimal({ min: 0, max: 25, hint: 'Give the interest rate in percent a year, from 0 to 25, e.g. 6.5.' })
    .optional()
    .describe('Note rate, percent a year. Default: the latest Freddie Mac survey rate for a 30- or 15-year loan.'),
  term: choice(LOAN_TERM_YEARS).prefault('30').describe('Term in years: 30, 20, 15 or 10 (default 30).'),
  loan_type: choice(['conventional', 'fha'] as const)
    .prefault('conventional')
    .describe('conventional (default) or fha.'),
  annual_tax: decimal({ min: 0, max: 10_000_000, hint: 'Give the yearly property tax in dollars, e.g. 4800.' })
    .optional()
    .describe('Yearly property tax, dollars.'),
  annual_insurance: decimal({ min: 0, max: 1_000_000, hint: 'Give the yearly homeowners insurance premium in dollars, e.g. 1500.' })
    .optional()
    .describe('Yearly homeowners insurance premium, dollars.'),
  pmi_rate: decimal({
    min: 0,
    max: 5,
    hint: 'Give the private mortgage insurance rate in percent of the loan a year, from 0 to 5, e.g. 0.5.',
  })
    .optional()
    .describe(
      'Conventional loans above 80% of the price: the private mortgage insurance rate your lender quotes, percent of the loan a year.',
    ),
});
export type PaymentQuery = z.output<typeof PaymentQuerySchema>;
