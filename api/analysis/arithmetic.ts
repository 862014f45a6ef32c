// The computations of the analysis layer, free of any service: they take held series and figures
// and return numbers. Tests compare each with an independent computation from the official files.
import { principalAndInterest } from '../payment/monthly-payment.ts';
import type { HeldSeries } from '../series/types.ts';
import { observationsIn, type Observation, type Span } from './points.ts';

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

export interface DatedValue {
  value: number;
  date: string;
  period?: string;
}

export type Condition = { op: 'above' | 'below' | 'equal'; threshold: number };

export const meets = (value: number, condition: Condition) =>
  condition.op === 'above'
    ? value > condition.threshold
    : condition.op === 'below'
      ? value < condition.threshold
      : value === condition.threshold;
// A threshold of a third is 33.333…: said to four decimals.
export const conditionText = (condition: Condition) =>
  `${condition.op === 'equal' ? 'equal to' : condition.op} ${Number(condition.threshold.toFixed(4))}`;

/** end − start and (end − start) ÷ start × 100, rounded to 4 and 2 decimals. */
export function change(start: number | null, end: number | null): { change: number | null; percent_change: number | null } {
  if (start === null || end === null) return { change: null, percent_change: null };
  return { change: round(end - start, 4), percent_change: start === 0 ? null : round(((end - start) / start) * 100, 2) };
}

/** a − b and a ÷ b. */
export function difference(a: number | null, b: number | null): { difference: number | null; ratio: number | null } {
  if (a === null || b === null) return { difference: null, ratio: null };
  return { difference: round(a - b, 4), ratio: b === 0 ? null : round(a / b, 4) };
}

/** part ÷ whole × 100. */
export function sharePercent(part: number | null, whole: number | null): number | null {
  return part === null || whole === null || whole === 0 ? null : round((part / whole) * 100, 2);
}

const dated = (series: HeldSeries, index: number, value: number): DatedValue => {
  const period = series.periods?.[index];
  return { value, date: series.dates[index] as string, ...(period === undefined ? {} : { period }) };
};

/** Observations of the span meeting the condition: how many, of how many, the first and the last. */
export function countOverTime(
  series: HeldSeries,
  span: Span,
  condition: Condition,
): { count: number; out_of: number; first: DatedValue | null; last: DatedValue | null } {
  const observations = observationsIn(series, span.start, span.end);
  const meeting = observations.filter((observation) => meets(observation.value, condition));
  const first = meeting[0];
  const last = meeting.at(-1);
  return {
    count: meeting.length,
    out_of: observations.length,
    first: first ? dated(series, first.index, first.value) : null,
    last: last ? dated(series, last.index, last.value) : null,
  };
}

/** The first or last observation meeting the condition, the start of its unbroken run, and whether the latest meets it. */
export function crossing(series: HeldSeries, span: Span, condition: Condition, which: 'first' | 'last') {
  const observations = observationsIn(series, span.start, span.end);
  const latestObservation = observations.at(-1);
  const position =
    which === 'last'
      ? observations.findLastIndex((observation) => meets(observation.value, condition))
      : observations.findIndex((observation) => meets(observation.value, condition));
  let runStart = position;
  while (runStart > 0 && meets((observations[runStart - 1] as { value: number }).value, condition)) runStart -= 1;
  const at = (index: number) => {
    const observation = observations[index];
    return observation ? dated(series, observation.index, observation.value) : null;
  };
  return {
    found: position < 0 ? null : at(position),
    run_start: position < 0 ? null : at(runStart),
    meets_now: latestObservation !== undefined && meets(latestObservation.value, condition),
    latest: latestObservation ? dated(series, latestObservation.index, latestObservation.value) : null,
  };
}

/** The longest unbroken run of observations meeting the condition (the first when tied): its length, first and last. */
export function longestRunMeeting(series: HeldSeries, span: Span, condition: Condition) {
  const observations = observationsIn(series, span.start, span.end);
  let best: { start: number; end: number } | null = null;
  let runStart = -1;
  observations.forEach((observation, index) => {
    if (!meets(observation.value, condition)) {
      runStart = -1;
      return;
    }
    if (runStart < 0) runStart = index;
    if (!best || index - runStart > best.end - best.start) best = { start: runStart, end: index };
  });
  const at = (index: number) => {
    const observation = observations[index] as Observation;
    return dated(series, observation.index, observation.value);
  };
  const run = best as { start: number; end: number } | null;
  return {
    length: run ? run.end - run.start + 1 : 0,
    start: run ? at(run.start) : null,
    end: run ? at(run.end) : null,
    steps: observations.length,
  };
}

/** The lowest and highest values of the span with every date (and, for a series of periods, period) each was reached. */
export function extremes(
  series: HeldSeries,
  span: Span,
): {
  low: number | null;
  low_dates: string[];
  low_periods?: string[];
  high: number | null;
  high_dates: string[];
  high_periods?: string[];
  observations: number;
} {
  const observations = observationsIn(series, span.start, span.end);
  if (observations.length === 0) return { low: null, low_dates: [], high: null, high_dates: [], observations: 0 };
  let low = Infinity;
  let high = -Infinity;
  for (const observation of observations) {
    low = Math.min(low, observation.value);
    high = Math.max(high, observation.value);
  }
  const at = (value: number) => observations.filter((observation) => observation.value === value);
  // A series of periods (years, quarters) names each by its period too: "2018" is a year, not a date.
  const periods = (found: { index: number }[]) => {
    const labels = found.map((observation) => series.periods?.[observation.index]);
    return labels.every((label): label is string => label !== undefined) ? labels : undefined;
  };
  const lowPeriods = periods(at(low));
  const highPeriods = periods(at(high));
  return {
    low,
    low_dates: at(low).map((observation) => observation.date),
    ...(lowPeriods ? { low_periods: lowPeriods } : {}),
    high,
    high_dates: at(high).map((observation) => observation.date),
    ...(highPeriods ? { high_periods: highPeriods } : {}),
    observations: observations.length,
  };
}

/** Competition ranks (1, 1, 3) over values, best first; the first `limit` ranks, ties at the edge kept. */
export function rankTies<T extends { value: number }>(
  entries: readonly T[],
  order: 'highest' | 'lowest',
  limit: number,
): (T & { rank: number })[] {
  const sorted = [...entries].sort((a, b) => (order === 'highest' ? b.value - a.value : a.value - b.value));
  const ranked: (T & { rank: number })[] = [];
  for (let index = 0; index < sorted.length; index += 1) {
    const entry = sorted[index] as T;
    const previous = ranked.at(-1);
    const rank = previous && previous.value === entry.value ? previous.rank : index + 1;
    if (rank > limit) break;
    ranked.push({ ...entry, rank });
  }
  return ranked;
}

/** Monthly principal and interest of a fixed-rate loan (the calculator's amortisation) and the interest over the term. */
export function monthlyPayment(amount: number, annualPercent: number, years: number): { monthly_payment: number; total_interest: number } {
  const monthly = principalAndInterest(amount, annualPercent, years);
  return { monthly_payment: round(monthly, 2), total_interest: round(monthly * years * 12 - amount, 2) };
}
