// The views of the market updates (see site/views/format.ts for why views exist): a page of the
// weekly updates, one week's update, and the words of a figure's change.
import type { PageDeps } from '../../api/publications/render-capture.ts';
import type { MarketUpdate } from '../../api/news/market-updates.ts';

export { signedChange } from '../../api/news/market-update-text.ts';
export type { MarketUpdate };

const PAGE_SIZE = 26;

/** A page of the updates, newest first (`?page=2`); no deps is 503, a page past the last 404. */
export async function newsIndexView(deps: PageDeps | undefined, url: URL) {
  const pageParam = Number(url.searchParams.get('page') ?? '1');
  const page = Number.isInteger(pageParam) && pageParam >= 1 && pageParam <= 1000 ? pageParam : 1;
  let updates: MarketUpdate[] = [];
  let total = 0;
  if (deps) {
    [updates, total] = await Promise.all([
      deps.services.news.list({ limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE }),
      deps.services.news.count(),
    ]);
  }
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const status = !deps ? 503 : page > pages ? 404 : 200;
  return { page, pages, updates, status };
}

/** One week's update (`/news/2026-10-08`); no deps is 503, an unknown week 404. */
export async function newsWeekView(deps: PageDeps | undefined, week: string) {
  const update = deps ? await deps.services.news.get(week) : null;
  return { update, status: update ? 200 : deps ? 404 : 503 };
}
