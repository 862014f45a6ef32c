// Down-payment and income statistics from the 50,000-record HMDA loan sample. Its publisher states
// neither the year nor the state of the records, so these statistics carry no data_year: they say
// so in data_year_note, and every label names the records each figure is computed over.
import type { Queryable } from '../platform/db/database.ts';
import { HMDA_LOAN_SAMPLE_DATASET, SAMPLE_YEAR_NOTE } from '../hmda-aggregates/sample.ts';
import { DATA_BROWSER_URL } from '../hmda-aggregates/sources.ts';
import { datasetInfo } from './inputs.ts';
import { percent, usd, whole, type Category, type Statistic } from './types.ts';

const SAMPLE = 'a 50,000-record sample of HMDA records (year and state not stated by its publisher)';
/** Originated home-purchase loans of the sample. */
const PURCHASES = 'approved = 1 AND loan_purpose = 1';
/** ... with a usable loan-to-value ratio: above 100 is a loan larger than the property's value. */
const IN_RANGE = `${PURCHASES} AND loan_to_value_ratio > 0 AND loan_to_value_ratio <= 100`;

interface SampleCounts {
  purchases: number;
  inRange: number;
  overHundred: number;
  noRatio: number;
  withDollars: number;
  loanAboveValue: number;
}

async function counts(db: Queryable): Promise<SampleCounts> {
  const { rows } = await db.query<Record<keyof SampleCounts, string>>(
    `SELECT count(*) FILTER (WHERE ${PURCHASES})::text AS "purchases",
            count(*) FILTER (WHERE ${IN_RANGE})::text AS "inRange",
            count(*) FILTER (WHERE ${PURCHASES} AND loan_to_value_ratio > 100)::text AS "overHundred",
            count(*) FILTER (WHERE ${PURCHASES} AND (loan_to_value_ratio IS NULL OR loan_to_value_ratio <= 0))::text AS "noRatio",
            count(*) FILTER (WHERE ${IN_RANGE} AND property_value IS NOT NULL AND loan_amount IS NOT NULL)::text AS "withDollars",
            count(*) FILTER (WHERE ${IN_RANGE} AND property_value < loan_amount)::text AS "loanAboveValue"
       FROM hmda_loan_sample`,
  );
  const row = rows[0];
  return {
    purchases: Number(row?.purchases ?? 0), inRange: Number(row?.inRange ?? 0), overHundred: Number(row?.overHundred ?? 0),
    noRatio: Number(row?.noRatio ?? 0), withDollars: Number(row?.withDollars ?? 0), loanAboveValue: Number(row?.loanAboveValue ?? 0),
  };
}

export async function sampleStatistics(db: Queryable): Promise<Statistic[]> {
  const info = await datasetInfo(db, HMDA_LOAN_SAMPLE_DATASET);
  if (!info) return [];
  const stats: Statistic[] = [];
  const add = (category: Category, id: string, numeric: number, value: string, label: string, headline: string, population: string) =>
    stats.push({
      id, category, value, label, headline, data_year: null, data_year_note: SAMPLE_YEAR_NOTE, population,
      source_url: DATA_BROWSER_URL, numeric_value: numeric, as_of: info.asOf,
    });

  const n = await counts(db);
  const { rows } = await db.query<Record<string, string>>(
    `SELECT (percentile_cont(0.5) WITHIN GROUP (ORDER BY loan_to_value_ratio))::text AS median_ltv,
            (avg(CASE WHEN loan_to_value_ratio <= 80 THEN 1.0 ELSE 0.0 END) * 100)::text AS twenty_down,
            (avg(CASE WHEN loan_to_value_ratio >= 95 THEN 1.0 ELSE 0.0 END) * 100)::text AS five_down,
            (avg(CASE WHEN loan_to_value_ratio = 96.5 THEN 1.0 ELSE 0.0 END) * 100)::text AS fha_min,
            (percentile_cont(0.5) WITHIN GROUP (ORDER BY greatest(property_value - loan_amount, 0))
               FILTER (WHERE property_value IS NOT NULL AND loan_amount IS NOT NULL))::text AS median_down
       FROM hmda_loan_sample WHERE ${IN_RANGE}`,
  );
  const row = rows[0] ?? {};
  if (n.inRange > 0) {
    const loans = 'originated home-purchase loans with a loan-to-value ratio of at most 100%';
    const population =
      `The ${whole(n.inRange)} ${loans} in the sample (approved = 1, loan_purpose = 1, ratio above 0 and at most 100), of its ${whole(n.purchases)} originated ` +
      `home-purchase loans: ${whole(n.overHundred)} with a ratio above 100 and ${whole(n.noRatio)} without a usable ratio (blank, "Exempt" or 0) are left out.`;
    const downPercent = 100 - Number(row.median_ltv);
    add('down_payment', 'sample_median_down_payment_percent', downPercent, percent(downPercent),
      `Median down payment (100% − loan-to-value) on ${loans} in ${SAMPLE}`,
      `In ${SAMPLE}, the median ${loans.replace('loans', 'loan')} was made with ${percent(downPercent)} down (${whole(n.inRange)} loans).`, population);
    const twenty = Number(row.twenty_down);
    add('down_payment', 'sample_share_20pct_down', twenty, percent(twenty), `Share of ${loans} with 20% or more down in ${SAMPLE}`,
      `${percent(twenty)} of the ${loans} in ${SAMPLE} had a loan-to-value ratio of 80% or less.`, population);
    const five = Number(row.five_down);
    add('down_payment', 'sample_share_5pct_or_less_down', five, percent(five), `Share of ${loans} with 5% or less down in ${SAMPLE}`,
      `${percent(five)} of the ${loans} in ${SAMPLE} had a loan-to-value ratio of 95% or more.`, population);
    const fhaMin = Number(row.fha_min);
    add('down_payment', 'sample_share_3_5pct_down', fhaMin, percent(fhaMin), `Share of ${loans} at exactly 96.5% loan-to-value (3.5% down) in ${SAMPLE}`,
      `${percent(fhaMin)} of the ${loans} in ${SAMPLE} were at 96.5% loan-to-value, FHA's 3.5% minimum down payment.`, population);
    const medianDown = Number(row.median_down);
    add('down_payment', 'sample_median_down_payment_usd', medianDown, usd(medianDown), `Median down payment in dollars (property value − loan amount) on ${loans} in ${SAMPLE}`,
      `The median ${loans.replace('loans', 'loan')} in ${SAMPLE} left ${usd(medianDown)} between property value and loan amount.`,
      `The ${whole(n.withDollars)} of those ${whole(n.inRange)} ${loans} that report both property value and loan amount (HMDA publishes each rounded to ` +
        `the midpoint of a $10,000 band); a loan above the property value counts as $0 down (${whole(n.loanAboveValue)} loans). ` +
        `Of the sample's ${whole(n.purchases)} originated home-purchase loans, ${whole(n.overHundred)} with a ratio above 100 and ${whole(n.noRatio)} without one are left out.`);
  }

  const { rows: income } = await db.query<{ median: string; n: string; originated: string }>(
    `SELECT (percentile_cont(0.5) WITHIN GROUP (ORDER BY income_thousands) FILTER (WHERE income_thousands > 0))::text AS median,
            count(*) FILTER (WHERE income_thousands > 0)::text AS n, count(*)::text AS originated
       FROM hmda_loan_sample WHERE approved = 1`,
  );
  const medianIncome = Number(income[0]?.median ?? 0) * 1000;
  if (medianIncome > 0) {
    const withIncome = Number(income[0]?.n ?? 0);
    const originated = Number(income[0]?.originated ?? 0);
    add('borrower_profile', 'sample_median_borrower_income', medianIncome, usd(medianIncome), `Median annual income of borrowers with originated loans (any purpose) in ${SAMPLE}`,
      `Borrowers of originated loans in ${SAMPLE} had a median gross annual income of ${usd(medianIncome)}.`,
      `The ${whole(withIncome)} originated loans of every purpose in the sample (approved = 1) with a reported income above $0, of its ${whole(originated)} originated loans; ` +
        `${whole(originated - withIncome)} with an income of $0 or less or none reported are left out (HMDA reports income in thousands of dollars).`);
  }
  return stats;
}
