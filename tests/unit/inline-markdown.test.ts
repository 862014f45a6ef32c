// Inline Markdown of route, parameter and tool descriptions becomes HTML with everything else escaped.
import { describe, expect, it } from 'vitest';
import { inlineMarkdownToHtml } from '../../site/lib/inline-markdown.ts';

describe('inlineMarkdownToHtml', () => {
  it('renders code spans, strong text and links', () => {
    expect(inlineMarkdownToHtml('Returns `{stat}`: with `id` that statistic.')).toBe(
      'Returns <code>{stat}</code>: with <code>id</code> that statistic.',
    );
    expect(inlineMarkdownToHtml('**Note:** see [the docs](/docs/api).')).toBe(
      '<strong>Note:</strong> see <a href="/docs/api">the docs</a>.',
    );
    expect(inlineMarkdownToHtml('a ``code with ` inside`` b')).toBe('a <code>code with ` inside</code> b');
  });

  it('escapes HTML everywhere, inside code spans too', () => {
    expect(inlineMarkdownToHtml('<script>x</script> & `<b>`')).toBe('&lt;script&gt;x&lt;/script&gt; &amp; <code>&lt;b&gt;</code>');
    expect(inlineMarkdownToHtml('Streams `data: {"type":"chunk"}`')).toBe(
      'Streams <code>data: {&quot;type&quot;:&quot;chunk&quot;}</code>',
    );
  });

  it('keeps identifiers with underscores and single stars as written, and nothing renders inside code', () => {
    expect(inlineMarkdownToHtml('market_overview, loan_types and *all* of `**x**`')).toBe(
      'market_overview, loan_types and *all* of <code>**x**</code>',
    );
  });

  it('leaves links to other schemes as text and an unmatched backtick alone', () => {
    expect(inlineMarkdownToHtml('[x](javascript:alert(1))')).toBe('[x](javascript:alert(1))');
    expect(inlineMarkdownToHtml('one ` tick')).toBe('one ` tick');
  });
});
