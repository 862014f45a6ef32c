// Excerpts from ts_headline become safe HTML: text escaped, matches wrapped in <mark>.
import { describe, expect, it } from 'vitest';
import { highlightExcerpt } from '../../api/search/query.ts';

describe('search excerpts', () => {
  it('escapes the text and turns the match sentinels into <mark> tags', () => {
    expect(highlightExcerpt('LTV < 80% & "no" \u0002PMI\u0003\n  needed')).toBe(
      'LTV &lt; 80% &amp; &quot;no&quot; <mark>PMI</mark> needed',
    );
  });

  it('cannot be tricked into markup by a literal <mark> in the text', () => {
    expect(highlightExcerpt('<mark>fake</mark>')).toBe('&lt;mark&gt;fake&lt;/mark&gt;');
  });
});

describe('an excerpt of two fragments', () => {
  it('shows a passage the page repeats once', () => {
    expect(highlightExcerpt('a \u0002jumbo\u0003 loan … a \u0002jumbo\u0003 loan')).toBe('a <mark>jumbo</mark> loan');
    expect(highlightExcerpt('a \u0002jumbo\u0003 loan … the \u0002jumbo\u0003 rate')).toBe(
      'a <mark>jumbo</mark> loan … the <mark>jumbo</mark> rate',
    );
  });
});
