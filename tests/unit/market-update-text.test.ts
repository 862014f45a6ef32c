// The words of a generated market update follow its numbers exactly.
import { describe, expect, it } from 'vitest';
import { describeChange, describeUpdate, formatDate, signedChange } from '../../api/news/market-update-text.ts';

const move = (value: number, previous: number | null, date = '2026-10-08', previousDate: string | null = '2026-10-01') => ({
  value,
  date,
  previous,
  previousDate: previous === null ? null : previousDate,
  change: previous === null ? null : Math.round((value - previous) * 100) / 100,
});

describe('market update text', () => {
  it('formats dates and changes', () => {
    expect(formatDate('2026-10-08')).toBe('October 8, 2026');
    expect(describeChange(0.12)).toBe('up 0.12 percentage points');
    expect(describeChange(-1)).toBe('down 1.00 percentage point');
    expect(describeChange(0)).toBe('unchanged');
    expect(signedChange(-0.05)).toBe('−0.05');
    expect(signedChange(null)).toBe('n/a');
  });

  it('writes the title, summary and paragraphs from the moves', () => {
    const text = describeUpdate('2026-10-08', {
      survey30: move(7.4, 7.28),
      survey15: move(6.6, 6.55),
      benchmark30: move(7.1, 7.2, '2026-10-07', '2026-09-30'),
    });
    expect(text.title).toBe('Week of October 8, 2026: 30-year survey rate rises to 7.40%');
    expect(text.summary).toContain('30-year 7.40% (+0.12)');
    expect(text.summary).toContain('15-year 6.60% (+0.05)');
    expect(text.summary).toContain('Optimal Blue 30-year conforming 7.10% (−0.10)');
    expect(text.summary).toMatch(/Generated from the data\.$/);
    expect(text.paragraphs[0]).toContain('up 0.12 percentage points from 7.28% the week before');
    expect(text.paragraphs[1]).toContain('gap between the two terms was 0.80 percentage points');
    expect(text.paragraphs[2]).toContain(
      'closed at 7.10% on October 7, 2026, down 0.10 percentage points from 7.20% on September 30, 2026',
    );
    expect(text.paragraphs[2]).toContain('0.30 percentage points above the benchmark');
  });

  it('says so when a series has no reading that week', () => {
    const text = describeUpdate('1971-04-02', { survey30: move(7.33, null), survey15: null, benchmark30: null });
    expect(text.title).toContain('holds at 7.33%');
    expect(text.paragraphs[1]).toBe('No 15-year survey figure for this week is in the data.');
    expect(text.paragraphs[2]).toBe('No Optimal Blue benchmark reading falls in this week in the data.');
    expect(text.summary).not.toContain('15-year');
  });
});
