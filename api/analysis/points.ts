// The figure a series gives for a moment or a range: one observation, the latest one before a day,
// the mean of a period's observations, or the coarser period that holds the one asked. Every
// operation takes its figures through here, so "the 30-year rate in 2023" means the same thing in
// a change, a comparison and a payment.
import { NotFoundError } from '../platform/errors.ts';
import type { HeldSeries } from '../series/types.ts';
import type { Point } from './contract.ts';
import { addDays, mondayOf } from '../platform/dates.ts';

export interface Span {
  /** YYYY-MM-DD, inclusive. */
  start: string;
  end: string;
  /** How the answer names it: "2023", "2025Q3", "2024-05", "2024-12-18", "2024-12-16..2024-12-22". */
  label: string;
  kind: 'day' | 'month' | 'quarter' | 'year' | 'range';
}

const lastDay = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();
const pad = (value: number) => String(value).padStart(2, '0');

/** `2024`, `2025Q3`, `2024-05`, `2024-12-18` as a span; `latest` is handled by the callers. */
export function spanOf(moment: string): Span {
  const year = Number(moment.slice(0, 4));
  if (/^\d{4}$/.test(moment)) return { start: `${year}-01-01`, end: `${year}-12-31`, label: moment, kind: 'year' };
  const quarter = /^\d{4}Q([1-4])$/.exec(moment);
  if (quarter) {
    const last = Number(quarter[1]) * 3;
    return { start: `${year}-${pad(last - 2)}-01`, end: `${year}-${pad(last)}-${lastDay(year, last)}`, label: moment, kind: 'quarter' };
  }
  if (/^\d{4}-\d{2}$/.test(moment)) {
    const month = Number(moment.slice(5, 7));
    return { start: `${moment}-01`, end: `${moment}-${pad(lastDay(year, month))}`, label: moment, kind: 'month' };
  }
  return { start: moment, end: moment, label: moment, kind: 'day' };
}

/** An explicit range from two moments (the start of `from`, the end of `to`). */
export function rangeOf(from: string | undefined, to: string | undefined, series: HeldSeries): Span {
  const start = from === undefined || from === 'latest' ? (series.dates[0] ?? '0000-01-01') : spanOf(from).start;
  const end = to === undefined || to === 'latest' ? (series.dates.at(-1) ?? '9999-12-31') : spanOf(to).end;
  return { start, end, label: `${start}..${end}`, kind: 'range' };
}

const RANK = { daily: 0, weekly: 1, monthly: 2, quarterly: 3, annual: 4 } as const;
const SPAN_RANK = { day: 0, range: 1, month: 2, quarter: 3, year: 4 } as const;
const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

export interface Observation {
  index: number;
  date: string;
  value: number;
}

/** The observations with a value, from `start` to `end` inclusive (a quarter or year dated at its end counts in it). */
export function observationsIn(series: HeldSeries, start: string, end: string): Observation[] {
  const found: Observation[] = [];
  for (let index = 0; index < series.dates.length; index += 1) {
    const date = series.dates[index] as string;
    if (date < start || date > end) continue;
    const value = series.values[index];
    if (value !== null && value !== undefined) found.push({ index, date, value });
  }
  return found;
}

/** A weekly series' observation in the Monday-to-Sunday week that holds `day`, if it has one. */
export function surveyOfWeek(series: HeldSeries, day: string): Observation | undefined {
  const monday = mondayOf(day);
  return observationsIn(series, monday, addDays(monday, 6))[0];
}

const pointOf = (series: HeldSeries, observation: Observation, how: Point['how']): Point => {
  const period = series.periods?.[observation.index];
  return { value: observation.value, date: observation.date, ...(period === undefined ? {} : { period }), how };
};

function latest(series: HeldSeries): Point {
  for (let index = series.values.length - 1; index >= 0; index -= 1) {
    const value = series.values[index];
    if (value !== null && value !== undefined) return pointOf(series, { index, date: series.dates[index] as string, value }, 'observation');
  }
  throw new NotFoundError(`${series.id} has no published figure.`);
}

/** The series' figure for a moment (`latest`, a year, quarter, month or day) or an explicit range. */
export function pointAt(
  series: HeldSeries,
  moment: string | undefined,
  range?: { from?: string | undefined; to?: string | undefined },
): Point {
  if (range && (range.from !== undefined || range.to !== undefined)) return meanOver(series, rangeOf(range.from, range.to, series));
  if (moment === undefined || moment === 'latest') return latest(series);
  const span = spanOf(moment);
  // A period the series publishes itself (an annual figure for a year, a quarter for a quarter).
  const own = series.periods?.indexOf(span.label) ?? -1;
  if (own >= 0 && series.values[own] !== null && series.values[own] !== undefined)
    return pointOf(series, { index: own, date: series.dates[own] as string, value: series.values[own] }, 'observation');
  if (span.kind === 'day') {
    const exact = series.dates.indexOf(span.start);
    if (exact >= 0 && series.values[exact] !== null && series.values[exact] !== undefined)
      return pointOf(series, { index: exact, date: span.start, value: series.values[exact] }, 'observation');
  }
  // A coarser series (annual, quarterly) answers a finer moment with the period that holds it.
  if (
    series.periods &&
    RANK[series.frequency] >= RANK.quarterly &&
    SPAN_RANK[span.kind] < (series.frequency === 'annual' ? SPAN_RANK.year : SPAN_RANK.quarter)
  ) {
    const key =
      series.frequency === 'annual' ? span.start.slice(0, 4) : `${span.start.slice(0, 4)}Q${Math.ceil(Number(span.start.slice(5, 7)) / 3)}`;
    const index = series.periods.indexOf(key);
    const value = series.values[index];
    if (index >= 0 && value !== null && value !== undefined)
      return pointOf(series, { index, date: series.dates[index] as string, value }, 'containing_period');
    throw new NotFoundError(`${series.id} has no figure for ${key}: it runs from ${series.periods[0]} to ${series.periods.at(-1)}.`);
  }
  // A weekly survey (PMMS, published Thursdays) answers a day with that week's survey, the one that covers it.
  if (span.kind === 'day' && series.frequency === 'weekly') {
    const week = surveyOfWeek(series, span.start);
    if (week) return pointOf(series, week, 'same_week');
  }
  if (span.kind === 'day') {
    const before = observationsIn(series, '0000-01-01', span.start).at(-1);
    if (before) return pointOf(series, before, 'on_or_before');
    throw new NotFoundError(`${series.id} has no figure on or before ${span.start}: it starts on ${series.dates[0]}.`);
  }
  return meanOver(series, span);
}

/** Whether a series is an interest rate a loan can be priced at (INTEREST_RATE_SERIES says which, in words). */
export function isInterestRate(series: Pick<HeldSeries, 'family' | 'id'>): boolean {
  if (series.family === 'pmms' || series.family === 'optimal-blue') return true;
  return series.family === 'nmdb' && /\/ave_intrate(_dollar)?$/.test(series.id);
}

/** The unrounded means behind the points that show them to 4 decimals (see `exactValue`). */
const exactMeans = new WeakMap<Point, number>();

/** The mean of the observations in a span (one observation is itself), shown to 4 decimals. */
export function meanOver(series: HeldSeries, span: Span): Point {
  const found = observationsIn(series, span.start, span.end);
  if (found.length === 0) {
    throw new NotFoundError(`${series.id} has no figure in ${span.label}: it runs from ${series.dates[0]} to ${series.dates.at(-1)}.`);
  }
  const total = found.reduce((sum, observation) => sum + observation.value, 0);
  const point: Point = { value: round(total / found.length, 4), date: span.start, period: span.label, count: found.length, how: 'mean' };
  exactMeans.set(point, total / found.length);
  return point;
}

/**
 * A point's figure to compute with: a mean unrounded (a payment from the 4-decimal mean of a year's
 * rates was a few cents off the payment at the rate itself), an observation as published.
 */
export function exactValue(point: Point): number | null {
  return exactMeans.get(point) ?? point.value;
}

/** How a point is said: "6.81% (2023 mean of 52 weekly observations)", "$832,750 (2026)". */
export function describePoint(point: Point, units: string, frequency: string): string {
  // A mean is said from its unrounded value: 6.78846 is 6.788%, not 6.7885 rounded again to 6.789%.
  const figure = formatValue(exactValue(point) ?? point.value, units);
  if (point.how === 'mean') {
    const observations = `${point.count} ${frequency} observation${point.count === 1 ? '' : 's'}`;
    // A weekly survey publishes two decimals: its mean is said at those, not at three the survey never printed.
    const surveyed = frequency === 'weekly' && units === 'percent' && (point.count ?? 0) > 1 && point.value !== null;
    if (surveyed) return `${(exactValue(point) ?? 0).toFixed(2)}% (${point.period} mean of ${observations}, at the survey's two decimals)`;
    return `${figure} (${point.period} mean of ${observations})`;
  }
  const when = point.period ?? point.date;
  if (point.how === 'same_week') return `${figure} (the survey of ${when}, for the week holding the day asked)`;
  if (point.how === 'on_or_before') return `${figure} (${when}, the latest observation on or before the day asked)`;
  if (point.how === 'containing_period') return `${figure} (${when}, the ${frequency} figure holding the date asked)`;
  return `${figure} (${when})`;
}

/**
 * A formatter for the figures of one list, percents at the decimals the most precise of them shows:
 * a list of rates published to a tenth reads "4.8%; 4.0%", not "4.8%; 4%".
 */
export function listFormatter(values: readonly (number | null)[], units: string): (value: number | null) => string {
  if (units !== 'percent' && !units.startsWith('percent ')) return (value) => formatValue(value, units);
  const shown = values.flatMap((value) => (value === null ? [] : [String(round(value, 3)).split('.')[1]?.length ?? 0]));
  const places = Math.max(0, ...shown);
  return (value) => (value === null ? 'no figure' : `${round(value, 3).toFixed(places)}%`);
}

/** A value in its units: 6.81%, $832,750, 12,345 loans. */
export function formatValue(value: number | null, units: string): string {
  if (value === null) return 'no figure';
  if (units === 'percent' || units.startsWith('percent ')) return `${round(value, 3)}%`;
  if (units === 'US dollars') return `$${Math.round(value).toLocaleString('en-US')}`;
  return `${round(value, 2).toLocaleString('en-US')} ${units}`;
}
