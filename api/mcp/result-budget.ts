// What a tool result may weigh. Two limits:
//
// - The hard one, TOOL_RESULT_BUDGET_BYTES: common MCP clients refuse (or cut) a result above about
//   25,000 tokens; JSON of figures runs about 3.2 bytes per token, so 80,000 bytes of text plus
//   structured content is that limit. The test client fails any test that gets a larger result.
// - The one a model can afford, TOOL_TEXT_BUDGET_BYTES: the text content (what most clients show the
//   model) starts with a summary and stays under 8 KB, whatever was asked; a longer list comes a page
//   at a time with the way to the next page (an `offset`, a narrower filter or a link to every row).
//   A page's structured content stays under PAGE_STRUCTURED_BUDGET_BYTES too, for the clients that
//   hand the model structuredContent instead of the text.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

export const TOOL_RESULT_BUDGET_BYTES = 80_000;
export const TOOL_TEXT_BUDGET_BYTES = 8_000;
export const PAGE_STRUCTURED_BUDGET_BYTES = 16_000;

/** Bytes of a result as a client's model would read it: every text block plus the structured content as JSON. */
export function toolResultBytes(result: Pick<CallToolResult, 'content' | 'structuredContent'>): number {
  let bytes = result.structuredContent === undefined ? 0 : Buffer.byteLength(JSON.stringify(result.structuredContent));
  for (const block of result.content ?? []) {
    bytes += block.type === 'text' ? Buffer.byteLength(block.text) : Buffer.byteLength(JSON.stringify(block));
  }
  return bytes;
}

/** Bytes of the text content of a result. */
export function toolTextBytes(result: Pick<CallToolResult, 'content'>): number {
  return (result.content ?? []).reduce((sum, block) => sum + (block.type === 'text' ? Buffer.byteLength(block.text) : 0), 0);
}

/**
 * The last guard of the text budget: text over it is cut after its last whole line that fits, saying
 * so. Tools page their lists so this never has to act; it keeps a surprise (a very long bill summary)
 * from costing a model its context.
 */
export function withinTextBudget(text: string, budget = TOOL_TEXT_BUDGET_BYTES): string {
  if (Buffer.byteLength(text) <= budget) return text;
  const note =
    '\n… (the rest of this answer is cut to keep it short: ask for less, e.g. one item or a narrower filter; structured content has the whole answer.)';
  const room = budget - Buffer.byteLength(note);
  let cut = Buffer.from(text)
    .subarray(0, room)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
  const lastLine = cut.lastIndexOf('\n');
  if (lastLine > room / 2) cut = cut.slice(0, lastLine);
  return `${cut}${note}`;
}

/** Whether a rendered answer fits one page: its text and its structured content each within their budget. */
export function fitsPage(rendered: { structured: object; text: string }): boolean {
  return (
    Buffer.byteLength(rendered.text) <= TOOL_TEXT_BUDGET_BYTES &&
    Buffer.byteLength(JSON.stringify(rendered.structured)) <= PAGE_STRUCTURED_BUDGET_BYTES
  );
}

/** Where a page of a list stands in the whole list, for a tool's structured content. */
export const PageSchema = z
  .object({
    offset: z.int().describe('Index (0-based) of the first item of this page.'),
    count: z.int().describe('Items on this page.'),
    total: z.int().describe('Items in the whole list.'),
    next_offset: z.int().nullable().describe('`offset` of the next page; null on the last page.'),
  })
  .describe('Present when the list is longer than one answer carries: which part of it this is.');
export type Page = z.infer<typeof PageSchema>;

/** The `count` items from `start`, rendered, with where they stand in the list. */
function pageOf<Item, Rendered>(
  items: readonly Item[],
  start: number,
  count: number,
  render: (page: Item[], position: Page) => Rendered,
): { rendered: Rendered; page: Page } {
  const end = Math.min(items.length, start + count);
  const position: Page = { offset: start, count: end - start, total: items.length, next_offset: end < items.length ? end : null };
  return { rendered: render(items.slice(start, end), position), page: position };
}

/**
 * A page of `items` from `offset` whose rendering `fits`. Pages have one size for the whole list
 * (the largest with which every page from 0 fits), so offsets are predictable: pages start at 0,
 * size, 2 × size…, and an offset guessed from the first page's count never overlaps the next page.
 * An offset off that grid whose page would not fit gets the largest page that does.
 */
export function fitPage<Item, Rendered>(
  items: readonly Item[],
  offset: number,
  render: (page: Item[], position: Page) => Rendered,
  fits: (rendered: Rendered) => boolean,
): { rendered: Rendered; page: Page } {
  const everyPageFits = (size: number) => {
    for (let start = 0; start < items.length; start += size) if (!fits(pageOf(items, start, size, render).rendered)) return false;
    return true;
  };
  let low = 1;
  let high = Math.max(1, items.length);
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (everyPageFits(middle)) low = middle;
    else high = middle - 1;
  }
  const page = pageOf(items, offset, low, render);
  return fits(page.rendered) ? page : largestFittingPage(items, offset, render, fits);
}

/** The largest page from `offset` (at least one item) whose rendering `fits`: for a list cut once, not paged (the calendar). */
export function largestFittingPage<Item, Rendered>(
  items: readonly Item[],
  offset: number,
  render: (page: Item[], position: Page) => Rendered,
  fits: (rendered: Rendered) => boolean,
): { rendered: Rendered; page: Page } {
  let best = pageOf(items, offset, 1, render);
  let low = 1;
  let high = items.length - offset;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    const candidate = pageOf(items, offset, middle, render);
    if (fits(candidate.rendered)) {
      best = candidate;
      low = middle;
    } else high = middle - 1;
  }
  return best;
}
