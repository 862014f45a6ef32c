// The planner: composes analysis operations from a frame, one small function per operation. Each
// names series by filling a measure's `{place}` with the place read; nothing is defaulted that the
// question did not give (no state, tier or rate), and a frame it cannot plan is declined (the
// look-up composers answer it, after what cannot be answered).
import type { Frame, MeasureSlot, TimeSlot } from './frame.ts';
import type { Place } from '../../../geo/gazetteer.ts';
import { momentOf, rangeQuery, type Plan } from './plan-types.ts';
import { crossedShare, planCrossedShare } from './plan-shares.ts';
import { placeCode, seriesOf } from './plan-series.ts';

export { placeCode, placeName, seriesOf } from './plan-series.ts';

const TIME_SERIES_DEFAULT_LIMIT = 1;
/** "Which counties have the highest …" with no number: this many. */
const PLURAL_DEFAULT_LIMIT = 5;

/** Whether a measure has a place slot (a template of places, not one national series). */
const placed = (measure: MeasureSlot) => measure.template.includes('{');

const templateOf = (measure: MeasureSlot) => measure.template.replace('{place}', '*').replace('{county}', '*').replace('{state}', '*');
const datedTimes = (frame: Frame) => frame.times.filter((time) => time.grain !== 'latest');
const labelOf = (place: Place | undefined, time: TimeSlot | undefined) =>
  [
    place && place.kind !== 'nation' ? `in ${place.name}` : undefined,
    time ? (time.grain === 'latest' ? 'latest' : time.text.trim()) : undefined,
  ]
    .filter(Boolean)
    .join(', ');

/** "the first weekly survey of 2025": the first (or last) figure of a period. */
function planFirstOrLast(frame: Frame, plan: Plan): boolean {
  const which = frame.operation.which;
  const time = datedTimes(frame)[0];
  const measure = frame.measures[0];
  if (!which || !time || !measure || frame.measures.length > 1 || !['year', 'quarter', 'month'].includes(time.grain)) return false;
  const series = seriesOf(measure, frame.places[0]);
  if (!series || series.startsWith('loan-limits') || series.startsWith('hmda')) return false;
  const moment = momentOf(time) as string;
  // Every rate is above −1000, so the first (last) figure above it is the period's first (last).
  plan.steps.push({
    operation: 'crossing',
    query: { series, above: '-1000', which, from: moment, to: moment },
    label: `the ${which} figure of ${time.text.trim()}`,
  });
  return true;
}

function planValues(frame: Frame, plan: Plan): void {
  if (frame.operation.kind === 'value' && planFirstOrLast(frame, plan)) return;
  const places = frame.places.length > 0 ? frame.places : [undefined];
  const times = frame.times.length > 0 ? frame.times : [undefined];
  for (const measure of frame.measures)
    // A national series is one figure, not one per place named.
    for (const place of placed(measure) ? places : [undefined])
      for (const time of times) {
        const series = seriesOf(measure, place);
        if (!series) continue;
        const when =
          time && WEEKLY_FAMILIES.includes(measure.family) && time.grain === 'week' && frame.operation.kind === 'value'
            ? // "the week of Labor Day": that week's survey, said with its own date, not a mean labelled by the Monday.
              { at: time.from }
            : time && (time.grain === 'week' || time.grain === 'season' || (frame.operation.kind === 'average' && time.grain === 'day'))
              ? rangeQuery(time)
              : { at: momentOf(time) ?? 'latest' };
        plan.steps.push({ operation: 'value', query: { series, ...when }, label: labelOf(place, time) });
      }
}

/** "Compared with the same week a year earlier": the figure a year before the latest, then the latest. */
function planYearEarlier(frame: Frame, plan: Plan): void {
  const measure = frame.measures[0];
  const series = measure ? seriesOf(measure, frame.places[0]) : undefined;
  if (!series) return;
  const weekly = WEEKLY_FAMILIES.includes(measure?.family ?? '');
  plan.steps.push({
    operation: 'value',
    query: { series, at: 'latest' },
    label: weekly ? 'the same week a year earlier' : 'a year earlier',
  });
  plan.steps.push({ operation: 'value', query: { series, at: 'latest' }, label: 'the latest figure' });
  plan.select = 'change-between';
  plan.yearEarlier = true;
}

function planChange(frame: Frame, plan: Plan): void {
  if (frame.operation.yearEarlier) {
    planYearEarlier(frame, plan);
    return;
  }
  const [first, second] = datedTimes(frame);
  const measure = frame.measures[0];
  if (!measure || !first) return;
  for (const place of frame.places.length > 0 ? frame.places : [undefined]) {
    const series = seriesOf(measure, place);
    if (!series) continue;
    if (first.grain === 'week' && second?.grain === 'week') {
      plan.steps.push({ operation: 'value', query: { series, from: first.from, to: first.to }, label: first.text });
      plan.steps.push({ operation: 'value', query: { series, from: second.from, to: second.to }, label: second.text });
      plan.select = 'change-between';
      continue;
    }
    const within = !second && withinPeriod(frame, measure, first);
    // "Why did the conforming limit go down in 2023": a yearly figure's change in a year is from the year before.
    const yearOver = !second && yearOverYear(frame, measure, first);
    const to = within || yearOver ? momentOf(first) : frame.timeRelation === 'since' || !second ? undefined : momentOf(second);
    const from = yearOver ? String(Number(momentOf(first)) - 1) : momentOf(first);
    const fromFirst = within || startsAtFirst(frame, measure, first, to);
    plan.steps.push({
      operation: 'change',
      query: {
        series,
        from,
        ...(to ? { to } : {}),
        ...(fromFirst ? { from_first: true } : {}),
        ...(within ? { to_last: true } : {}),
      },
      label: labelOf(place, undefined),
    });
    if (within && place === (frame.places[0] ?? undefined))
      plan.readings.push(`"${first.text.trim().replace(/[?!.,;:]+$/, '')}" as from its first ${surveyWord(measure)} to its last`);
    // A year's span is told by the series composer (first and latest figure, low and high); another period is said here.
    else if (fromFirst && first.grain !== 'year' && place === (frame.places[0] ?? undefined))
      plan.readings.push(`"${first.text.trim()}" as from the first ${surveyWord(measure)} of ${momentOf(first)} to the latest`);
  }
}

/** Series published once a week (the survey of a week is one figure, dated by its Thursday). */
const WEEKLY_FAMILIES = ['pmms'];

/** Series published more often than the period asked (weekly, daily, quarterly). */
const FINER_THAN_A_YEAR = ['pmms', 'optimal-blue', 'nmdb'];

const surveyWord = (measure: MeasureSlot) => (measure.family === 'nmdb' ? 'quarter' : measure.family === 'pmms' ? 'survey' : 'figure');

/** Periods a finer series has several figures in, named as one analysis moment. */
const PERIOD_GRAINS = ['year', 'quarter', 'month'];

/**
 * "How much did the 30-year rate change in 2024" (one period, no "since" or "from"): the change
 * within it, from its first figure to its last, not from its mean to today's figure.
 */
function withinPeriod(frame: Frame, measure: MeasureSlot, time: TimeSlot): boolean {
  return frame.timeRelation === 'within' && FINER_THAN_A_YEAR.includes(measure.family) && PERIOD_GRAINS.includes(time.grain);
}

/** One year asked on its own of a series with one figure a year (loan limits, HMDA counts): that year against the one before. */
function yearOverYear(frame: Frame, measure: MeasureSlot, time: TimeSlot): boolean {
  return frame.timeRelation === 'within' && time.grain === 'year' && !FINER_THAN_A_YEAR.includes(measure.family);
}

/**
 * "Since the start of 2025", "year to date", "since January": a change from a period to now starts
 * at the period's first figure, not its mean.
 */
function startsAtFirst(frame: Frame, measure: MeasureSlot, first: TimeSlot, to: string | undefined): boolean {
  if (to !== undefined || !FINER_THAN_A_YEAR.includes(measure.family)) return false;
  return ['year', 'quarter', 'month', 'season'].includes(first.grain) || (first.grain === 'day' && frame.timeRelation === 'since');
}

/**
 * "Texas vs Florida, Q3 2025, and a year earlier in Q3 2024": each period asked is compared, not
 * only the last one written; one period (or a range) is the one moment `when`.
 */
function comparedMoments(frame: Frame, when: string | undefined): [string | undefined, string][] {
  const dated = datedTimes(frame);
  if (frame.timeRelation !== 'each' || dated.length < 2) return [[when, '']];
  return dated.map((time) => [
    time.grain === 'week' || time.grain === 'season' ? time.to : momentOf(time),
    time.text.trim().replace(/[?!.,;:]+$/, ''),
  ]);
}

function planCompare(frame: Frame, plan: Plan): void {
  const time = frame.times.at(-1);
  const when = time && (time.grain === 'week' || time.grain === 'season') ? time.to : momentOf(time);
  const [a, b] = frame.measures;
  if (a && b) {
    const place = frame.places[0];
    const first = seriesOf(a, place);
    const second = seriesOf(b, place);
    if (first && second) plan.steps.push({ operation: 'compare', query: { series: first, other: second, ...(when ? { at: when } : {}) } });
    return;
  }
  if (!a) return;
  const threshold = frame.numbers.threshold;
  if (typeof threshold?.value === 'string') {
    const first = seriesOf(a, frame.places[0]);
    if (first) plan.steps.push({ operation: 'compare', query: { series: first, other: threshold.value, ...(when ? { at: when } : {}) } });
    return;
  }
  if (frame.places.length >= 2) {
    // "Texas vs Florida vs Georgia": the first against each of the others, none dropped.
    const [p, ...others] = frame.places;
    const first = seriesOf(a, p);
    for (const [at, label] of comparedMoments(frame, when))
      for (const q of others) {
        const second = seriesOf(a, q);
        if (first && second)
          plan.steps.push({ operation: 'compare', query: { series: first, other: second, ...(at ? { at } : {}) }, label });
      }
    return;
  }
  const [t1, t2] = datedTimes(frame);
  const series = seriesOf(a, frame.places[0]);
  if (series && t1 && t2)
    plan.steps.push({ operation: 'compare', query: { series, at: momentOf(t2), other: series, other_at: momentOf(t1) } });
}

function planRank(frame: Frame, plan: Plan): void {
  const measure = frame.measures[0];
  const set = frame.placeSet;
  if (!measure || !set || !placed(measure)) return;
  // "the states with the most counties above the baseline": the counties that meet it, counted by state.
  if (set.by === 'state' && frame.numbers.threshold) return planCount(frame, plan);
  const time = datedTimes(frame).at(-1);
  // "After Maricopa, which county …": the one named and the next.
  const named =
    frame.places.filter((place) => place.kind === (set.among === 'counties' ? 'county' : 'state')).length +
    (frame.numbers.ordinal ?? 1) -
    1;
  const limit = Math.min(frame.numbers.topN ?? (set.plural ? PLURAL_DEFAULT_LIMIT : TIME_SERIES_DEFAULT_LIMIT) + named, 100);
  const direction = frame.operation.direction ?? 'highest';
  for (const order of direction === 'both' ? (['highest', 'lowest'] as const) : [direction])
    plan.steps.push({
      operation: 'rank',
      query: {
        series: templateOf(measure),
        among: set.among,
        ...(set.state ? { state: set.state } : {}),
        ...(time ? { at: momentOf(time) } : {}),
        order,
        limit,
        ...(frame.numbers.per ? { per: frame.numbers.per } : {}),
      },
    });
}

function planCount(frame: Frame, plan: Plan): void {
  const measure = frame.measures[0];
  const threshold = frame.numbers.threshold;
  if (!measure || !threshold) return;
  const time = datedTimes(frame)[0];
  const condition = { [threshold.op]: String(threshold.value) };
  if (frame.placeSet && placed(measure)) {
    plan.steps.push({
      operation: 'count',
      query: {
        series: templateOf(measure),
        among: frame.placeSet.among,
        ...(frame.placeSet.state ? { state: frame.placeSet.state } : {}),
        ...(frame.placeSet.by ? { by: frame.placeSet.by } : {}),
        ...(time ? { at: momentOf(time) } : {}),
        ...condition,
      },
    });
    return;
  }
  const series = seriesOf(measure, frame.places[0]);
  if (!series) return;
  const range = frame.timeRelation === 'since' ? { from: momentOf(time) } : rangeQuery(time);
  plan.steps.push({ operation: 'count', query: { series, ...range, ...condition } });
}

function planOverTime(frame: Frame, plan: Plan, operation: 'crossing' | 'extremes'): void {
  const measure = frame.measures[0];
  if (!measure) return;
  const series = seriesOf(measure, frame.places[0]);
  if (!series) return;
  const dated = datedTimes(frame);
  const range =
    frame.timeRelation === 'since'
      ? { from: momentOf(dated[0]) }
      : dated.length >= 2
        ? { from: momentOf(dated[0]), to: momentOf(dated.at(-1)) }
        : rangeQuery(dated[0]);
  if (
    operation === 'extremes' &&
    measure.family !== 'pmms' &&
    measure.family !== 'optimal-blue' &&
    measure.family !== 'nmdb' &&
    dated.length <= 1 &&
    frame.timeRelation !== 'since' &&
    dated[0]
  ) {
    planValues(frame, plan);
    return;
  }
  if (operation === 'extremes' && dated.length >= 2 && dated[0]?.from !== dated[1]?.from) {
    // "from its 2021 low to its 2023 high": each period's extremes, then the change between them.
    plan.steps.push({ operation, query: { series, ...rangeQuery(dated[0]) }, label: dated[0]?.text.trim() ?? '' });
    plan.steps.push({ operation, query: { series, ...rangeQuery(dated[1]) }, label: dated[1]?.text.trim() ?? '' });
    plan.select = 'low-to-high';
    return;
  }
  if (operation === 'extremes') {
    plan.steps.push({ operation, query: { series, ...range } });
    plan.say = frame.operation.direction === 'both' ? undefined : frame.operation.direction;
    return;
  }
  const threshold = frame.numbers.threshold;
  if (!threshold) return;
  plan.steps.push({
    operation,
    query: { series, [threshold.op]: String(threshold.value), which: frame.operation.which ?? 'last', ...range },
  });
  // If it never crossed, how close it came: the extremes of the same range.
  if (Object.keys(range).length > 0) plan.steps.push({ operation: 'extremes', query: { series, ...range } });
}

function planShare(frame: Frame, plan: Plan): void {
  const measure = frame.measures[0];
  const time = datedTimes(frame)[0];
  const at = time ? { at: momentOf(time) } : {};
  if (!measure) return;
  // A catalogue share ("the VA share") stands for its part of its whole; a count is the part.
  const part: MeasureSlot = measure.share ? { ...measure, template: measure.share.part } : measure;
  const push = (partId: string | undefined, wholeId: string | undefined, label?: string) => {
    if (partId && wholeId)
      plan.steps.push({ operation: 'share', query: { part: partId, whole: wholeId, ...at }, ...(label ? { label } : {}) });
  };
  // "What share of all US originations were in California": the place's of the nation's.
  const nation = frame.places.find((place) => place.kind === 'nation');
  const local = frame.places.find((place) => place.kind !== 'nation');
  if (nation && local) return push(seriesOf(part, local), seriesOf(part, nation), labelOf(local, time));
  // "What % of home purchase loans were FHA": a code of one field within another's, which is not held.
  const crossed = crossedShare(frame);
  if (crossed) return planCrossedShare(frame, plan, crossed);
  // "FHA or VA loans", "refinances, cash-out ones too": two parts of one whole, each and together.
  const other = frame.measures[1];
  if (other?.share && measure.share && other.share.whole === measure.share.whole) return planTwoParts(frame, plan, [measure, other]);
  // "Cook County's FHA limit as a share of its conforming limit": the first measure of the second.
  if (other) return push(seriesOf(measure, frame.places[0]), seriesOf(other, frame.places[0]));
  if (measure.kind !== 'count' && !measure.share) return planValues(frame, plan);
  for (const place of frame.places.length > 0 ? frame.places : [undefined]) {
    const whole = measure.share
      ? seriesOf({ ...measure, template: measure.share.whole }, place)
      : measure.family === 'hmda'
        ? `hmda/${placeCode(place)}/records`
        : undefined;
    push(seriesOf(part, place), whole, labelOf(place, time));
  }
}

/** Each part's share of their whole, then the two together. */
function planTwoParts(frame: Frame, plan: Plan, [first, second]: [MeasureSlot, MeasureSlot]): void {
  const time = datedTimes(frame)[0];
  const at = time ? { at: momentOf(time) } : {};
  for (const place of frame.places.length > 0 ? frame.places : [undefined]) {
    const part = (measure: MeasureSlot) => (measure.share ? seriesOf({ ...measure, template: measure.share.part }, place) : undefined);
    const whole = first.share ? seriesOf({ ...first, template: first.share.whole }, place) : undefined;
    const [a, b] = [part(first), part(second)];
    if (!a || !b || !whole) continue;
    const label = labelOf(place, time);
    plan.steps.push({ operation: 'share', query: { part: a, whole, ...at }, label });
    plan.steps.push({ operation: 'share', query: { part: b, whole, ...at }, label });
    plan.steps.push({ operation: 'share', query: { part: a, plus: b, whole, ...at }, label: `${label ? `${label}, ` : ''}together` });
  }
}

function planPerResident(frame: Frame, plan: Plan): void {
  const measure = frame.measures[0];
  if (!measure) return;
  const time = datedTimes(frame)[0];
  const per = frame.numbers.per ?? 1000;
  if (frame.placeSet && frame.places.length === 0) {
    plan.steps.push({
      operation: 'rank',
      query: {
        series: templateOf(measure),
        among: frame.placeSet.among,
        ...(time ? { at: momentOf(time) } : {}),
        per,
        order: frame.operation.direction === 'lowest' ? 'lowest' : 'highest',
        limit: frame.numbers.topN ?? 5,
      },
    });
    return;
  }
  for (const place of frame.places) {
    const series = seriesOf(measure, place);
    if (series)
      plan.steps.push({
        operation: 'per-resident',
        query: { series, ...(time ? { at: momentOf(time) } : {}), per },
        label: labelOf(place, undefined),
      });
  }
}

function planPayment(frame: Frame, plan: Plan): void {
  const { amount, rate } = frame.numbers;
  const term = frame.numbers.termYears ?? frame.qualifiers.termYears;
  // "a loan the size of King County's 2026 conforming limit": the amount is that figure.
  const sized = frame.measures.find((candidate) => candidate.family.startsWith('loan-limits'));
  const amountFrom = amount === undefined && sized ? seriesOf(sized, frame.places[0]) : undefined;
  if (amount === undefined && !amountFrom) return;
  const sizedAt = amountFrom ? momentOf(datedTimes(frame).find((time) => time.grain === 'year')) : undefined;
  const query: Record<string, unknown> = {
    ...(amount !== undefined ? { amount } : { amount_from: amountFrom, ...(sizedAt ? { amount_at: sizedAt } : {}) }),
    ...(term !== undefined ? { term_years: term } : {}),
  };
  if (rate !== undefined) query.rate = rate;
  else {
    const measure = frame.measures.find((candidate) => candidate.family === 'pmms' || candidate.family === 'optimal-blue');
    if (!measure) return;
    query.series = measure.template;
    const time = frame.times.find((candidate) => candidate.grain !== 'year' || !amountFrom) ?? frame.times.at(-1);
    if (time) Object.assign(query, time.grain === 'week' || time.grain === 'season' ? { at: time.to } : { at: momentOf(time) });
  }
  plan.steps.push({ operation: 'payment', query });
}

/** The largest move, or the longest run of moves, one way within the period asked. */
function planMoves(frame: Frame, plan: Plan, operation: 'moves' | 'streak'): void {
  const measure = frame.measures[0];
  const series = measure ? seriesOf(measure, frame.places[0]) : undefined;
  if (!series) return;
  const dated = datedTimes(frame);
  const range =
    dated.length >= 2
      ? { from: momentOf(dated[0]), to: momentOf(dated.at(-1)) }
      : frame.timeRelation === 'since'
        ? { from: momentOf(dated[0]) }
        : rangeQuery(dated[0]);
  // No way named, or either ("the biggest one-week move"): the largest each way, none chosen for the user.
  // "The longest run of weeks under 4%": the run of observations beyond the threshold, not of moves.
  const threshold = frame.numbers.threshold;
  if (operation === 'streak' && typeof threshold?.value === 'number' && threshold.op !== 'equal') {
    plan.steps.push({ operation, query: { series, ...range, [threshold.op]: String(threshold.value) } });
    return;
  }
  const step = frame.operation.step;
  const directions = step === 'up' || step === 'down' ? [step] : ['up', 'down'];
  for (const direction of directions) plan.steps.push({ operation, query: { series, ...range, direction } });
}

const PLANNERS: Partial<Record<Frame['operation']['kind'], (frame: Frame, plan: Plan) => void>> = {
  value: planValues,
  average: planValues,
  change: planChange,
  compare: planCompare,
  rank: planRank,
  count: planCount,
  crossing: (frame, plan) => planOverTime(frame, plan, 'crossing'),
  extremes: (frame, plan) => planOverTime(frame, plan, 'extremes'),
  share: planShare,
  'per-resident': planPerResident,
  payment: planPayment,
  'biggest-move': (frame, plan) => planMoves(frame, plan, 'moves'),
  streak: (frame, plan) => planMoves(frame, plan, 'streak'),
};

/** The analysis steps of a frame (possibly none: then the look-up composers answer). */
export function planSteps(frame: Frame): Plan {
  const plan: Plan = { steps: [], refusals: [...frame.refusals], readings: [...frame.readings] };
  if (frame.refusals.some((refusal) => refusal.blocking)) return plan;
  PLANNERS[frame.operation.kind]?.(frame, plan);
  return plan;
}
