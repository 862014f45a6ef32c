// Writes lender rate observations (rate-sheet rows), upserted on
// (source, cell, day) so re-importing the same data changes nothing.
import type { Queryable } from '../../platform/db/database.ts';
import type { FicoTier, LoanTerm, LtvTier, ProductType, StateCode } from '../contract.ts';

export interface LenderRow {
  source: string;
  sourceKind: 'rate_sheet';
  sourceUrl: string;
  state: StateCode;
  fico: FicoTier;
  ltv: LtvTier;
  productType: ProductType;
  loanTerm: LoanTerm;
  date: string;
  rate: number;
  distributionSize: number | null;
}

const BATCH = 500;
const COLUMNS = 11;

/** Inserts new and changed observations; returns how many rows were written. */
export async function upsertLenderRows(tx: Queryable, rows: readonly LenderRow[]): Promise<number> {
  let changed = 0;
  for (let start = 0; start < rows.length; start += BATCH) {
    const params: unknown[] = [];
    const tuples = rows.slice(start, start + BATCH).map((row, index) => {
      params.push(
        row.source,
        row.state,
        row.fico,
        row.ltv,
        row.productType,
        row.loanTerm,
        row.date,
        row.rate.toFixed(3),
        row.distributionSize,
        row.sourceKind,
        row.sourceUrl,
      );
      const at = (column: number) => `$${index * COLUMNS + column}`;
      return (
        `(${at(1)}, ${at(2)}, ${at(3)}::smallint, ${at(4)}::smallint, ${at(5)}, ${at(6)}::smallint, ${at(7)}::date, ` +
        `${at(8)}::numeric, ${at(9)}::integer, ${at(10)}, ${at(11)})`
      );
    });
    const { rows: written } = await tx.query(
      `INSERT INTO lender_rate_observations (source, state, fico_tier, ltv_tier, product_type, loan_term, observed_on, rate,
         distribution_size, source_kind, source_url)
       VALUES ${tuples.join(', ')}
       ON CONFLICT (source, state, fico_tier, ltv_tier, product_type, loan_term, observed_on) DO UPDATE SET
         rate = EXCLUDED.rate, distribution_size = EXCLUDED.distribution_size, source_kind = EXCLUDED.source_kind,
         source_url = EXCLUDED.source_url
       WHERE (lender_rate_observations.rate, lender_rate_observations.distribution_size, lender_rate_observations.source_kind,
              lender_rate_observations.source_url)
         IS DISTINCT FROM (EXCLUDED.rate, EXCLUDED.distribution_size, EXCLUDED.source_kind, EXCLUDED.source_url)
       RETURNING 1 AS written`,
      params,
    );
    changed += written.length;
  }
  return changed;
}

export async function countLenderRows(tx: Queryable, sourceKind: LenderRow['sourceKind']): Promise<number> {
  const { rows } = await tx.query<{ count: string | number }>(
    'SELECT count(*) AS count FROM lender_rate_observations WHERE source_kind = $1',
    [sourceKind],
  );
  return Number(rows[0]?.count ?? 0);
}
