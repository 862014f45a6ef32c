// The layout's table wrapper: every table in a focusable region named by its caption, its own
// label or the heading above it.
import { describe, expect, it } from 'vitest';
import { wrapTables } from '../../api/site-info/table-scroll.ts';

describe('wrapTables', () => {
  it('names the region by the caption, giving the caption an id when it has none', () => {
    expect(wrapTables('<p>x</p><table class="t"><caption>Latest readings</caption><tr><td>1</td></tr></table>')).toBe(
      '<p>x</p><div class="table-scroll" role="region" tabindex="0" aria-labelledby="table-1-caption"><table class="t"><caption id="table-1-caption">Latest readings</caption><tr><td>1</td></tr></table></div>',
    );
    expect(wrapTables('<table><caption id="c9">Rates</caption></table>')).toContain('aria-labelledby="c9"><table><caption id="c9">');
  });

  it('uses the table\'s own label, else the heading above it, else its number', () => {
    expect(wrapTables('<table aria-label="Tools"><tr><td>a</td></tr></table>')).toContain('aria-label="Tools"><table');
    const html = '<h2 id="a">Limits &amp; <code>caps</code></h2><table><tr><td>1</td></tr></table><h3>Second</h3><p>t</p><table></table>';
    const wrapped = wrapTables(html);
    expect(wrapped).toContain('aria-label="Limits &amp; caps"><table><tr>');
    expect(wrapped).toContain('aria-label="Second"><table></table>');
    expect(wrapTables('<table></table>')).toContain('aria-label="Table 1"');
  });

  it('numbers caption ids per page and leaves text without tables unchanged', () => {
    const wrapped = wrapTables('<table><caption>A</caption></table><table><caption>B</caption></table>');
    expect(wrapped.match(/id="table-\d-caption"/g)).toEqual(['id="table-1-caption"', 'id="table-2-caption"']);
    expect(wrapTables('<p>&lt;table&gt; in text</p>')).toBe('<p>&lt;table&gt; in text</p>');
  });
});
