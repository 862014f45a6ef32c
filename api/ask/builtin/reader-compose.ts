// Composes the reader's answer from what the analysis layer answered: what cannot be answered
// first (every part named in the first sentence), how the question's words were read, then each
// result in its own words, combined where the question asks for it (the change between two week
// means, the range from a high to a low), the method, and notes that change what a figure means.
import type { AnalysisAnswer } from '../../analysis/contract.ts';
import { change as changeOf } from '../../analysis/arithmetic.ts';
import { formatValue } from '../../analysis/points.ts';
import { NOT_ADVICE } from './draft.ts';
import type { Frame, Refusal } from './reader/frame.ts';
import { refusalText } from './reader/honour.ts';
import { premiseText } from './reader-premise.ts';
import type { Plan, Step } from './reader/plan-types.ts';

export interface Ran {
  step: Step;
  answer: AnalysisAnswer;
}

const minus = (text: string) => text.replaceAll(' -', ' −').replaceAll('(-', '(−');
const pointsOf = (units: string) => (units === 'percent' ? 'percentage points' : units);

/** "from the week of one Fed meeting to the week of another": the change between two values. */
function changeBetween(ran: readonly Ran[]): string | undefined {
  const [first, second] = ran
    .map((entry) => entry.answer)
    .filter((answer): answer is AnalysisAnswer<'value'> => answer.operation === 'value');
  if (!first || !second) return undefined;
  const computed = changeOf(first.result.point.value, second.result.point.value);
  if (computed.change === null) return undefined;
  const direction = computed.change > 0 ? 'up' : computed.change < 0 ? 'down' : 'unchanged at';
  return `From ${ran[0]?.step.label} to ${ran[1]?.step.label}: ${formatValue(first.result.point.value, first.result.units)} to ${formatValue(second.result.point.value, first.result.units)}, ${direction} **${Math.abs(computed.change)} ${pointsOf(first.result.units)}** (${computed.percent_change}%).`;
}

/** "from its 2021 low to its 2023 high": the first period's low, the second's high, and the change between them. */
function lowToHigh(ran: readonly Ran[]): string | undefined {
  const [first, second] = ran
    .map((entry) => entry.answer)
    .filter((answer): answer is AnalysisAnswer<'extremes'> => answer.operation === 'extremes');
  if (!first || !second || first.result.low === null || second.result.high === null) return undefined;
  const computed = changeOf(first.result.low, second.result.high);
  const units = first.result.units;
  return `From its ${ran[0]?.step.label} low of **${formatValue(first.result.low, units)}** (${first.result.low_dates.join(', ')}) to its ${ran[1]?.step.label} high of **${formatValue(second.result.high, units)}** (${second.result.high_dates.join(', ')}): up ${computed.change} ${pointsOf(units)}, **${computed.percent_change}%**.`;
}

/** Extremes: the high, the low, and how far apart they are. */
function extremesRange(answer: AnalysisAnswer<'extremes'>): string | undefined {
  const { high, low, units, high_dates: highDates, low_dates: lowDates } = answer.result;
  if (high === null || low === null) return undefined;
  const gap = changeOf(low, high);
  return `The high was **${formatValue(high, units)}** (${highDates.join(', ')}) and the low **${formatValue(low, units)}** (${lowDates.join(', ')}): ${gap.change} ${pointsOf(units)} apart.`;
}

/** A mean of rates, also at the two decimals the publishers print ("3.936%, 3.94% rounded"). */
function rounded(answer: AnalysisAnswer): string {
  if (answer.operation !== 'value') return '';
  const { point, units } = (answer as AnalysisAnswer<'value'>).result;
  if (point.how !== 'mean' || units !== 'percent' || point.value === null) return '';
  if (answer.answer.includes(`${point.value.toFixed(2)}% (`)) return '';
  return ` That is ${point.value.toFixed(2)}% at the two decimals the survey publishes.`;
}

/** The first or last figure of a period, read from a crossing of a bound every figure meets. */
function firstOrLast(entry: Ran): string | undefined {
  if (entry.answer.operation !== 'crossing' || !entry.step.label?.startsWith('the ')) return undefined;
  const found = (entry.answer as AnalysisAnswer<'crossing'>).result.found;
  const title = entry.answer.inputs[0]?.title ?? 'The series';
  return found ? `${title}, ${entry.step.label}: **${found.value}%** on ${found.date}.` : undefined;
}

function say(entry: Ran): string {
  const label = entry.step.label;
  const special = firstOrLast(entry);
  if (special) return special;
  return minus(`${label ? `${label.charAt(0).toUpperCase()}${label.slice(1)}: ` : ''}${entry.answer.answer}${rounded(entry.answer)}`);
}

/** Names beyond this many are counted, not listed: an answer stays readable. */
const MAX_NAMED = 60;

/** "How many … and which ones": the places counted, highest first, each with its figure. */
function placesCounted(entry: Ran, frame: Frame): string | undefined {
  if (entry.answer.operation !== 'count' || !frame.operation.names) return undefined;
  const { places } = (entry.answer as AnalysisAnswer<'count'>).result;
  if (!places || places.length === 0) return undefined;
  const units = entry.answer.inputs[0]?.units ?? '';
  const sorted = [...places].sort((a, b) => b.value - a.value);
  const named = sorted.slice(0, MAX_NAMED).map((place) => `${place.name} (${formatValue(place.value, units)})`);
  const more = sorted.length - named.length;
  return `They are: ${named.join('; ')}${more > 0 ? `; and ${more} more` : ''}.`;
}

function unreadNote(frame: Frame): string | undefined {
  if (frame.unread.length === 0) return undefined;
  return `(Words I did not use: ${frame.unread.map((word) => `“${word}”`).join(', ')}.)`;
}

export function composeRan(ran: readonly Ran[], plan: Plan, frame: Frame, refusals: readonly Refusal[], followUp?: string): string {
  const lines: string[] = [];
  // A false premise is corrected before anything else.
  const premise = premiseText(frame, ran);
  if (premise) lines.push(premise);
  const first = refusalText(refusals);
  if (first) lines.push(first + (ran.length > 0 ? ' What I can give:' : ''));
  if (plan.readings.length > 0) lines.push(`(I read ${plan.readings.join('; ')}.)`);
  const combined = plan.select === 'change-between' ? changeBetween(ran) : plan.select === 'low-to-high' ? lowToHigh(ran) : undefined;
  if (combined) lines.push(minus(combined));
  // What the question asks of the extremes (a payment at each, the time between) before the figures it comes from.
  if (followUp) lines.push(followUp);
  for (const entry of ran) {
    lines.push(say(entry));
    const names = placesCounted(entry, frame);
    if (names) lines.push(names);
    if (entry.answer.operation === 'extremes') {
      const range = extremesRange(entry.answer as AnalysisAnswer<'extremes'>);
      if (range) lines.push(range);
    }
  }
  const methods = [...new Set(ran.map((entry) => entry.answer.method))];
  if (methods.length > 0) lines.push(`How: ${methods.join(' ')}`);
  const notes = [...new Set(ran.flatMap((entry) => entry.answer.notes))].filter((note) =>
    /No population|different units|vintage/i.test(note),
  );
  if (notes.length > 0) lines.push(notes.join(' '));
  const unread = unreadNote(frame);
  if (unread) lines.push(unread);
  if (ran.some((entry) => entry.answer.operation === 'payment')) lines.push(NOT_ADVICE);
  return lines.join('\n\n');
}
