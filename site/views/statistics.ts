// The view of /statistics (see site/views/format.ts for why views exist): the statistics service's
// records (what GET /api/v1/statistics answers from) grouped by the catalogue's categories.
import { live } from './live.ts';
import type { PageDeps } from '../../api/publications/render-capture.ts';
import { CATEGORIES, type Category, type StatRecord } from '../../api/statistics/contract.ts';

/** Reader-facing names of the statistics' categories (the API's ids are snake_case). */
const STATISTIC_CATEGORY_LABELS: Record<Category, string> = {
  market_overview: 'Market overview',
  rates: 'Rates',
  loan_types: 'Loan types',
  down_payment: 'Down payments',
  borrower_profile: 'Borrowers',
  lenders: 'Lenders',
  affordability: 'Affordability',
};

/** "Oct 8, 2026". */
export const shortDate = (iso: string): string =>
  new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });

/** "fhfa.gov" for a source's address. */
export const host = (url: string): string => new URL(url).hostname.replace(/^www\./, '');

export async function statisticsView(deps: PageDeps | undefined) {
  const stats = await live(deps, (d) => d.services.statistics.list());
  const byCategory = stats.ok
    ? CATEGORIES.map((category) => ({
        category,
        label: STATISTIC_CATEGORY_LABELS[category],
        stats: stats.value.filter((stat: StatRecord) => stat.category === category),
      })).filter((group) => group.stats.length > 0)
    : [];
  return { stats, byCategory };
}
