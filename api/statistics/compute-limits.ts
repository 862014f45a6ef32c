// Loan-limit statistics (FHFA conforming, HUD FHA) and the down payments they imply: the national
// baseline, ceiling and FHA floor of the latest year loaded, the counties above the baseline, the
// prices at which a loan with 20%, 10% or 5% down stops being conforming (at the baseline, and with
// 20% down at the high-cost ceiling), and FHA's minimum down payment at its floor and its ceiling.
// Each is a documented computation on one year's published limit, so it states that year.
import type { Queryable } from '../platform/db/database.ts';
import { SPECIAL_AREAS } from '../loan-limits/validate.ts';
import { datasetInfo, nationalLimits, type DatasetInfo } from './inputs.ts';
import { FHA_MIN_DOWN, usd, whole, type Category, type Statistic } from './types.ts';

/** Counties of one program and year: all of them, and those outside the statutory high-cost areas. */
async function countyCounts(db: Queryable, program: 'conforming' | 'fha', year: number): Promise<{ all: number; contiguous: number }> {
  const { rows } = await db.query<{ all: string; contiguous: string }>(
    `SELECT count(*)::text AS all, count(*) FILTER (WHERE NOT (state = ANY($3::text[])))::text AS contiguous
       FROM loan_limits WHERE program = $1 AND year = $2`,
    [program, year, [...SPECIAL_AREAS]],
  );
  return { all: Number(rows[0]?.all ?? 0), contiguous: Number(rows[0]?.contiguous ?? 0) };
}

/** The share of the price a loan covers with `downPercent` down, as the computation shows it: 20 → "0.8". */
const loanShare = (downPercent: number): string => String((100 - downPercent) / 100);

/** The home price above which a loan with `downPercent` down exceeds `limit`. */
const jumboThreshold = (limit: number, downPercent: number): number => limit / ((100 - downPercent) / 100);

export async function limitStatistics(db: Queryable): Promise<Statistic[]> {
  const stats: Statistic[] = [];
  const add = (
    info: DatasetInfo,
    year: number,
    category: Category,
    id: string,
    numeric: number,
    label: string,
    headline: string,
    population: string,
  ) =>
    stats.push({
      id,
      category,
      value: usd(numeric),
      label,
      headline,
      data_year: year,
      population,
      source_url: info.sourceUrl,
      numeric_value: numeric,
      as_of: info.asOf,
    });

  const conformingInfo = await datasetInfo(db, 'loan_limits_conforming');
  const baselines = await nationalLimits(db, 'conforming', 'floor');
  const ceilings = await nationalLimits(db, 'conforming', 'ceiling');
  const limitYear = Math.max(...baselines.keys());
  const baseline = baselines.get(limitYear);
  if (conformingInfo && baseline !== undefined) {
    const counties = await countyCounts(db, 'conforming', limitYear);
    const file = `FHFA's ${limitYear} county loan-limit file`;
    add(
      conformingInfo,
      limitYear,
      'loan_types',
      `conforming_baseline_limit_${limitYear}`,
      baseline,
      `Conforming loan limit for a one-unit home in most counties, ${limitYear}`,
      `The ${limitYear} baseline conforming loan limit for one-unit homes is ${usd(baseline)} (FHFA); larger loans are jumbo outside high-cost areas.`,
      `The one-unit limits of the ${whole(counties.all)} counties and county-equivalents in ${file}; the baseline is the lowest of them.`,
    );
    const ceiling = ceilings.get(limitYear);
    if (ceiling !== undefined) {
      add(
        conformingInfo,
        limitYear,
        'loan_types',
        `conforming_ceiling_limit_${limitYear}`,
        ceiling,
        `High-cost-area conforming loan ceiling, one unit, ${limitYear}`,
        `In the costliest areas of the contiguous US, the ${limitYear} conforming limit for one-unit homes rises to ${usd(ceiling)}.`,
        `The one-unit limits of the ${whole(counties.contiguous)} counties in ${file} outside Alaska, Hawaii, Guam and the US Virgin Islands ` +
          '(where the law sets higher limits); the ceiling is the highest of them.',
      );
    }
    const { rows } = await db.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM loan_limits WHERE program = 'conforming' AND year = $1 AND limit_1 > $2`,
      [limitYear, baseline],
    );
    const highCost = Number(rows[0]?.n ?? 0);
    stats.push({
      id: `high_cost_counties_${limitYear}`,
      category: 'loan_types',
      value: whole(highCost),
      label: `Counties with a conforming limit above the baseline, ${limitYear}`,
      headline: `${whole(highCost)} of ${whole(counties.all)} counties have a ${limitYear} conforming limit above the ${usd(baseline)} baseline.`,
      data_year: limitYear,
      population: `The ${whole(counties.all)} counties and county-equivalents in ${file}.`,
      source_url: conformingInfo.sourceUrl,
      numeric_value: highCost,
      as_of: conformingInfo.asOf,
    });
    for (const downPercent of [20, 10, 5]) {
      const threshold = jumboThreshold(baseline, downPercent);
      add(
        conformingInfo,
        limitYear,
        'down_payment',
        `jumbo_threshold_${downPercent}pct_down_${limitYear}`,
        threshold,
        `Home price above which a ${downPercent}%-down loan exceeds the ${limitYear} baseline conforming limit`,
        `With ${downPercent}% down, a home priced above ${usd(threshold)} needs a loan larger than the ${limitYear} baseline conforming limit of ${usd(baseline)} ` +
          `(computed: limit ÷ ${loanShare(downPercent)}).`,
        `A computation, not a count: one home bought with ${downPercent}% down and a loan at the ${limitYear} baseline conforming limit of ${usd(baseline)}.`,
      );
    }
    if (ceiling !== undefined) {
      const threshold = jumboThreshold(ceiling, 20);
      add(
        conformingInfo,
        limitYear,
        'down_payment',
        `jumbo_threshold_20pct_down_high_cost_${limitYear}`,
        threshold,
        `Home price above which a 20%-down loan exceeds the ${limitYear} high-cost conforming ceiling`,
        `In the costliest areas, a home priced above ${usd(threshold)} with 20% down needs a loan larger than the ${limitYear} conforming ceiling of ${usd(ceiling)} ` +
          `(computed: ceiling ÷ ${loanShare(20)}).`,
        `A computation, not a count: one home bought with 20% down and a loan at the ${limitYear} high-cost conforming ceiling of ${usd(ceiling)} ` +
          '(contiguous states; Alaska, Hawaii, Guam and the US Virgin Islands have higher limits).',
      );
    }
  }

  const fhaInfo = await datasetInfo(db, 'loan_limits_fha');
  const fhaFloors = await nationalLimits(db, 'fha', 'floor');
  const fhaYear = Math.max(...fhaFloors.keys());
  const fhaFloor = fhaFloors.get(fhaYear);
  if (fhaInfo && fhaFloor !== undefined) {
    const counties = await countyCounts(db, 'fha', fhaYear);
    add(
      fhaInfo,
      fhaYear,
      'loan_types',
      `fha_floor_limit_${fhaYear}`,
      fhaFloor,
      `FHA loan limit floor for a one-unit home, ${fhaYear}`,
      `FHA-insured loans for one-unit homes can reach at least ${usd(fhaFloor)} in every county in ${fhaYear} (HUD's national floor).`,
      `The one-unit FHA forward-mortgage limits of the ${whole(counties.all)} counties in HUD's ${fhaYear} limit file; the floor is the lowest of them.`,
    );
    /** The minimum FHA down payment on one home financed at a national limit: computed, not counted. */
    const addMinimumDown = (level: 'floor' | 'ceiling', limit: number) => {
      const price = limit / (1 - FHA_MIN_DOWN);
      const down = price * FHA_MIN_DOWN;
      const at = level === 'floor' ? `the ${fhaYear} FHA floor limit` : `the ${fhaYear} FHA high-cost ceiling`;
      const buying =
        level === 'floor'
          ? `Buying a ${usd(price)} home with the largest FHA loan allowed everywhere in ${fhaYear}`
          : `In the costliest areas, buying a ${usd(price)} home with the largest FHA loan allowed in ${fhaYear}`;
      add(
        fhaInfo,
        fhaYear,
        'down_payment',
        `fha_min_down_payment_at_${level}_${fhaYear}`,
        down,
        `Minimum FHA down payment (3.5%) on a home financed at ${at}`,
        `${buying} (${usd(limit)}) takes a 3.5% minimum down payment of ${usd(down)} (computed).`,
        `A computation, not a count: one home financed at ${at} of ${usd(limit)} with FHA's 3.5% minimum down payment (price = limit ÷ 0.965).`,
      );
    };
    addMinimumDown('floor', fhaFloor);
    const fhaCeiling = (await nationalLimits(db, 'fha', 'ceiling')).get(fhaYear);
    if (fhaCeiling !== undefined) addMinimumDown('ceiling', fhaCeiling);
  }
  return stats;
}
