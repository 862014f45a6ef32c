// The state estimate's computation over the HMDA warehouse (DuckDB over the `lar` Parquet files):
// per state, product, purpose and LTV band, the median rate spread and the count of loans, beside the
// national median of the same cell. Read-only; runs in a sync, never on a request.
import type { DuckDBConnection } from '@duckdb/node-api';
import { STATE_CODES } from '../../geo/states.ts';
import { estimateKey, MINIMUM_SAMPLE, type EstimatePurpose, type EstimateRow } from './method.ts';
import type { LtvTier, ProductType } from '../contract.ts';

const round3 = (value: number) => Math.round(value * 1000) / 1000;

/** The loans the method reads, with the cell each falls in (method.ts lists the same filters in words). */
export const ESTIMATE_LOANS_SQL = `
  SELECT state,
    CASE loan_type WHEN 1 THEN CASE conforming_loan_limit WHEN 'C' THEN 'conventional' WHEN 'NC' THEN 'jumbo' END
      WHEN 2 THEN 'fha' WHEN 3 THEN 'va' WHEN 4 THEN 'usda' END AS product_type,
    CASE loan_purpose WHEN 1 THEN 'purchase' WHEN 31 THEN 'refinance' END AS loan_purpose,
    CASE WHEN combined_loan_to_value_ratio <= 80 THEN 1 ELSE 2 END AS ltv_band,
    rate_spread
  FROM lar
  WHERE year = $year AND action_taken = 1 AND lien_status = 1 AND occupancy_type = 1 AND construction_method = 1
    AND total_units IN ('1', '2', '3', '4') AND loan_term = 360 AND intro_rate_period IS NULL
    AND balloon_payment = 2 AND interest_only_payment = 2 AND negative_amortization = 2 AND other_nonamortizing_features = 2
    AND reverse_mortgage = 2 AND open_end_line_of_credit = 2 AND business_or_commercial_purpose = 2
    AND loan_purpose IN (1, 31) AND loan_type IN (1, 2, 3, 4)
    AND rate_spread IS NOT NULL AND combined_loan_to_value_ratio IS NOT NULL
    AND state IN (${STATE_CODES.map((code) => `'${code}'`).join(', ')})`;

const CELLS_SQL = `
  WITH loans AS (${ESTIMATE_LOANS_SQL})
  SELECT state, product_type, loan_purpose, ltv_band, count(*) AS n, median(rate_spread) AS median_spread
  FROM loans WHERE product_type IS NOT NULL
  GROUP BY GROUPING SETS ((state, product_type, loan_purpose, ltv_band), (product_type, loan_purpose, ltv_band))`;

/** Every cell of `year`: one row per state with loans in it, each beside the national median of its cell. */
export async function computeStateSpreads(connection: DuckDBConnection, year: number): Promise<EstimateRow[]> {
  const reader = await connection.runAndReadAll(CELLS_SQL, { year });
  const national = new Map<string, { n: number; median: number }>();
  const states: { state: string; product: string; purpose: string; band: number; n: number; median: number }[] = [];
  for (const [state, product, purpose, band, n, median] of reader.getRowsJS()) {
    const row = { product: String(product), purpose: String(purpose), band: Number(band), n: Number(n), median: Number(median) };
    if (state === null) national.set(estimateKey('US', row.product, row.purpose, row.band), row);
    else states.push({ ...row, state: String(state) });
  }
  return states
    .map((row): EstimateRow => {
      const whole = national.get(estimateKey('US', row.product, row.purpose, row.band));
      const nationalMedian = whole?.median ?? row.median;
      return {
        state: row.state,
        productType: row.product as ProductType,
        loanPurpose: row.purpose as EstimatePurpose,
        ltvBand: row.band as LtvTier,
        sampleSize: row.n,
        medianSpread: round3(row.median),
        nationalSampleSize: whole?.n ?? row.n,
        nationalMedianSpread: round3(nationalMedian),
        adjustment: row.n >= MINIMUM_SAMPLE ? round3(row.median - nationalMedian) : null,
      };
    })
    .sort((a, b) =>
      estimateKey(a.state, a.productType, a.loanPurpose, a.ltvBand).localeCompare(
        estimateKey(b.state, b.productType, b.loanPurpose, b.ltvBand),
      ),
    );
}
