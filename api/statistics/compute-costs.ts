// Loan-limit, down-payment and affordability statistics: national loan limits (FHFA, HUD), down
// payments in the 50,000-record HMDA sample and on limit-sized loans, and monthly payments and
// incomes computed from PMMS rates, loan limits and HUD area median family incomes.
import type { Queryable } from '../platform/db/database.ts';
import { HMDA_LOAN_SAMPLE_DATASET } from '../hmda-aggregates/sample.ts';
import { DATA_BROWSER_URL, HUD_INCOME_LIMITS_URL } from '../hmda-aggregates/sources.ts';
import { PMMS_DATASET } from '../rates/sync/national.ts';
import { HUD_INCOME_DATASET } from './income.ts';
import { datasetInfo, daysBefore, forYear, nationalLimits, onOrBefore, series, yearAverage } from './inputs.ts';
import { FHA_MIN_DOWN, FRONT_END_RATIO, count, monthlyPayment, percent, principalFor, usd, whole, type Category, type Statistic } from './types.ts';

const PMMS_URL = 'https://fred.stlouisfed.org/series/MORTGAGE30US';
/** The sample's year is not stated; 2018 is the first year HMDA reported loan-to-value ratios. */
export const SAMPLE_DATA_YEAR = 2018;
const SAMPLE = 'a 50,000-record sample of post-2018 HMDA records (year and state not stated)';
/** Originated home-purchase loans of the sample with a usable loan-to-value ratio. */
const SAMPLE_PURCHASES = 'approved = 1 AND loan_purpose = 1 AND loan_to_value_ratio > 0 AND loan_to_value_ratio <= 100';

export async function costStatistics(db: Queryable): Promise<Statistic[]> {
  const stats: Statistic[] = [];
  const add = (category: Category, id: string, numeric: number, value: string, label: string, headline: string, dataYear: number, sourceUrl: string, asOf: string) =>
    stats.push({ id, category, value, label, headline, data_year: dataYear, source_url: sourceUrl, numeric_value: numeric, as_of: asOf });

  // Loan limits.
  const conformingInfo = await datasetInfo(db, 'loan_limits_conforming');
  const fhaInfo = await datasetInfo(db, 'loan_limits_fha');
  const baselines = await nationalLimits(db, 'conforming', 'floor');
  const ceilings = await nationalLimits(db, 'conforming', 'ceiling');
  const fhaFloors = await nationalLimits(db, 'fha', 'floor');
  const limitYear = Math.max(...baselines.keys());
  const baseline = baselines.get(limitYear);
  if (conformingInfo && baseline !== undefined) {
    const url = conformingInfo.sourceUrl;
    add('loan_types', `conforming_baseline_limit_${limitYear}`, baseline, usd(baseline), `Conforming loan limit for a one-unit home in most counties, ${limitYear}`,
      `The ${limitYear} baseline conforming loan limit for one-unit homes is ${usd(baseline)} (FHFA); larger loans are jumbo outside high-cost areas.`, limitYear, url, conformingInfo.asOf);
    const ceiling = ceilings.get(limitYear);
    if (ceiling !== undefined) {
      add('loan_types', `conforming_ceiling_limit_${limitYear}`, ceiling, usd(ceiling), `High-cost-area conforming loan ceiling, one unit, ${limitYear}`,
        `In the costliest areas of the contiguous US, the ${limitYear} conforming limit for one-unit homes rises to ${usd(ceiling)}.`, limitYear, url, conformingInfo.asOf);
    }
    const { rows } = await db.query<{ n: string; all: string }>(
      `SELECT count(*) FILTER (WHERE limit_1 > $2)::text AS n, count(*)::text AS all FROM loan_limits WHERE program = 'conforming' AND year = $1`,
      [limitYear, baseline],
    );
    const highCost = Number(rows[0]?.n ?? 0);
    add('loan_types', `high_cost_counties_${limitYear}`, highCost, whole(highCost), `Counties with a conforming limit above the baseline, ${limitYear}`,
      `${whole(highCost)} of ${whole(Number(rows[0]?.all ?? 0))} counties have a ${limitYear} conforming limit above the ${usd(baseline)} baseline.`, limitYear, url, conformingInfo.asOf);
    // Down payment: the price at which a 20%-down loan stops being conforming in baseline counties.
    const threshold = baseline / 0.8;
    add('down_payment', `jumbo_threshold_20pct_down_${limitYear}`, threshold, usd(threshold), `Home price above which a 20%-down loan exceeds the ${limitYear} baseline conforming limit`,
      `With 20% down, a home priced above ${usd(threshold)} needs a loan larger than the ${limitYear} baseline conforming limit of ${usd(baseline)} (computed: limit ÷ 0.8).`, limitYear, url, conformingInfo.asOf);
  }
  const fhaYear = Math.max(...fhaFloors.keys());
  const fhaFloor = fhaFloors.get(fhaYear);
  if (fhaInfo && fhaFloor !== undefined) {
    add('loan_types', `fha_floor_limit_${fhaYear}`, fhaFloor, usd(fhaFloor), `FHA loan limit floor for a one-unit home, ${fhaYear}`,
      `FHA-insured loans for one-unit homes can reach at least ${usd(fhaFloor)} in every county in ${fhaYear} (HUD's national floor).`, fhaYear, fhaInfo.sourceUrl, fhaInfo.asOf);
    const price = fhaFloor / (1 - FHA_MIN_DOWN);
    const down = price * FHA_MIN_DOWN;
    add('down_payment', `fha_min_down_payment_at_floor_${fhaYear}`, down, usd(down), `Minimum FHA down payment (3.5%) on a home financed at the ${fhaYear} FHA floor limit`,
      `Buying a ${usd(price)} home with the largest FHA loan allowed everywhere in ${fhaYear} (${usd(fhaFloor)}) takes a 3.5% minimum down payment of ${usd(down)} (computed).`, fhaYear, fhaInfo.sourceUrl, fhaInfo.asOf);
  }

  // Down payments and incomes in the HMDA sample.
  const sampleInfo = await datasetInfo(db, HMDA_LOAN_SAMPLE_DATASET);
  if (sampleInfo) {
    const { rows } = await db.query<Record<string, string>>(
      `SELECT count(*)::text AS n,
              (percentile_cont(0.5) WITHIN GROUP (ORDER BY loan_to_value_ratio))::text AS median_ltv,
              (avg(CASE WHEN loan_to_value_ratio <= 80 THEN 1.0 ELSE 0.0 END) * 100)::text AS twenty_down,
              (avg(CASE WHEN loan_to_value_ratio >= 95 THEN 1.0 ELSE 0.0 END) * 100)::text AS five_down,
              (avg(CASE WHEN loan_to_value_ratio = 96.5 THEN 1.0 ELSE 0.0 END) * 100)::text AS fha_min,
              (percentile_cont(0.5) WITHIN GROUP (ORDER BY greatest(property_value - loan_amount, 0))
                 FILTER (WHERE property_value IS NOT NULL AND loan_amount IS NOT NULL))::text AS median_down
         FROM hmda_loan_sample WHERE ${SAMPLE_PURCHASES}`,
    );
    const row = rows[0] ?? {};
    const n = Number(row.n ?? 0);
    const sample = (id: string, numeric: number, value: string, label: string, headline: string) =>
      add('down_payment', id, numeric, value, label, headline, SAMPLE_DATA_YEAR, DATA_BROWSER_URL, sampleInfo.asOf);
    if (n > 0) {
      const downPercent = 100 - Number(row.median_ltv);
      sample('sample_median_down_payment_percent', downPercent, percent(downPercent), `Median down payment (100% − loan-to-value) on home-purchase loans in ${SAMPLE}`,
        `In ${SAMPLE}, the median home-purchase loan was made with ${percent(downPercent)} down (${whole(n)} originated purchase loans).`);
      sample('sample_share_20pct_down', Number(row.twenty_down), percent(Number(row.twenty_down)), `Share of home-purchase loans with 20% or more down in ${SAMPLE}`,
        `${percent(Number(row.twenty_down))} of originated home-purchase loans in ${SAMPLE} had a loan-to-value ratio of 80% or less.`);
      sample('sample_share_5pct_or_less_down', Number(row.five_down), percent(Number(row.five_down)), `Share of home-purchase loans with 5% or less down in ${SAMPLE}`,
        `${percent(Number(row.five_down))} of originated home-purchase loans in ${SAMPLE} had a loan-to-value ratio of 95% or more.`);
      sample('sample_share_3_5pct_down', Number(row.fha_min), percent(Number(row.fha_min)), `Share of home-purchase loans at exactly 96.5% loan-to-value (3.5% down) in ${SAMPLE}`,
        `${percent(Number(row.fha_min))} of originated home-purchase loans in ${SAMPLE} were at 96.5% loan-to-value, FHA's 3.5% minimum down payment.`);
      sample('sample_median_down_payment_usd', Number(row.median_down), usd(Number(row.median_down)), `Median down payment in dollars (property value − loan amount) in ${SAMPLE}`,
        `The median originated home-purchase loan in ${SAMPLE} left ${usd(Number(row.median_down))} between property value and loan amount.`);
    }
    const { rows: income } = await db.query<{ median: string; n: string }>(
      `SELECT (percentile_cont(0.5) WITHIN GROUP (ORDER BY income_thousands))::text AS median, count(*)::text AS n
         FROM hmda_loan_sample WHERE approved = 1 AND income_thousands > 0`,
    );
    const medianIncome = Number(income[0]?.median ?? 0) * 1000;
    if (medianIncome > 0) {
      add('borrower_profile', 'sample_median_borrower_income', medianIncome, usd(medianIncome), `Median annual income of borrowers with originated loans in ${SAMPLE}`,
        `Borrowers of originated loans in ${SAMPLE} had a median gross annual income of ${usd(medianIncome)}.`, SAMPLE_DATA_YEAR, DATA_BROWSER_URL, sampleInfo.asOf);
    }
  }

  // Affordability: payments at the latest PMMS rate, and against HUD area median family incomes.
  const pmms = await datasetInfo(db, PMMS_DATASET);
  const thirty = await series(db, 'MORTGAGE30US');
  const latest = thirty.at(-1);
  if (pmms && latest) {
    const year = Number(latest.date.slice(0, 4));
    const limit = forYear(baselines, year);
    const perHundred = monthlyPayment(100_000, latest.value);
    add('affordability', 'pi_per_100k_latest', perHundred, usd(perHundred), `Monthly principal and interest per $100,000 borrowed at the latest PMMS 30-year rate (${percent(latest.value, 2)}, ${latest.date})`,
      `Each $100,000 of a 30-year fixed loan costs ${usd(perHundred)} a month in principal and interest at ${percent(latest.value, 2)} (computed).`, year, PMMS_URL, latest.date);
    if (limit) {
      const payment = monthlyPayment(limit.value, latest.value);
      add('affordability', 'pi_payment_baseline_latest', payment, usd(payment), `Monthly principal and interest on a ${usd(limit.value)} loan (${limit.year} baseline conforming limit) at ${percent(latest.value, 2)} (PMMS, ${latest.date})`,
        `A 30-year fixed loan at the ${limit.year} baseline conforming limit of ${usd(limit.value)} costs ${usd(payment)} a month in principal and interest at the latest PMMS rate of ${percent(latest.value, 2)} (computed).`, year, PMMS_URL, latest.date);
      const income = (payment * 12) / FRONT_END_RATIO;
      add('affordability', 'income_needed_baseline_latest', income, usd(income), `Gross annual income for that payment to be 28% of income (computed)`,
        `Keeping principal and interest on a ${usd(limit.value)} loan at ${percent(latest.value, 2)} within 28% of gross income takes ${usd(income)} a year (computed; taxes and insurance excluded).`, year, PMMS_URL, latest.date);
      const yearAgo = onOrBefore(thirty, daysBefore(latest.date, 364));
      if (yearAgo) {
        const change = payment - monthlyPayment(limit.value, yearAgo.value);
        add('affordability', 'pi_payment_baseline_change_52wk', change, `${change >= 0 ? '+' : '−'}${usd(Math.abs(change))}`, `Change over 52 weeks in monthly principal and interest on a ${usd(limit.value)} loan, from rates alone`,
          `At ${percent(latest.value, 2)} instead of ${percent(yearAgo.value, 2)} a year earlier, a ${usd(limit.value)} 30-year loan costs ${usd(Math.abs(change))} a month ${change >= 0 ? 'more' : 'less'} (computed).`, year, PMMS_URL, latest.date);
      }
    }
  }
  const hud = await datasetInfo(db, HUD_INCOME_DATASET);
  const { rows: fyRows } = await db.query<{ fy: number }>('SELECT max(fiscal_year) AS fy FROM hud_median_family_income');
  const fy = fyRows[0]?.fy === null || fyRows[0]?.fy === undefined ? undefined : Number(fyRows[0].fy);
  const fyRate = fy === undefined ? undefined : yearAverage(thirty, fy);
  if (hud && fy !== undefined && fyRate !== undefined) {
    const { rows } = await db.query<{ median: string; n: string }>(
      'SELECT (percentile_cont(0.5) WITHIN GROUP (ORDER BY median))::text AS median, count(*)::text AS n FROM hud_median_family_income WHERE fiscal_year = $1',
      [fy],
    );
    const medianIncome = Number(rows[0]?.median ?? 0);
    const areas = Number(rows[0]?.n ?? 0);
    const incomeLabel = `the median of HUD's FY${fy} area median family incomes (${whole(areas)} counties and New England towns): ${usd(medianIncome)}`;
    const maxLoan = principalFor((medianIncome / 12) * FRONT_END_RATIO, fyRate);
    add('affordability', `max_loan_median_income_${fy}`, maxLoan, usd(maxLoan), `Largest 30-year loan whose principal and interest stay within 28% of ${incomeLabel}, at the ${fy} average PMMS rate (${percent(fyRate, 2)})`,
      `A family earning the typical area median income of ${usd(medianIncome)} could borrow about ${usd(maxLoan)} in ${fy} at ${percent(fyRate, 2)} with principal and interest at 28% of income (computed).`, fy, HUD_INCOME_LIMITS_URL, hud.asOf);
    const fyBaseline = baselines.get(fy);
    if (fyBaseline !== undefined) {
      const ratio = ((monthlyPayment(fyBaseline, fyRate) * 12) / medianIncome) * 100;
      add('affordability', `pi_to_income_baseline_${fy}`, ratio, percent(ratio), `Principal and interest on a ${fy} baseline-limit loan (${usd(fyBaseline)}) at the ${fy} average PMMS rate, as a share of ${incomeLabel}`,
        `A loan at the ${fy} baseline conforming limit would take ${percent(ratio)} of the typical area median family income in principal and interest at ${percent(fyRate, 2)} (computed).`, fy, HUD_INCOME_LIMITS_URL, hud.asOf);
    }
    const fyFha = fhaFloors.get(fy);
    if (fyFha !== undefined) {
      const payment = monthlyPayment(fyFha, fyRate);
      const { rows: over } = await db.query<{ share: string }>(
        'SELECT (avg(CASE WHEN $2::double precision > median * $3::double precision / 12 THEN 1.0 ELSE 0.0 END) * 100)::text AS share FROM hud_median_family_income WHERE fiscal_year = $1',
        [fy, payment, FRONT_END_RATIO],
      );
      const share = Number(over[0]?.share ?? 0);
      add('affordability', `areas_fha_floor_over_28pct_${fy}`, share, percent(share), `Share of HUD areas where principal and interest on a ${fy} FHA floor-limit loan (${usd(fyFha)}) at ${percent(fyRate, 2)} exceed 28% of the area median family income`,
        `In ${percent(share)} of ${whole(areas)} counties and New England towns, a ${usd(fyFha)} FHA loan's ${usd(payment)} monthly principal and interest would exceed 28% of the FY${fy} area median family income (computed).`, fy, HUD_INCOME_LIMITS_URL, hud.asOf);
    }
    add('affordability', `median_family_income_${fy}`, medianIncome, usd(medianIncome), `Median of HUD's FY${fy} area median family incomes across ${whole(areas)} counties and New England towns`,
      `The typical US county had an area median family income of ${usd(medianIncome)} in HUD's FY${fy} income limits (median across ${count(areas)} areas).`, fy, HUD_INCOME_LIMITS_URL, hud.asOf);
  }
  return stats;
}
