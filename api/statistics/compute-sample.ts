// Down-payment and income statistics from the 50,000-record HMDA loan sample. Its publisher states
// neither the year nor the state of the records, so these statistics carry no data_year: they say
// so in data_year_note, and every label names the records each figure is computed over.
import type { Queryable } from '../platform/db/database.ts';
import {
  DATA_BROWSER_URL,
  HMDA_LOAN_SAMPLE_DATASET,
  SAMPLE_YEAR_NOTE,
  sampleBorrowerIncome,
  sampleLoanToValue,
  samplePurchaseCounts,
} from '../hmda-aggregates/reads.ts';
import { datasetInfo } from './inputs.ts';
import { percent, usd, whole, type Category, type Statistic } from './types.ts';

const SAMPLE = 'a 50,000-record sample of HMDA records (year and state not stated by its publisher)';

export async function sampleStatistics(db: Queryable): Promise<Statistic[]> {
  const info = await datasetInfo(db, HMDA_LOAN_SAMPLE_DATASET);
  if (!info) return [];
  const stats: Statistic[] = [];
  const add = (category: Category, id: string, numeric: number, value: string, label: string, headline: string, population: string) =>
    stats.push({
      id, category, value, label, headline, data_year: null, data_year_note: SAMPLE_YEAR_NOTE, population,
      source_url: DATA_BROWSER_URL, numeric_value: numeric, as_of: info.asOf,
    });

  const n = await samplePurchaseCounts(db);
  const ltv = await sampleLoanToValue(db);
  if (n.inRange > 0) {
    const loans = 'originated home-purchase loans with a loan-to-value ratio of at most 100%';
    const population =
      `The ${whole(n.inRange)} ${loans} in the sample (approved = 1, loan_purpose = 1, ratio above 0 and at most 100), of its ${whole(n.purchases)} originated ` +
      `home-purchase loans: ${whole(n.overHundred)} with a ratio above 100 and ${whole(n.noRatio)} without a usable ratio (blank, "Exempt" or 0) are left out.`;
    const downPercent = 100 - ltv.medianLtv;
    add('down_payment', 'sample_median_down_payment_percent', downPercent, percent(downPercent),
      `Median down payment (100% − loan-to-value) on ${loans} in ${SAMPLE}`,
      `In ${SAMPLE}, the median ${loans.replace('loans', 'loan')} was made with ${percent(downPercent)} down (${whole(n.inRange)} loans).`, population);
    const twenty = ltv.twentyDownPercent;
    add('down_payment', 'sample_share_20pct_down', twenty, percent(twenty), `Share of ${loans} with 20% or more down in ${SAMPLE}`,
      `${percent(twenty)} of the ${loans} in ${SAMPLE} had a loan-to-value ratio of 80% or less.`, population);
    const five = ltv.fiveDownPercent;
    add('down_payment', 'sample_share_5pct_or_less_down', five, percent(five), `Share of ${loans} with 5% or less down in ${SAMPLE}`,
      `${percent(five)} of the ${loans} in ${SAMPLE} had a loan-to-value ratio of 95% or more.`, population);
    const fhaMin = ltv.fhaMinimumPercent;
    add('down_payment', 'sample_share_3_5pct_down', fhaMin, percent(fhaMin), `Share of ${loans} at exactly 96.5% loan-to-value (3.5% down) in ${SAMPLE}`,
      `${percent(fhaMin)} of the ${loans} in ${SAMPLE} were at 96.5% loan-to-value, FHA's 3.5% minimum down payment.`, population);
    const medianDown = ltv.medianDownUsd;
    add('down_payment', 'sample_median_down_payment_usd', medianDown, usd(medianDown), `Median down payment in dollars (property value − loan amount) on ${loans} in ${SAMPLE}`,
      `The median ${loans.replace('loans', 'loan')} in ${SAMPLE} left ${usd(medianDown)} between property value and loan amount.`,
      `The ${whole(n.withDollars)} of those ${whole(n.inRange)} ${loans} that report both property value and loan amount (HMDA publishes each rounded to ` +
        `the midpoint of a $10,000 band); a loan above the property value counts as $0 down (${whole(n.loanAboveValue)} loans). ` +
        `Of the sample's ${whole(n.purchases)} originated home-purchase loans, ${whole(n.overHundred)} with a ratio above 100 and ${whole(n.noRatio)} without one are left out.`);
  }

  const { medianUsd: medianIncome, withIncome, originated } = await sampleBorrowerIncome(db);
  if (medianIncome > 0) {
    add('borrower_profile', 'sample_median_borrower_income', medianIncome, usd(medianIncome), `Median annual income of borrowers with originated loans (any purpose) in ${SAMPLE}`,
      `Borrowers of originated loans in ${SAMPLE} had a median gross annual income of ${usd(medianIncome)}.`,
      `The ${whole(withIncome)} originated loans of every purpose in the sample (approved = 1) with a reported income above $0, of its ${whole(originated)} originated loans; ` +
        `${whole(originated - withIncome)} with an income of $0 or less or none reported are left out (HMDA reports income in thousands of dollars).`);
  }
  return stats;
}
