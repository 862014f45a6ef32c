// A payment's inputs that come from series: the amount as a published figure ("a loan the size of
// King County's 2026 conforming limit"), and a rate that is a period's mean, taken at the two
// decimals the survey publishes (a mean carries four), both said in the answer's readings.
import type { BuiltinDeps } from './draft.ts';
import type { Refusal } from './reader/frame.ts';
import type { Plan } from './reader/plan-types.ts';

async function valueOf(deps: BuiltinDeps, series: string, at: unknown) {
  const answer = await deps.services.analysis.run('value', { series, ...(typeof at === 'string' ? { at } : {}) });
  return {
    value: answer.result.point.value,
    title: answer.inputs[0]?.title ?? series,
    period: answer.result.point.period ?? answer.result.point.date,
    how: answer.result.point.how,
  };
}

export async function preparePayments(plan: Plan, deps: BuiltinDeps, refusals: Refusal[]): Promise<void> {
  for (const step of plan.steps) {
    if (step.operation !== 'payment') continue;
    const query = step.query;
    try {
      if (typeof query.amount_from === 'string') {
        const sized = await valueOf(deps, query.amount_from, query.amount_at);
        if (sized.value !== null) {
          query.amount = sized.value;
          plan.readings.push(`the loan amount as ${sized.title} (${sized.period}): $${sized.value.toLocaleString('en-US')}`);
        }
      }
      if (typeof query.series === 'string' && typeof query.at === 'string' && query.at.length < 10) {
        const rate = await valueOf(deps, query.series, query.at);
        if (rate.how === 'mean' && rate.value !== null) {
          query.rate = Math.round(rate.value * 100) / 100;
          plan.readings.push(`the rate as ${rate.title}, ${rate.period} mean ${rate.value}%, at the survey's two decimals: ${query.rate}%`);
          delete query.series;
          delete query.at;
        }
      }
    } catch {
      refusals.push({ part: 'the payment', why: 'a figure it needs is not held', blocking: false });
    }
    delete query.amount_from;
    delete query.amount_at;
  }
}
