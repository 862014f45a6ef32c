// Pages of a long tool answer (api/mcp/result-budget.ts): one size for the whole list, so the
// offsets a reader guesses from the first page (0, n, 2n…) are the pages the answers name, never
// overlapping; every page fits; an offset off the grid still gets a page that fits.
import { describe, expect, it } from 'vitest';
import { fitPage, largestFittingPage } from '../../api/mcp/result-budget.ts';

/** Items of uneven length; a page fits when its items' lengths add up to at most 100. */
const items = Array.from({ length: 60 }, (_, index) => 'x'.repeat(3 + ((index * 7) % 11)));
const render = (page: string[]) => page.join('');
const fits = (text: string) => text.length <= 100;

describe('tool answer pages', () => {
  it('have one size, so pages start at 0, n, 2n and each names the next', () => {
    const first = fitPage(items, 0, render, fits).page;
    let offset: number | null = 0;
    const starts: number[] = [];
    while (offset !== null) {
      const { rendered, page }: ReturnType<typeof fitPage<string, string>> = fitPage(items, offset, render, fits);
      expect(fits(rendered)).toBe(true);
      if (page.next_offset !== null) expect(page.count).toBe(first.count);
      starts.push(page.offset);
      offset = page.next_offset;
    }
    expect(starts).toEqual(starts.map((_, index) => index * first.count));
  });

  it('answers an offset off the grid with a page that fits', () => {
    for (let offset = 0; offset < items.length; offset += 1) expect(fits(fitPage(items, offset, render, fits).rendered)).toBe(true);
  });

  it('cuts a list once at the largest page that fits, for the calendar', () => {
    const { page } = largestFittingPage(items, 0, render, fits);
    expect(fits(render(items.slice(0, page.count)))).toBe(true);
    expect(fits(render(items.slice(0, page.count + 1)))).toBe(false);
  });
});
