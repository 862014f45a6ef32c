// The observations of a series in a date range, as published or averaged to a coarser frequency.
// Ranges are inclusive; a year or month bound covers the whole year or month. An average covers
// every observation dated in its period, for each period that overlaps the range, so a monthly mean
// is the same whatever day of the month the range starts on; `count` says how many were averaged.
import { BadRequestError, NotFoundError } from '../platform/errors.ts';
import type { Frequency, Observation, RequestedFrequency } from './contract.ts';
import { decimalMean } from './decimal-mean.ts';
import type { HeldSeries } from './types.ts';

export interface DateRange {
  from: string | null;
  to: string | null;
}

const RANK: Record<Frequency, number> = { daily: 0, weekly: 1, monthly: 2, quarterly: 3, annual: 4 };
const AVERAGED_TO: readonly Frequency[] = ['monthly', 'quarterly', 'annual'];
const ADVERB: Record<Frequency, string> = {
  daily: 'daily',
  weekly: 'weekly',
  monthly: 'monthly',
  quarterly: 'quarterly',
  annual: 'annually',
};

const lastDayOfMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** `2022` → 2022-01-01 / 2022-12-31, `2022-03` → 2022-03-01 / 2022-03-31, a day stays itself. */
export function normaliseBound(value: string, side: 'from' | 'to'): string {
  if (value.length === 10) return value;
  const year = Number(value.slice(0, 4));
  if (value.length === 4) return side === 'from' ? `${year}-01-01` : `${year}-12-31`;
  const month = Number(value.slice(5, 7));
  return side === 'from' ? `${value}-01` : `${value}-${String(lastDayOfMonth(year, month)).padStart(2, '0')}`;
}

export function normaliseRange(from: string | undefined, to: string | undefined): DateRange {
  const range = { from: from === undefined ? null : normaliseBound(from, 'from'), to: to === undefined ? null : normaliseBound(to, 'to') };
  if (range.from !== null && range.to !== null && range.from > range.to) {
    throw new BadRequestError(`Invalid range: 'from' (${range.from}) is after 'to' (${range.to}); give 'from' on or before 'to'.`);
  }
  return range;
}

interface Period {
  key: string;
  start: string;
  end: string;
}

/** The month, quarter or year a date falls in. */
export function periodOf(date: string, frequency: Frequency): Period {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  if (frequency === 'annual') return { key: String(year), start: `${year}-01-01`, end: `${year}-12-31` };
  if (frequency === 'quarterly') {
    const quarter = Math.ceil(month / 3);
    const first = (quarter - 1) * 3 + 1;
    const last = quarter * 3;
    return {
      key: `${year}Q${quarter}`,
      start: `${year}-${String(first).padStart(2, '0')}-01`,
      end: `${year}-${String(last).padStart(2, '0')}-${lastDayOfMonth(year, last)}`,
    };
  }
  const prefix = date.slice(0, 7);
  return { key: prefix, start: `${prefix}-01`, end: `${prefix}-${String(lastDayOfMonth(year, month)).padStart(2, '0')}` };
}

/** The frequency the answer is in: the series' own, or a coarser one it can be averaged to (else a 400). */
export function targetFrequency(series: HeldSeries, requested: RequestedFrequency): Frequency {
  if (requested === 'native' || requested === series.frequency) return series.frequency;
  const allowed = AVERAGED_TO.filter((frequency) => RANK[frequency] > RANK[series.frequency]);
  if (!allowed.includes(requested)) {
    throw new BadRequestError(
      `Invalid value for 'frequency': ${series.id} is published ${ADVERB[series.frequency]}` +
        (allowed.length > 0
          ? `; it can be averaged to ${allowed.join(', ')}, or given as published (native).`
          : ' and cannot be averaged to another frequency; use native.'),
    );
  }
  return requested;
}

export const AVERAGE_METHOD: Record<'monthly' | 'quarterly' | 'annual', string> = {
  monthly:
    'Mean of the observations dated in the month (every observation of each month that overlaps the range), rounded to 3 decimals; count is how many were averaged.',
  quarterly:
    'Mean of the observations dated in the quarter (every observation of each quarter that overlaps the range), rounded to 3 decimals; count is how many were averaged.',
  annual:
    'Mean of the observations dated in the year (every observation of each year that overlaps the range), rounded to 3 decimals; count is how many were averaged.',
};

/** Index of the first date >= `date` (dates ascending). */
function lowerBound(dates: readonly string[], date: string): number {
  let low = 0;
  let high = dates.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((dates[middle] as string) < date) low = middle + 1;
    else high = middle;
  }
  return low;
}

function asPublished(series: HeldSeries, range: DateRange): Observation[] {
  const start = range.from === null ? 0 : lowerBound(series.dates, range.from);
  const end = range.to === null ? series.dates.length : lowerBound(series.dates, `${range.to}\uffff`);
  const observations: Observation[] = [];
  for (let index = start; index < end; index += 1) {
    const period = series.periods?.[index];
    observations.push(
      period === undefined
        ? { date: series.dates[index] as string, value: series.values[index] ?? null }
        : { date: series.dates[index] as string, period, value: series.values[index] ?? null },
    );
  }
  return observations;
}

function averaged(series: HeldSeries, range: DateRange, frequency: Frequency): Observation[] {
  const observations: Observation[] = [];
  let current: { period: Period; values: number[]; count: number } | undefined;
  const close = () => {
    if (!current) return;
    observations.push({
      date: current.period.start,
      period: current.period.key,
      value: decimalMean(current.values, 3),
      count: current.count,
    });
  };
  for (let index = 0; index < series.dates.length; index += 1) {
    const date = series.dates[index] as string;
    if (current === undefined || date > current.period.end) {
      close();
      const period = periodOf(date, frequency);
      const overlaps = (range.from === null || period.end >= range.from) && (range.to === null || period.start <= range.to);
      current = overlaps ? { period, values: [], count: 0 } : undefined;
      if (!current) continue;
    }
    const value = series.values[index];
    if (value !== null && value !== undefined) {
      current.values.push(value);
      current.count += 1;
    }
  }
  close();
  return observations;
}

/** The observations asked for; a range without any is a 404 saying what the series spans. */
export function observationsIn(series: HeldSeries, range: DateRange, frequency: Frequency): Observation[] {
  const observations = frequency === series.frequency ? asPublished(series, range) : averaged(series, range, frequency);
  if (observations.length === 0) {
    throw new NotFoundError(
      `${series.id} has no observations from ${range.from ?? 'its start'} to ${range.to ?? 'its end'}: it runs from ${series.dates[0]} to ${series.dates.at(-1)}.`,
    );
  }
  return observations;
}
