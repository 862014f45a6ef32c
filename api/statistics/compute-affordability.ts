// Affordability computations: monthly principal and interest at the latest PMMS 30-year rate on
// $100,000 and on a baseline-limit loan, and, for HUD's latest fiscal year, how the area median
// family incomes compare with payments at that year's average rate. Every rate a label shows is the
// exact rate the figure was computed with.
import type { Queryable } from '../platform/db/database.ts';
import { HUD_INCOME_LIMITS_URL } from '../hmda-aggregates/reads.ts';
import { PMMS_DATASET } from '../rates/sync/national.ts';
import { HUD_INCOME_DATASET, latestIncomeYear, medianAreaIncome, shareOfAreasOver } from './income.ts';
import { datasetInfo, forYear, nationalLimits, onOrBefore, series, yearAverage } from './inputs.ts';
import { FRONT_END_RATIO, asShown, count, monthlyPayment, percent, principalFor, usd, whole, type Statistic } from './types.ts';
import { addDays } from '../platform/dates.ts';

const PMMS_URL = 'https://fred.stlouisfed.org/series/MORTGAGE30US';
const computation = (what: string) => `A computation, not a count: ${what}.`;

export async function affordabilityStatistics(db: Queryable): Promise<Statistic[]> {
  const stats: Statistic[] = [];
  const add = (
    id: string,
    numeric: number,
    value: string,
    label: string,
    headline: string,
    population: string,
    dataYear: number,
    sourceUrl: string,
    asOf: string,
  ) =>
    stats.push({
      id,
      category: 'affordability',
      value,
      label,
      headline,
      data_year: dataYear,
      population,
      source_url: sourceUrl,
      numeric_value: numeric,
      as_of: asOf,
    });
  const baselines = await nationalLimits(db, 'conforming', 'floor');
  const fhaFloors = await nationalLimits(db, 'fha', 'floor');

  // Payments at the latest PMMS rate (published with two decimals, so shown exactly).
  const pmms = await datasetInfo(db, PMMS_DATASET);
  const thirty = await series(db, 'MORTGAGE30US');
  const latest = thirty.at(-1);
  if (pmms && latest) {
    const year = Number(latest.date.slice(0, 4));
    const rate = percent(latest.value, 2);
    const limit = forYear(baselines, year);
    const perHundred = monthlyPayment(100_000, latest.value);
    add(
      'pi_per_100k_latest',
      perHundred,
      usd(perHundred),
      `Monthly principal and interest per $100,000 borrowed at the latest PMMS 30-year rate (${rate}, ${latest.date})`,
      `Each $100,000 of a 30-year fixed loan costs ${usd(perHundred)} a month in principal and interest at ${rate} (computed).`,
      computation(`one 30-year fixed loan of $100,000 at the PMMS 30-year rate of ${latest.date} (${rate})`),
      year,
      PMMS_URL,
      latest.date,
    );
    if (limit) {
      const loan = `a ${usd(limit.value)} loan (${limit.year} baseline conforming limit)`;
      const payment = monthlyPayment(limit.value, latest.value);
      add(
        'pi_payment_baseline_latest',
        payment,
        usd(payment),
        `Monthly principal and interest on ${loan} at ${rate} (PMMS, ${latest.date})`,
        `A 30-year fixed loan at the ${limit.year} baseline conforming limit of ${usd(limit.value)} costs ${usd(payment)} a month in principal and interest at the latest PMMS rate of ${rate} (computed).`,
        computation(
          `one 30-year fixed loan of ${usd(limit.value)}, the ${limit.year} baseline conforming limit, at the PMMS 30-year rate of ${latest.date} (${rate})`,
        ),
        year,
        PMMS_URL,
        latest.date,
      );
      const income = (payment * 12) / FRONT_END_RATIO;
      add(
        'income_needed_baseline_latest',
        income,
        usd(income),
        `Gross annual income at which principal and interest on ${loan} at ${rate} (PMMS, ${latest.date}) are 28% of income (computed)`,
        `Keeping principal and interest on a ${usd(limit.value)} loan at ${rate} within 28% of gross income takes ${usd(income)} a year (computed; taxes and insurance excluded).`,
        computation(
          `the payment on one 30-year fixed loan of ${usd(limit.value)} at ${rate}, times 12, divided by the 28% front-end ratio`,
        ),
        year,
        PMMS_URL,
        latest.date,
      );
      const yearAgo = onOrBefore(thirty, addDays(latest.date, -364));
      if (yearAgo) {
        const before = percent(yearAgo.value, 2);
        const change = payment - monthlyPayment(limit.value, yearAgo.value);
        add(
          'pi_payment_baseline_change_52wk',
          change,
          `${change >= 0 ? '+' : '−'}${usd(Math.abs(change))}`,
          `Change over 52 weeks in monthly principal and interest on ${loan}, from rates alone (${before} on ${yearAgo.date} to ${rate} on ${latest.date})`,
          `At ${rate} instead of ${before} a year earlier, a ${usd(limit.value)} 30-year loan costs ${usd(Math.abs(change))} a month ${change >= 0 ? 'more' : 'less'} (computed).`,
          computation(
            `one 30-year fixed loan of ${usd(limit.value)} at the PMMS 30-year rates of ${yearAgo.date} (${before}) and ${latest.date} (${rate})`,
          ),
          year,
          PMMS_URL,
          latest.date,
        );
      }
    }
  }

  // HUD's latest fiscal year against that year's average rate, rounded to the two decimals shown.
  const hud = await datasetInfo(db, HUD_INCOME_DATASET);
  const fy = await latestIncomeYear(db);
  const average = fy === undefined ? undefined : yearAverage(thirty, fy);
  if (!hud || fy === undefined || average === undefined) return stats;
  const fyRate = asShown(average, 2);
  const rate = percent(fyRate, 2);
  const weeks = thirty.filter((observation) => observation.date.startsWith(`${fy}-`)).length;
  const rateNote = `the ${fy} average of the ${weeks} weekly PMMS 30-year rates, rounded to two decimals as shown (${rate})`;
  const { median: medianIncome, areas } = await medianAreaIncome(db, fy);
  const hudAreas = `the ${whole(areas)} counties and New England towns of HUD's FY${fy} income limits`;
  const incomeLabel = `the median of HUD's FY${fy} area median family incomes (${whole(areas)} counties and New England towns): ${usd(medianIncome)}`;
  const maxLoan = principalFor((medianIncome / 12) * FRONT_END_RATIO, fyRate);
  add(
    `max_loan_median_income_${fy}`,
    maxLoan,
    usd(maxLoan),
    `Largest 30-year loan whose principal and interest stay within 28% of ${incomeLabel}, at the ${fy} average PMMS rate (${rate})`,
    `A family earning the typical area median income of ${usd(medianIncome)} could borrow about ${usd(maxLoan)} in ${fy} at ${rate} with principal and interest at 28% of income (computed).`,
    computation(`one family with the median of the area median family incomes of ${hudAreas} (${usd(medianIncome)}), at ${rateNote}`),
    fy,
    HUD_INCOME_LIMITS_URL,
    hud.asOf,
  );
  const fyBaseline = baselines.get(fy);
  if (fyBaseline !== undefined) {
    const ratio = ((monthlyPayment(fyBaseline, fyRate) * 12) / medianIncome) * 100;
    add(
      `pi_to_income_baseline_${fy}`,
      ratio,
      percent(ratio),
      `Principal and interest on a ${fy} baseline-limit loan (${usd(fyBaseline)}) at the ${fy} average PMMS rate (${rate}), as a share of ${incomeLabel}`,
      `A loan at the ${fy} baseline conforming limit would take ${percent(ratio)} of the typical area median family income in principal and interest at ${rate} (computed).`,
      computation(
        `one 30-year fixed loan of ${usd(fyBaseline)} at ${rateNote}, against the median of the area median family incomes of ${hudAreas} (${usd(medianIncome)})`,
      ),
      fy,
      HUD_INCOME_LIMITS_URL,
      hud.asOf,
    );
  }
  const fyFha = fhaFloors.get(fy);
  if (fyFha !== undefined) {
    const payment = monthlyPayment(fyFha, fyRate);
    const share = await shareOfAreasOver(db, fy, payment, FRONT_END_RATIO);
    add(
      `areas_fha_floor_over_28pct_${fy}`,
      share,
      percent(share),
      `Share of HUD areas where principal and interest on a ${fy} FHA floor-limit loan (${usd(fyFha)}) at ${rate} exceed 28% of the area median family income`,
      `In ${percent(share)} of ${whole(areas)} counties and New England towns, a ${usd(fyFha)} FHA loan's ${usd(payment)} monthly principal and interest would exceed 28% of the FY${fy} area median family income (computed).`,
      `${hudAreas.replace(/^the/, 'The')}, each area's median family income against the payment on one ${usd(fyFha)} 30-year loan at ${rateNote}.`,
      fy,
      HUD_INCOME_LIMITS_URL,
      hud.asOf,
    );
  }
  add(
    `median_family_income_${fy}`,
    medianIncome,
    usd(medianIncome),
    `Median of HUD's FY${fy} area median family incomes across ${whole(areas)} counties and New England towns`,
    `The typical US county had an area median family income of ${usd(medianIncome)} in HUD's FY${fy} income limits (median across ${count(areas)} areas).`,
    `${hudAreas.replace(/^the/, 'The')}, one area median family income each.`,
    fy,
    HUD_INCOME_LIMITS_URL,
    hud.asOf,
  );
  return stats;
}
