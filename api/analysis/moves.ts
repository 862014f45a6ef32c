// Moves between consecutive observations of a series: the largest single step up or down in a
// range ("the largest one-week increase in 2023"), and the longest run of consecutive steps one way
// ("the longest run of weekly declines in 2025"). A step into the range's first observation is
// counted from the observation just before the range, so a week's move belongs to the week it ends
// (unless `from_first`). A streak may instead be a run of observations meeting a threshold ("the
// longest run of weeks the 30-year stayed below 3%").
import type { HeldSeries } from '../series/types.ts';
import { conditionText, meets, type Condition, type DatedValue } from './arithmetic.ts';
import { formatValue, observationsIn, type Observation, type Span } from './points.ts';

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

export type Direction = 'up' | 'down';

/** The range's observations, with the one just before it (each step ends inside the range) unless `fromFirst`. */
function withPrevious(series: HeldSeries, span: Span, fromFirst = false): Observation[] {
  const inside = observationsIn(series, span.start, span.end);
  const first = inside[0];
  if (!first || fromFirst) return inside;
  for (let index = first.index - 1; index >= 0; index -= 1) {
    const value = series.values[index];
    if (value !== null && value !== undefined) return [{ index, date: series.dates[index] as string, value }, ...inside];
  }
  return inside;
}

const dated = (series: HeldSeries, observation: Observation): DatedValue => {
  const period = series.periods?.[observation.index];
  return { value: observation.value, date: observation.date, ...(period === undefined ? {} : { period }) };
};

const wanted = (step: number, direction: Direction) => (direction === 'up' ? step > 0 : step < 0);

/** The largest step in the direction (ties: every date it happened), and how many steps were looked at. */
export function largestMove(series: HeldSeries, span: Span, direction: Direction, fromFirst = false) {
  const observations = withPrevious(series, span, fromFirst);
  let best: { change: number; from: DatedValue; to: DatedValue; also: string[] } | null = null;
  for (let index = 1; index < observations.length; index += 1) {
    const before = observations[index - 1] as Observation;
    const after = observations[index] as Observation;
    const step = round(after.value - before.value, 4);
    if (!wanted(step, direction)) continue;
    if (!best || Math.abs(step) > Math.abs(best.change))
      best = { change: step, from: dated(series, before), to: dated(series, after), also: [] };
    else if (Math.abs(step) === Math.abs(best.change)) best.also.push(after.date);
  }
  return { largest: best, steps: Math.max(0, observations.length - 1) };
}

/** The longest run of consecutive steps in the direction (the first such run when tied). */
export function longestStreak(series: HeldSeries, span: Span, direction: Direction, fromFirst = false) {
  const observations = withPrevious(series, span, fromFirst);
  let best: { length: number; start: number; end: number } | null = null;
  let runStart = -1;
  for (let index = 1; index < observations.length; index += 1) {
    const step = (observations[index] as Observation).value - (observations[index - 1] as Observation).value;
    if (!wanted(step, direction)) {
      runStart = -1;
      continue;
    }
    if (runStart < 0) runStart = index - 1;
    const length = index - runStart;
    if (!best || length > best.length) best = { length, start: runStart, end: index };
  }
  if (!best) return { length: 0, start: null, first_move: null, end: null, steps: Math.max(0, observations.length - 1) };
  return {
    length: best.length,
    start: dated(series, observations[best.start] as Observation),
    first_move: dated(series, observations[best.start + 1] as Observation),
    end: dated(series, observations[best.end] as Observation),
    steps: observations.length - 1,
  };
}

const stepsOf = (units: string, change: number) =>
  units === 'US dollars'
    ? formatValue(Math.abs(change), units)
    : `${Math.abs(change)} ${units === 'percent' ? 'percentage points' : units}`;

/** The moves operation's answer and method, in words. */
export function describeMove(series: HeldSeries, span: Span, direction: Direction, found: ReturnType<typeof largestMove>) {
  const way = direction === 'up' ? 'increase' : 'decrease';
  const step = found.largest;
  const also = step && step.also.length > 0 ? `; the same ${way} also ended on ${step.also.join(', ')}` : '';
  return {
    answer: step
      ? `The largest ${series.frequency} ${way} in ${series.title} from ${span.start} to ${span.end} was ${stepsOf(series.units, step.change)}, from ${formatValue(step.from.value, series.units)} (${step.from.date}) to ${formatValue(step.to.value, series.units)} (${step.to.date})${also}.`
      : `${series.title} never had an ${way} from one observation to the next from ${span.start} to ${span.end}.`,
    method: `Each step = an observation − the one before it; the largest ${way} of the ${found.steps} steps ending from ${span.start} to ${span.end}.`,
    result: { units: series.units, direction, ...found },
  };
}

/** The streak operation's answer and method, in words. */
export function describeStreak(series: HeldSeries, span: Span, direction: Direction, found: ReturnType<typeof longestStreak>) {
  const way = direction === 'up' ? 'increases' : 'declines';
  const { start, end, first_move: firstMove } = found;
  return {
    answer:
      found.length > 0 && start && end && firstMove
        ? `The longest run of consecutive ${series.frequency} ${way} in ${series.title} from ${span.start} to ${span.end} was ${found.length} consecutive ${series.frequency} ${way}, from ${formatValue(start.value, series.units)} (${start.date}) ${direction} to ${formatValue(end.value, series.units)} (${end.date}); the first of them on ${firstMove.date}.`
        : `${series.title} had no ${way} from one observation to the next from ${span.start} to ${span.end}.`,
    method: `Runs of consecutive observations each ${direction === 'up' ? 'above' : 'below'} the one before it, counted in steps; the longest (the first when tied) of ${found.steps} steps.`,
    result: { units: series.units, direction, ...found },
  };
}

/** The longest run of consecutive observations in the range meeting the condition (the first such run when tied). */
export function longestRunMeeting(series: HeldSeries, span: Span, condition: Condition) {
  const observations = observationsIn(series, span.start, span.end);
  let run: { start: number; end: number } | null = null;
  let runStart = -1;
  for (let index = 0; index < observations.length; index += 1) {
    if (!meets((observations[index] as Observation).value, condition)) {
      runStart = -1;
      continue;
    }
    if (runStart < 0) runStart = index;
    if (!run || index - runStart > run.end - run.start) run = { start: runStart, end: index };
  }
  return {
    length: run ? run.end - run.start + 1 : 0,
    start: run ? dated(series, observations[run.start] as Observation) : null,
    end: run ? dated(series, observations[run.end] as Observation) : null,
    observations: observations.length,
  };
}

/** The streak operation's answer over a threshold: the longest run of observations meeting it. */
export function describeRun(series: HeldSeries, span: Span, condition: Condition, found: ReturnType<typeof longestRunMeeting>) {
  const { start, end } = found;
  const said = series.units === 'percent' ? `${conditionText(condition)}%` : conditionText(condition);
  const unit = series.frequency === 'weekly' ? 'weeks' : `${series.frequency} observations`;
  const length = `${found.length} ${found.length === 1 ? unit.replace(/s$/, '') : unit}`;
  return {
    answer:
      start && end
        ? `The longest unbroken run of ${series.title} ${said} from ${span.start} to ${span.end} was ${length}: the first ${start.date} (${formatValue(start.value, series.units)}), the last ${end.date} (${formatValue(end.value, series.units)}).`
        : `${series.title} was never ${said} from ${span.start} to ${span.end}.`,
    method: `Runs of consecutive published observations each ${condition.op === 'equal' ? '' : 'strictly '}${said}, counted in observations; the longest (the first when tied) of the ${found.observations} in the range.`,
    result: {
      units: series.units,
      condition: conditionText(condition),
      length: found.length,
      start,
      first_move: null,
      end,
      steps: Math.max(0, found.observations - 1),
    },
  };
}
