// The one date module: days written YYYY-MM-DD in UTC, their arithmetic across month and year ends
// and leap days, the Monday of a week, a driver's date column as a day, and a day in words.
import { describe, expect, it } from 'vitest';
import { addDays, dayText, daysBetween, isoDay, longDate, mondayOf } from '../../api/platform/dates.ts';

describe('dates', () => {
  it('writes the UTC day of an instant, whatever the hour', () => {
    expect(isoDay(new Date('2026-10-08T23:59:59.999Z'))).toBe('2026-10-08');
    expect(isoDay(new Date('2026-10-09T00:00:00+02:00'))).toBe('2026-10-08');
  });

  it('adds days across month ends, year ends and leap days, and subtracts them', () => {
    expect(addDays('2026-01-31', 1)).toBe('2026-02-01');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2025-02-28', 1)).toBe('2025-03-01');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addDays('2026-10-08', -364)).toBe('2025-10-09');
    expect(addDays('2026-03-08', 0)).toBe('2026-03-08');
  });

  it('counts whole days between two days, negative backwards, over a leap year', () => {
    expect(daysBetween('2024-01-01', '2025-01-01')).toBe(366);
    expect(daysBetween('2025-01-01', '2026-01-01')).toBe(365);
    expect(daysBetween('2026-10-08', '2026-10-01')).toBe(-7);
    // Over the March change to daylight time, were a local zone used, a day would be 23 hours.
    expect(daysBetween('2026-03-07', '2026-03-09')).toBe(2);
  });

  it('finds the Monday of the Monday-to-Sunday week', () => {
    expect(mondayOf('2026-10-08')).toBe('2026-10-05'); // a Thursday
    expect(mondayOf('2026-10-05')).toBe('2026-10-05'); // a Monday
    expect(mondayOf('2026-10-11')).toBe('2026-10-05'); // a Sunday
    expect(mondayOf('2027-01-01')).toBe('2026-12-28'); // across a year end
  });

  it('reads a date column from either driver as a day', () => {
    expect(dayText(new Date('2026-10-08T00:00:00Z'))).toBe('2026-10-08');
    expect(dayText('2026-10-08')).toBe('2026-10-08');
    expect(dayText('2026-10-08T00:00:00.000Z')).toBe('2026-10-08');
  });

  it('says a day in words, without a leading zero', () => {
    expect(longDate('2026-10-08')).toBe('October 8, 2026');
    expect(longDate('2024-02-29')).toBe('February 29, 2024');
    expect(longDate('2027-01-01')).toBe('January 1, 2027');
  });
});
