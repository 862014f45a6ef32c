// Reader-facing names of the statistics' categories (the API's ids are snake_case).
import type { Category } from '../../api/statistics/contract.ts';

export const STATISTIC_CATEGORY_LABELS: Record<Category, string> = {
  market_overview: 'Market overview',
  rates: 'Rates',
  loan_types: 'Loan types',
  down_payment: 'Down payments',
  borrower_profile: 'Borrowers',
  lenders: 'Lenders',
  affordability: 'Affordability',
};
