// A direction the question took for granted, checked against the change computed: "why did the
// conforming limit go down in 2023?" when it rose is corrected in the answer's first sentence, with
// the figures, before anything else; a premise the figures bear out is said to hold.
import type { AnalysisAnswer } from '../../analysis/contract.ts';
import { formatValue } from '../../analysis/points.ts';
import type { Frame } from './reader/frame.ts';

/** A year for yearly figures; the day when both figures fall in one year (the first and last survey of 2022). */
const periodsOf = (start: string, end: string) =>
  start.slice(0, 4) === end.slice(0, 4) ? [start, end] : [start.slice(0, 4), end.slice(0, 4)];

export function premiseText(frame: Frame, ran: readonly { answer: AnalysisAnswer }[]): string | undefined {
  const claimed = frame.operation.claimed;
  const entry = ran.find((candidate) => candidate.answer.operation === 'change');
  if (!claimed || !entry) return undefined;
  const { start, end, units, change } = (entry.answer as AnalysisAnswer<'change'>).result;
  if (change === null || start.value === null || end.value === null) return undefined;
  const title = entry.answer.inputs[0]?.title ?? 'the figure';
  const went = change > 0 ? 'rose' : change < 0 ? 'fell' : 'stayed the same';
  const [from, to] = periodsOf(start.date, end.date);
  const figures = `from ${formatValue(start.value, units)} (${from}) to ${formatValue(end.value, units)} (${to})`;
  const holds = (claimed === 'up' && change > 0) || (claimed === 'down' && change < 0);
  if (holds) return `The premise holds: ${title} ${went} ${figures}. The data gives the figures, not the reasons for them.`;
  return `That premise is not right: ${title} did not ${claimed === 'up' ? 'go up' : 'go down'}; it ${went} ${figures}.`;
}
