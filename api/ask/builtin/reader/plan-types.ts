// What the planner hands the answerer: analysis operations to run (api/analysis), calendar look-ups
// and loan-limit look-ups by units, each labelled in the question's words, and how to combine them.
import type { Operation } from '../../../analysis/contract.ts';
import type { Refusal, TimeSlot } from './frame.ts';

export interface Step {
  operation: Operation;
  query: Record<string, unknown>;
  /** What the step answers, in the question's words ("in Harris County, TX", "2021 to 2022"). */
  label?: string;
}

export interface CalendarAsk {
  from: string;
  to: string;
  category?: 'fed' | 'inflation' | 'employment';
  /** Words an event's name must hold ("CPI", "JOLTS", "Employment Cost Index"). */
  names: string[];
  /** What the answer calls the releases when the names are many ("BLS"). */
  title?: string;
  label: string;
  count: boolean;
  /** "the next CPI release": the first event only. */
  first?: boolean;
  /** "the next CPI release after it": the span starts the day after the event the ask of this index found. */
  afterAsk?: number;
  /** "the first CPI release of 2026", "the last jobs report before July 4th": that one event of the span. */
  pick?: 'first' | 'last';
}

/** A county's limit for a number of units, which the one-unit series do not hold. */
export interface UnitsAsk {
  fips: string;
  state: string;
  program: 'conforming' | 'fha';
  /** Each number of units asked; two are compared. */
  units: number[];
  years: number[];
}

export interface Plan {
  steps: Step[];
  refusals: Refusal[];
  readings: string[];
  calendar?: CalendarAsk[];
  /** "How many days between …": the days from the first calendar event found to the second. */
  daysBetween?: boolean;
  units?: UnitsAsk;
  /** Combine the steps: the change from the first value to the second, or the range of extremes. */
  select?: 'change-between' | 'low-to-high';
  /** The first step's `at` is a year before its series' latest observation (filled when the plan runs). */
  yearEarlier?: boolean;
  /** Extremes: say the high, the low, or both. */
  say?: 'highest' | 'lowest';
}

/** The analysis moment of a time: a period for years, quarters and months; a day; the latest. */
export function momentOf(time: TimeSlot | undefined): string | undefined {
  if (!time) return undefined;
  switch (time.grain) {
    case 'latest':
      return 'latest';
    case 'year':
      return time.from.slice(0, 4);
    case 'quarter':
      return `${time.from.slice(0, 4)}Q${Math.floor((Number(time.from.slice(5, 7)) - 1) / 3) + 1}`;
    case 'month':
      return time.from.slice(0, 7);
    default:
      return time.from;
  }
}

/** A time as an analysis range: a window's days, or a period's. */
export function rangeQuery(time: TimeSlot | undefined): Record<string, string> {
  if (!time || time.grain === 'latest') return {};
  if (time.grain === 'week' || time.grain === 'season' || time.grain === 'day') return { from: time.from, to: time.to };
  const moment = momentOf(time) as string;
  return { from: moment, to: moment };
}
