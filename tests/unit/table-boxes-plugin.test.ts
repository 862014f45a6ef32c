// The Markdown pipeline's table plugin, run by Sätteri over Markdown as our content writes it: every
// table in a focusable region named by its caption or the heading above it, body cells labelled by
// their column, tables of three or more columns marked as cards.
import { describe, expect, it } from 'vitest';
import { markdownToHtml } from 'satteri';
import { boxTable, tableBoxes } from '../../site/lib/table-boxes-plugin.ts';

const render = async (markdown: string): Promise<string> => (await markdownToHtml(markdown, { hastPlugins: [tableBoxes] })).html;

describe('the Markdown table plugin', () => {
  it('names the box by the heading the table stands under, and labels every body cell by its column', async () => {
    const html = await render('## Limits & `caps`\n\n| Year | Limit |\n|---|---|\n| 2026 | $832,750 |\n');
    expect(html).toContain('<div class="table-scroll" role="region" tabindex="0" aria-label="Limits &amp; caps"><table>');
    expect(html).toContain('<td data-label="Year">2026</td>');
    expect(html).toContain('<td data-label="Limit">$832,750</td>');
    expect(html).not.toContain('cards');
  });

  it('turns a table of three or more columns into cards and numbers boxes without a heading', async () => {
    const html = await render('| A | B | C | D |\n|---|---|---|---|\n| 1 | 2 | 3 | 4 |\n\ntext\n\n| E | F |\n|---|---|\n| 5 | 6 |\n');
    expect(html).toContain('aria-label="Table 1"><table class="cards">');
    expect(html).toContain('<td data-label="D">4</td>');
    expect(html).toContain('aria-label="Table 2"><table>');
  });

  it('names the box by a caption, giving the caption an id', () => {
    const boxed = boxTable(
      {
        type: 'element',
        tagName: 'table',
        properties: {},
        children: [{ type: 'element', tagName: 'caption', properties: {}, children: [{ type: 'text', value: 'Rates' }] }],
      },
      'Heading',
      3,
    );
    expect(boxed.properties).toMatchObject({ ariaLabelledBy: ['table-3-caption'], role: 'region', tabIndex: 0 });
    expect(boxed.children[0]).toMatchObject({ children: [{ properties: { id: 'table-3-caption' } }] });
  });

  it('leaves Markdown without tables as it was', async () => {
    expect(await render('A paragraph about a <table> tag.')).not.toContain('table-scroll');
  });
});
