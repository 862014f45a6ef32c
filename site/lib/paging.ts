// Which slice of a list a `?page=` asks for: page 1 when absent, and whether that page exists (a
// page past the last, or not a whole number, answers 404 naming the last page).

/** Articles per page of /articles. */
export const ARTICLES_PAGE_SIZE = 20;

export interface Paging {
  /** The page shown (1 when the asked one does not exist). */
  page: number;
  /** The page asked for, as given. */
  asked: string;
  pages: number;
  /** Index of the page's first item. */
  first: number;
  exists: boolean;
}

export function pageOf(param: string | null, total: number, size: number): Paging {
  const pages = Math.max(1, Math.ceil(total / size));
  const asked = param ?? '1';
  const number = /^\d{1,6}$/.test(asked) ? Number(asked) : Number.NaN;
  const exists = Number.isInteger(number) && number >= 1 && number <= pages;
  const page = exists ? number : 1;
  return { page, asked, pages, first: (page - 1) * size, exists };
}
