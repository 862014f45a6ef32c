// Questions that combine figures ("how many weeks above 7%", "top 3 states", "FHA share in Cook
// County", "the week of the December 2024 Fed meeting"): the question reader's plan, run through
// the analysis layer, composed with what could not be answered said first. Every figure comes from
// an analysis answer (or the calendar and loan-limit services); nothing is computed here but the
// choice among computed results.
import { HttpError, toErrorResponse } from '../../platform/errors.ts';
import type { AnalysisAnswer, Operation } from '../../analysis/contract.ts';
import { change as changeOf, difference } from '../../analysis/arithmetic.ts';
import { formatValue } from '../../analysis/points.ts';
import type { DatasetVersion } from '../../platform/contract/versions.ts';
import type { AnswerDraft, ComposerInput, BuiltinDeps } from './draft.ts';
import { NOT_ADVICE, formatDate } from './draft.ts';
import { planFor, type Plan, type Step } from './reader/plan.ts';

const minus = (text: string) => text.replace(/(^|[\s(])-(?=\d)/g, '$1−');

async function readerContext(deps: BuiltinDeps) {
  const hmdaYears = await deps.services.series
    .read('hmda/US/records')
    .then(({ series }) => (series.periods ?? []).map(Number))
    .catch(() => [] as number[]);
  const populations = new Map<string, number>();
  try {
    const { series } = await deps.services.series.readFamily('population');
    for (const [id, held] of series) {
      const value = held.values.at(-1);
      if (typeof value === 'number') populations.set(id.slice('population/'.length), value);
    }
  } catch {
    // population not loaded: counties of one name are then told apart by state only
  }
  return { deps, hmdaYears, populations };
}

function analysisUrl(deps: BuiltinDeps, step: Step): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(step.query)) if (value !== undefined) query.set(key, String(value));
  return `${deps.config.baseUrl}/api/v1/analysis/${step.operation}?${query.toString()}`;
}

interface Ran {
  step: Step;
  answer: AnalysisAnswer;
}

async function calendarAnswer(plan: Plan & { calendar: NonNullable<Plan['calendar']> }, deps: BuiltinDeps): Promise<AnswerDraft> {
  const { calendar } = plan;
  const answer = await deps.services.calendar.answer({
    from: calendar.from,
    to: calendar.to,
    ...(calendar.category ? { category: [calendar.category] } : {}),
    limit: 200,
  });
  const what = calendar.category === 'fed' ? 'Federal Reserve (FOMC) decisions' : 'economic data releases';
  const sources = [
    ...new Set([
      `${deps.config.baseUrl}/api/v1/calendar?from=${calendar.from}&to=${calendar.to}${calendar.category ? `&category=${calendar.category}` : ''}`,
      ...answer.events.map((event) => event.source_url),
    ]),
  ];
  if (answer.events.length === 0) {
    return {
      text: `The calendar holds no ${what} from ${formatDate(calendar.from)} to ${formatDate(calendar.to)}; I won't guess dates the publishers have not posted.`,
      sources,
      versions: answer.dataset_versions,
    };
  }
  const lines = answer.events.map((event) => `- ${formatDate(event.date)} (${event.date}): ${event.name} — ${event.impact} impact`);
  const head = calendar.count
    ? `There ${answer.events.length === 1 ? 'was' : 'were'} **${answer.events.length}** ${what} from ${formatDate(calendar.from)} to ${formatDate(calendar.to)}:`
    : `${what.charAt(0).toUpperCase()}${what.slice(1)} scheduled from ${formatDate(calendar.from)} to ${formatDate(calendar.to)} (${answer.events.length}):`;
  return { text: [head, lines.join('\n')].join('\n\n'), sources, versions: answer.dataset_versions };
}

/** "which year had the biggest jump": the step with the largest change. */
function largestChange(ran: Ran[]): string | undefined {
  const changes = ran.filter((entry): entry is Ran & { answer: AnalysisAnswer<'change'> } => entry.answer.operation === 'change');
  const best = changes.reduce<(typeof changes)[number] | undefined>(
    (top, entry) => ((entry.answer.result.change ?? -Infinity) > (top?.answer.result.change ?? -Infinity) ? entry : top),
    undefined,
  );
  if (!best) return undefined;
  const { start, end, change, percent_change: percent, units } = best.answer.result;
  return `The biggest jump was **${best.step.label}**: ${formatValue(start.value, units)} to ${formatValue(end.value, units)}, up **${formatValue(change, units)}** (${percent}%).`;
}

/** "from the week of one Fed meeting to the week of another": the change between two values. */
function changeBetween(ran: Ran[]): string | undefined {
  const [first, second] = ran
    .map((entry) => entry.answer)
    .filter((answer): answer is AnalysisAnswer<'value'> => answer.operation === 'value');
  if (!first || !second) return undefined;
  const computed = changeOf(first.result.point.value, second.result.point.value);
  if (computed.change === null) return undefined;
  const direction = computed.change > 0 ? 'up' : computed.change < 0 ? 'down' : 'unchanged at';
  const units = first.result.units === 'percent' ? 'percentage points' : first.result.units;
  return `From ${ran[0]?.step.label} to ${ran[1]?.step.label}: ${formatValue(first.result.point.value, first.result.units)} to ${formatValue(second.result.point.value, first.result.units)}, ${direction} **${Math.abs(computed.change)} ${units}** (${computed.percent_change}%).`;
}

/** "from its 2021 low to its 2023 high": the two extremes and the change between them. */
function lowToHigh(ran: Ran[]): string | undefined {
  const [low, high] = ran
    .map((entry) => entry.answer)
    .filter((answer): answer is AnalysisAnswer<'extremes'> => answer.operation === 'extremes');
  if (!low || !high || ran.length !== 2) return undefined;
  const computed = changeOf(low.result.low, high.result.high);
  return `From its ${ran[0]?.step.label} low of **${formatValue(low.result.low, low.result.units)}** (${low.result.low_dates.join(', ')}) to its ${ran[1]?.step.label} high of **${formatValue(high.result.high, high.result.units)}** (${high.result.high_dates.join(', ')}): up ${computed.change} percentage points, **${computed.percent_change}%**.`;
}

async function unitsAnswer(units: [number, number], deps: BuiltinDeps, ran: Ran[]): Promise<string | undefined> {
  const value = ran[0]?.answer as AnalysisAnswer<'value'> | undefined;
  const fips = (ran[0]?.step.query.series as string | undefined)?.split('/').at(-1);
  const year = value?.result.point.period;
  if (!fips || !year) return undefined;
  const state = (ran[0]?.answer.inputs[0]?.title ?? '').match(/, ([A-Z]{2})$/)?.[1];
  if (!state) return undefined;
  const limits = await deps.services.loanLimits
    .getLoanLimits({ state, county: fips, year: Number(year), loan_type: 'conforming' })
    .catch(() => undefined);
  const county = limits?.counties[0];
  const byUnits = county?.conforming?.limits;
  if (!county || !byUnits) return undefined;
  const [a, b] = units;
  const first = byUnits[String(a) as '1'] ?? null;
  const second = byUnits[String(b) as '1'] ?? null;
  const computed = difference(first, second);
  return `In ${county.county}, ${county.state}, the ${year} conforming limit is **${formatValue(first, 'US dollars')}** for a ${a}-unit home and **${formatValue(second, 'US dollars')}** for a ${b}-unit home: a difference of **${formatValue(computed.difference, 'US dollars')}**.`;
}

function say(answer: AnalysisAnswer, label: string | undefined): string {
  return minus(`${label ? `${label.charAt(0).toUpperCase()}${label.slice(1)}: ` : ''}${answer.answer}`);
}

/** The plan's answer, or undefined when the question is not one the reader plans (the look-up composers answer it). */
export async function answerAnalysis(
  { question, deps }: ComposerInput,
  options: { seriesQuestion?: boolean } = {},
): Promise<AnswerDraft | undefined> {
  const plan = await planFor(question, await readerContext(deps));
  if (!plan) return undefined;
  // "How have rates moved since 2020?": the series composer tells the span (first and latest
  // observation, low and high); a change between two averages is planned only when asked for.
  const [only] = plan.steps;
  // Not when the reader resolved a place the look-up composers cannot see (a misspelling, a city).
  if (
    options.seriesQuestion &&
    plan.steps.length === 1 &&
    plan.cannot.length === 0 &&
    plan.readings.length === 0 &&
    only?.operation === 'change' &&
    /^\d{4}$/.test(String(only.query.from)) &&
    !/\b(average|mean)\b/i.test(question)
  )
    return undefined;
  if (plan.calendar) return calendarAnswer(plan as Plan & { calendar: NonNullable<Plan['calendar']> }, deps);
  const ran: Ran[] = [];
  const cannot = [...plan.cannot];
  const sources = new Set<string>();
  const versions: DatasetVersion[] = [];
  for (const step of plan.steps) {
    try {
      const answer = await deps.services.analysis.run(step.operation as Operation, step.query);
      ran.push({ step, answer });
      sources.add(analysisUrl(deps, step));
      for (const source of answer.sources) sources.add(source.url);
      for (const version of answer.dataset_versions)
        if (!versions.some((known) => known.dataset === version.dataset)) versions.push(version);
    } catch (error) {
      if (!(error instanceof HttpError) || error.status >= 500) throw error;
      cannot.push(`I can't answer ${step.label ?? 'that part'} from the data held: ${toErrorResponse(error).body.error}`);
    }
  }
  if (ran.length === 0 && cannot.length === 0) return undefined;
  const lines: string[] = [];
  if (cannot.length > 0) lines.push(cannot.join(' ') + (ran.length > 0 ? ' What I can give:' : ''));
  if (plan.readings.length > 0) lines.push(`(I read ${plan.readings.join('; ')}.)`);
  const combined =
    plan.select === 'largest-change' ? largestChange(ran) : plan.select === 'change-between' ? changeBetween(ran) : lowToHigh(ran);
  if (combined) lines.push(minus(combined));
  const unitLine = plan.units ? await unitsAnswer(plan.units, deps, ran) : undefined;
  if (unitLine) lines.push(unitLine);
  else if (plan.select !== 'largest-change') for (const entry of ran) lines.push(say(entry.answer, entry.step.label));
  const methods = [...new Set(ran.map((entry) => entry.answer.method))];
  if (methods.length > 0) lines.push(`How: ${methods.join(' ')}`);
  const notes = [...new Set(ran.flatMap((entry) => entry.answer.notes))].filter((note) =>
    /No population|different units|vintage/i.test(note),
  );
  if (notes.length > 0) lines.push(notes.join(' '));
  if (ran.some((entry) => entry.answer.operation === 'payment')) lines.push(NOT_ADVICE);
  if (sources.size === 0) sources.add(`${deps.config.baseUrl}/api/v1/series`);
  return { text: lines.join('\n\n'), sources: [...sources], versions };
}
