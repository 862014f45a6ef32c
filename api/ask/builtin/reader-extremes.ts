// What a question asks of a period's high and low beyond the figures themselves: the monthly payment
// on the loan it names at each ("how much more a month at this year's highest rate than at its
// lowest": both payments and the difference), or the time between the two ("how many weeks apart
// were the year's high and low"). Each payment is computed by the analysis layer's payment operation.
import type { AnalysisAnswer } from '../../analysis/contract.ts';
import { daysBetween } from '../../platform/dates.ts';
import { formatDate, type BuiltinDeps } from './draft.ts';
import type { Frame } from './reader/frame.ts';
import type { Ran } from './reader-compose.ts';

const money = (value: number) => `$${value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

async function paymentsAt(extremes: AnalysisAnswer<'extremes'>, frame: Frame, deps: BuiltinDeps): Promise<string | undefined> {
  const { high, low, high_dates: highDates, low_dates: lowDates } = extremes.result;
  const amount = frame.numbers.amount;
  const term = frame.numbers.termYears ?? frame.measures[0]?.qualifiers.term;
  if (high === null || low === null || amount === undefined || typeof term !== 'number') return undefined;
  const at = async (rate: number) =>
    ((await deps.services.analysis.run('payment', { amount, rate, term_years: term })) as AnalysisAnswer<'payment'>).result.monthly_payment;
  const [atHigh, atLow] = await Promise.all([at(high), at(low)]);
  const more = Math.round((atHigh - atLow) * 100) / 100;
  return (
    `A $${amount.toLocaleString('en-US')} ${term}-year fixed loan: at the high of ${high}% (${highDates.join(', ')}) ` +
    `${money(atHigh)} a month, at the low of ${low}% (${lowDates.join(', ')}) ${money(atLow)} a month: ` +
    `**${money(more)} more a month** at the high (principal and interest only).`
  );
}

function apart(extremes: AnalysisAnswer<'extremes'>): string | undefined {
  const [highDay] = extremes.result.high_dates;
  const [lowDay] = extremes.result.low_dates;
  if (!highDay || !lowDay) return undefined;
  const days = Math.abs(daysBetween(highDay, lowDay));
  const weeks = days / 7;
  const [first, second] = highDay < lowDay ? ['high', 'low'] : ['low', 'high'];
  const ties = extremes.result.high_dates.length + extremes.result.low_dates.length > 2 ? ' (the first date each was reached)' : '';
  return `The ${first} (${formatDate(highDay < lowDay ? highDay : lowDay)}) came **${days} days** (${Number.isInteger(weeks) ? weeks : weeks.toFixed(1)} weeks) before the ${second} (${formatDate(highDay < lowDay ? lowDay : highDay)})${ties}.`;
}

/** The line a question asks of the extremes found, said before them; undefined when it asks nothing more. */
export async function extremesFollowUp(frame: Frame, ran: readonly Ran[], deps: BuiltinDeps): Promise<string | undefined> {
  const then = frame.operation.then;
  const extremes = ran.find((entry) => entry.answer.operation === 'extremes')?.answer as AnalysisAnswer<'extremes'> | undefined;
  if (!then || !extremes) return undefined;
  return then === 'payment' ? paymentsAt(extremes, frame, deps) : apart(extremes);
}
