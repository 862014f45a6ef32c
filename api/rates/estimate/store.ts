// The state estimate's rows in the database: written whole by its sync, read whole by the rates
// service's in-memory snapshot (a few thousand rows at most).
import type { Queryable } from '../../platform/db/database.ts';
import type { LtvTier, ProductType } from '../contract.ts';
import type { EstimatePurpose, EstimateRow } from './method.ts';

export interface EstimateTable {
  hmdaYear: number;
  synthetic: boolean;
  rows: EstimateRow[];
}

const COLUMNS = 11;

/** Replaces every row with those of one computation. */
export async function replaceEstimates(tx: Queryable, { hmdaYear, synthetic, rows }: EstimateTable): Promise<number> {
  await tx.query('DELETE FROM rate_state_estimates');
  for (let start = 0; start < rows.length; start += 500) {
    const params: unknown[] = [];
    const tuples = rows.slice(start, start + 500).map((row, index) => {
      params.push(
        hmdaYear,
        row.state,
        row.productType,
        row.loanPurpose,
        row.ltvBand,
        row.sampleSize,
        row.medianSpread,
        row.nationalSampleSize,
        row.nationalMedianSpread,
        row.adjustment,
        synthetic,
      );
      return `(${Array.from({ length: COLUMNS }, (_, column) => `$${index * COLUMNS + column + 1}`).join(', ')})`;
    });
    await tx.query(
      `INSERT INTO rate_state_estimates (hmda_year, state, product_type, loan_purpose, ltv_band, sample_size, median_spread,
         national_sample_size, national_median, adjustment, synthetic) VALUES ${tuples.join(', ')}`,
      params,
    );
  }
  return rows.length;
}

interface Row {
  hmda_year: number;
  state: string;
  product_type: string;
  loan_purpose: string;
  ltv_band: number;
  sample_size: number;
  median_spread: number;
  national_sample_size: number;
  national_median: number;
  adjustment: number | null;
  synthetic: boolean;
}

/** Every row, as the service keeps them (and as a load is archived); undefined when none is held. */
export async function readEstimates(db: Queryable): Promise<EstimateTable | undefined> {
  const { rows } = await db.query<Row>(
    `SELECT hmda_year, state, product_type, loan_purpose, ltv_band, sample_size, median_spread::float8 AS median_spread,
       national_sample_size, national_median::float8 AS national_median, adjustment::float8 AS adjustment, synthetic
     FROM rate_state_estimates ORDER BY state, product_type, loan_purpose, ltv_band`,
  );
  const first = rows[0];
  if (!first) return undefined;
  const estimates = rows.map((row): EstimateRow => ({
    state: row.state,
    productType: row.product_type as ProductType,
    loanPurpose: row.loan_purpose as EstimatePurpose,
    ltvBand: Number(row.ltv_band) as LtvTier,
    sampleSize: Number(row.sample_size),
    medianSpread: Number(row.median_spread),
    nationalSampleSize: Number(row.national_sample_size),
    nationalMedianSpread: Number(row.national_median),
    adjustment: row.adjustment === null ? null : Number(row.adjustment),
  }));
  return { hmdaYear: Number(first.hmda_year), synthetic: Boolean(first.synthetic), rows: estimates };
}
