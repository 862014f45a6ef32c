// The view of /calculator (see site/views/format.ts for why views exist): the form's request read
// by the payment contract, its monthly payment in parts, and the latest weekly survey rate as the
// default rate, with the amounts written as the page shows them.
import { live, queryObject } from './live.ts';
import { latestSurveyRate } from './survey-rate.ts';
import type { PageDeps } from '../../api/publications/render-capture.ts';
import { parseOrThrow } from '../../api/platform/validation.ts';
import { LOAN_TERM_YEARS, PaymentQuerySchema } from '../../api/payment/contract.ts';
import { paymentBreakdown, PaymentInputError } from '../../api/payment/monthly-payment.ts';
import { FHA_PREMIUM_SOURCE, FHA_UPFRONT_PREMIUM_BPS } from '../../api/payment/fha-premiums.ts';

export { FHA_PREMIUM_SOURCE, FHA_UPFRONT_PREMIUM_BPS, LOAN_TERM_YEARS };

/** "$1,234.50". */
export const dollars = (value: number): string =>
  `$${value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** Whole-dollar amounts (a price, a loan) without cents. */
export const amount = (value: number): string =>
  Number.isInteger(value) ? `$${value.toLocaleString('en-US')}` : dollars(value);

type SurveyRate = Awaited<ReturnType<typeof latestSurveyRate>>;

/** The payment for the parsed request, at its rate or the survey's. */
function answer(known: Record<string, string>, survey: SurveyRate) {
  const input = parseOrThrow(PaymentQuerySchema, known, 'query');
  const ratePercent = input.rate ?? survey?.value;
  if (ratePercent === undefined) {
    throw new PaymentInputError(`Give rate: no weekly survey rate covers a ${input.term}-year loan.`);
  }
  const breakdown = paymentBreakdown({
    price: input.price,
    downPercent: input.down_percent,
    ratePercent,
    termYears: Number(input.term),
    loanType: input.loan_type,
    annualTax: input.annual_tax,
    annualInsurance: input.annual_insurance,
    pmiRatePercent: input.pmi_rate,
  });
  return { input, ratePercent, rateFromSurvey: input.rate === undefined, breakdown };
}

export async function calculatorView(deps: PageDeps | undefined, url: URL) {
  const query = queryObject(url);
  const known = Object.fromEntries(Object.entries(query).filter(([name]) => name in PaymentQuerySchema.shape));
  const asked = query.price !== undefined;
  const term = LOAN_TERM_YEARS.includes(query.term as (typeof LOAN_TERM_YEARS)[number]) ? (query.term as string) : '30';
  const survey = deps ? await latestSurveyRate(deps, term) : undefined;
  const result = asked ? await live(deps, () => answer(known, survey)) : undefined;
  /** A field as the reader typed it. */
  const value = (name: string): string => query[name] ?? '';
  return { query, asked, term, survey, result, value };
}
