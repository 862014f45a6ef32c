// The preset queries over the `lar` view: each builds fixed SQL text from the preset and the
// validated filters, with every filter value as a bound parameter. Definitions of rates follow the
// FFIEC codes: applications = action taken 1–5, decided = 1–3, approved = 1–2, denied = 3.
import { DENIAL_REASON, LOAN_TYPE, labelCase } from './codes.ts';
import { whereClause, type PresetFilters } from './filters.ts';

export const PRESET_NAMES = ['rates', 'approvals', 'denials', 'demographics', 'lender_rankings'] as const;
export type PresetName = (typeof PRESET_NAMES)[number];

export interface BuiltQuery {
  sql: string;
  params: (string | number)[];
}

const and = (fixed: string, filters: string) => (filters === '' ? fixed : `${fixed} AND ${filters}`);
const loanTypeLabel = `CASE WHEN grouping(loan_type) = 1 THEN 'All loan types' ELSE ${labelCase('loan_type', LOAN_TYPE)} END`;
const ratio = (numerator: string, denominator: string) => `round(${numerator} / nullif(${denominator}, 0), 4)`;

function rates(filters: PresetFilters): BuiltQuery {
  const where = whereClause(filters);
  return {
    sql: `SELECT loan_type, ${loanTypeLabel} AS loan_type_label, count(*) AS originations,
  count(interest_rate) AS with_interest_rate,
  round(median(interest_rate), 3) AS median_interest_rate, round(avg(interest_rate), 3) AS mean_interest_rate,
  round(median(rate_spread), 3) AS median_rate_spread, round(avg(rate_spread), 3) AS mean_rate_spread
FROM lar
WHERE ${and('action_taken = 1', where.sql)}
GROUP BY GROUPING SETS ((loan_type), ())
ORDER BY grouping(loan_type), loan_type`,
    params: where.params,
  };
}

// Counted per (loan type, action taken) cell first, then summed: one small hash table over the scan
// instead of seven filtered counts in two grouping sets (about 3x faster nationally, same numbers).
function approvals(filters: PresetFilters): BuiltQuery {
  const where = whereClause(filters);
  const cells = (actions: string) => `coalesce(sum(records) FILTER (WHERE action_taken IN (${actions})), 0)`;
  const count = (actions: string) => `CAST(${cells(actions)} AS BIGINT)`;
  return {
    sql: `WITH cells AS (
  SELECT loan_type, action_taken, count(*) AS records
  FROM lar
  WHERE ${and('action_taken IN (1, 2, 3, 4, 5)', where.sql)}
  GROUP BY loan_type, action_taken
)
SELECT loan_type, ${loanTypeLabel} AS loan_type_label,
  ${count('1, 2, 3, 4, 5')} AS applications,
  ${count('1')} AS originated,
  ${count('2')} AS approved_not_accepted,
  ${count('3')} AS denied,
  ${count('4')} AS withdrawn,
  ${count('5')} AS incomplete,
  ${ratio(cells('1, 2'), cells('1, 2, 3'))} AS approval_rate,
  ${ratio(cells('1'), cells('1, 2, 3, 4, 5'))} AS origination_rate
FROM cells
GROUP BY GROUPING SETS ((loan_type), ())
ORDER BY grouping(loan_type), loan_type`,
    params: where.params,
  };
}

function denials(filters: PresetFilters): BuiltQuery {
  const where = whereClause(filters);
  const limit = where.params.length + 1;
  return {
    sql: `WITH decided AS (
  SELECT action_taken, denial_reason_1, denial_reason_2, denial_reason_3, denial_reason_4
  FROM lar WHERE ${and('action_taken IN (1, 2, 3)', where.sql)}
), totals AS (
  SELECT count(*) AS decided_applications, count(*) FILTER (WHERE action_taken = 3) AS denials FROM decided
), reasons AS (
  SELECT reason, count(*) AS denials_citing
  FROM (SELECT unnest([denial_reason_1, denial_reason_2, denial_reason_3, denial_reason_4]) AS reason FROM decided WHERE action_taken = 3)
  WHERE reason BETWEEN 1 AND 9
  GROUP BY reason
)
SELECT reason AS reason_code, ${labelCase('reason', DENIAL_REASON)} AS reason_label, denials_citing,
  ${ratio('denials_citing', 'denials')} AS share_of_denials,
  denials, decided_applications, ${ratio('denials', 'decided_applications')} AS denial_rate
FROM totals LEFT JOIN reasons ON true
ORDER BY denials_citing DESC NULLS LAST, reason
LIMIT $${limit}`,
    params: [...where.params, filters.limit],
  };
}

const INCOME_BAND = `CASE WHEN income IS NULL THEN 'Not available'
    WHEN income < 50 THEN 'Under $50k' WHEN income < 100 THEN '$50k–$100k' WHEN income < 150 THEN '$100k–$150k'
    WHEN income < 250 THEN '$150k–$250k' ELSE '$250k and over' END`;

const DIMENSION_SQL: Record<PresetFilters['by'], string> = {
  race: 'derived_race',
  ethnicity: 'derived_ethnicity',
  sex: 'derived_sex',
  age: "coalesce(applicant_age, 'NA')",
  income: INCOME_BAND,
};

function demographics(filters: PresetFilters): BuiltQuery {
  const where = whereClause(filters);
  return {
    sql: `SELECT ${DIMENSION_SQL[filters.by]} AS "group",
  count(*) AS records,
  count(*) FILTER (WHERE action_taken IN (1, 2, 3, 4, 5)) AS applications,
  count(*) FILTER (WHERE action_taken = 1) AS originations,
  ${ratio('count(*) FILTER (WHERE action_taken IN (1, 2))', 'count(*) FILTER (WHERE action_taken IN (1, 2, 3))')} AS approval_rate,
  ${ratio('count(*) FILTER (WHERE action_taken = 3)', 'count(*) FILTER (WHERE action_taken IN (1, 2, 3))')} AS denial_rate,
  median(loan_amount) FILTER (WHERE action_taken = 1) AS median_loan_amount,
  median(income) FILTER (WHERE action_taken = 1) AS median_income_thousands
FROM lar
${where.sql === '' ? '' : `WHERE ${where.sql}\n`}GROUP BY 1
ORDER BY records DESC, 1`,
    params: where.params,
  };
}

function lenderRankings(filters: PresetFilters): BuiltQuery {
  const where = whereClause(filters);
  const limit = where.params.length + 1;
  const order = filters.sort === 'volume' ? 'volume' : 'originations';
  return {
    sql: `WITH names AS (
  SELECT lei, arg_max(respondent_name, activity_year) AS respondent_name FROM lenders GROUP BY lei
), totals AS (
  SELECT lei, count(*) AS originations, sum(loan_amount) AS volume
  FROM lar WHERE ${and('action_taken = 1', where.sql)}
  GROUP BY lei
)
SELECT rank() OVER (ORDER BY ${order} DESC) AS rank, totals.lei,
  coalesce(names.respondent_name, 'Name not in the loaded transmittal sheets') AS lender,
  originations, volume, round(volume / originations) AS average_loan_amount,
  round(100.0 * originations / sum(originations) OVER (), 3) AS share_of_originations_pct,
  round(100.0 * volume / sum(volume) OVER (), 3) AS share_of_volume_pct
FROM totals LEFT JOIN names ON names.lei = totals.lei
ORDER BY ${order} DESC, totals.lei
LIMIT $${limit}`,
    params: [...where.params, filters.limit],
  };
}

export const PRESETS: Record<PresetName, (filters: PresetFilters) => BuiltQuery> = {
  rates,
  approvals,
  denials,
  demographics,
  lender_rankings: lenderRankings,
};
