// Caching hints count down to when the data can change: a publisher's next scheduled release (a
// weekly PMMS Thursday, moved to the Wednesday before Thanksgiving; the next business day for Optimal
// Blue; FHFA's late-November limits), else the next daily refresh, else a day for this build's content.
import { describe, expect, it } from 'vitest';
import { ttlUntilChange, UNSCHEDULED_TTL_MS } from '../../api/mcp/cache-hints.ts';
import { nextScheduledRelease } from '../../api/freshness/next-release.ts';

const at = (iso: string) => ({ clock: () => new Date(iso), dailyRefresh: false });
const HOUR = 3_600_000;

describe('caching hints', () => {
  it('count down to the publisher’s next scheduled release', () => {
    // Monday 2026-11-16 06:00 UTC → Thursday the 19th.
    expect(ttlUntilChange(['pmms'], at('2026-11-16T06:00:00Z'))).toBe(3 * 24 * HOUR - 6 * HOUR);
    // Sunday the 22nd → Wednesday the 25th (Thanksgiving week).
    expect(nextScheduledRelease('pmms', new Date('2026-11-22T12:00:00Z'))?.toISOString()).toBe('2026-11-25T00:00:00.000Z');
    // On a release day the next one counts (a release of today may already be loaded).
    expect(nextScheduledRelease('pmms', new Date('2026-11-19T15:00:00Z'))?.toISOString()).toBe('2026-11-25T00:00:00.000Z');
    // Optimal Blue on a Friday: the next business day is Monday.
    expect(nextScheduledRelease('optimal_blue', new Date('2026-11-20T10:00:00Z'))?.toISOString()).toBe('2026-11-23T00:00:00.000Z');
    // FHFA's conforming limits, once a year in late November.
    expect(nextScheduledRelease('loan_limits_conforming', new Date('2026-12-01T00:00:00Z'))?.toISOString()).toBe(
      '2027-11-25T00:00:00.000Z',
    );
  });

  it('take the earliest change of all the datasets an answer reads', () => {
    const both = ttlUntilChange(['loan_limits_conforming', 'pmms'], at('2026-11-16T06:00:00Z'));
    expect(both).toBe(ttlUntilChange(['pmms'], at('2026-11-16T06:00:00Z')));
  });

  it('give a day to what no schedule bounds, or until the next daily refresh when one runs', () => {
    expect(ttlUntilChange([], at('2026-11-16T06:00:00Z'))).toBe(UNSCHEDULED_TTL_MS);
    expect(ttlUntilChange(['bills'], at('2026-11-16T06:00:00Z'))).toBe(UNSCHEDULED_TTL_MS);
    const refreshed = ttlUntilChange(['bills'], { clock: () => new Date('2026-11-16T06:00:00Z'), dailyRefresh: true });
    expect(refreshed).toBeGreaterThan(0);
    expect(refreshed).toBeLessThanOrEqual(4 * 24 * HOUR);
  });
});
