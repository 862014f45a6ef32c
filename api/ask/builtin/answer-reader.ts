// The built-in answerer's question reader, end to end: the question read into a frame (reader/),
// what cannot be answered said first, Fed meetings and unpublished years found against the data,
// the plan run through the analysis layer (and the calendar and loan-limit services), and the
// answer composed from their results. Nothing is computed here but the choice among computed
// results. A frame the planner cannot plan is handed back, with its refusals, to the look-up composers.
import { HttpError, toErrorResponse } from '../../platform/errors.ts';
import type { Operation } from '../../analysis/contract.ts';
import type { DatasetVersion } from '../../platform/contract/versions.ts';
import type { AnswerDraft, ComposerInput, BuiltinDeps } from './draft.ts';
import { readFrame } from './reader/read-frame.ts';
import type { Frame, Refusal } from './reader/frame.ts';
import { planSteps } from './reader/plan-frame.ts';
import { calendarAsks } from './reader/plan-calendar.ts';
import { refusalText } from './reader/honour.ts';
import type { Plan } from './reader/plan-types.ts';
import { answerCalendarAsks } from './reader-calendar.ts';
import { claimedCount, countPremiseText } from './reader/calendar-premise.ts';
import { alignToSurvey, resolveFedMeetings, unpublished, yearEarlierAt } from './reader-checks.ts';
import { composeRan, type Ran } from './reader-compose.ts';
import { extremesFollowUp } from './reader-extremes.ts';
import { unitsAsk, answerUnits } from './reader-units.ts';
import { preparePayments } from './reader-payment.ts';
import { answerInstitutions, ranksInstitutions } from './reader-lenders.ts';
import type { Coverage } from './reader/words.ts';

/** What the reader reads with: the services, each place's population (to tell counties of one name apart), today. */
export async function readerContext(deps: BuiltinDeps) {
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
  return { deps, populations, today: deps.clock() };
}

function analysisUrl(deps: BuiltinDeps, step: Plan['steps'][number]): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(step.query)) if (value !== undefined) query.set(key, String(value));
  return `${deps.config.baseUrl}/api/v1/analysis/${step.operation}?${query.toString()}`;
}

/** The read of a question: its frame, and the answer when the reader plans it. */
export interface ReaderResult {
  frame: Frame;
  coverage: Coverage;
  draft?: AnswerDraft;
}

/** HMDA measures the look-up composer's state and national summary gives. */
const HMDA_SUMMARY = ['records', 'applications', 'originations', 'denials', 'denial_rate', 'approval_rate'];

/** Whether the plan is the reader's to answer, or a single look-up the composers answer more fully. */
function readerAnswers(frame: Frame, plan: Plan): boolean {
  if (plan.steps.length === 0) return false;
  // The measure read does not cover a measure word of the question: the look-up composers answer.
  if (frame.measureGaps.length > 0 && plan.steps.every((step) => step.operation === 'value')) return false;
  // A rate for a credit score and down payment is the rates composer's (it finds the tier's cell and says which).
  if (frame.measures.some((measure) => measure.template.includes('/fico-'))) return false;
  const kind = frame.operation.kind;
  if (kind !== 'value' || plan.steps.some((step) => step.operation !== 'value')) return true;
  // "What is HMDA?" asks what a word means, not for a figure: a value needs a place or a time.
  if (frame.places.length === 0 && frame.times.length === 0) return false;
  if (frame.topic === 'outstanding') return true;
  // A state's or the nation's HMDA totals are the look-up composer's summary; any other HMDA measure is the reader's.
  if (frame.topic === 'hmda' && frame.measures.some((measure) => !HMDA_SUMMARY.some((key) => measure.template.endsWith(`/${key}`))))
    return true;
  // The HMDA composer holds no county figures: it would answer a county with its state's.
  if (frame.topic === 'hmda' && frame.places.some((place) => place.kind === 'county')) return true;
  // A county the look-up composers may not find ("san diego county" without its state).
  if (frame.places.some((place) => place.kind === 'county') && frame.times.some((time) => time.grain === 'year')) return true;
  if (frame.times.length >= 2 || frame.places.length >= 2 || frame.measures.length >= 2) return true;
  return frame.times.some((time) => ['week', 'day', 'quarter', 'month', 'season'].includes(time.grain));
}

async function runSteps(plan: Plan, deps: BuiltinDeps, refusals: Refusal[]) {
  const ran: Ran[] = [];
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
      // A dataset not loaded yet (503) is said like any other part that cannot be answered.
      if (!(error instanceof HttpError)) throw error;
      refusals.push({ part: step.label || 'part of the question', why: stepFailure(error), blocking: false });
    }
  }
  return { ran, sources, versions };
}

/**
 * Why a step could not be answered, in the reader's words. A 400 is a query the reader composed
 * badly, not something the asker wrote: its validation text ("Invalid value for 'at'") is never
 * shown. Other statuses (a dataset not loaded yet, a period not published) are said as they are.
 */
function stepFailure(error: HttpError): string {
  if (error.status !== 400) return `I can't answer it from the data held: ${toErrorResponse(error).body.error}`;
  return "I couldn't put this part into a question the data held answers; try naming the period and place plainly";
}

function refusalOnly(frame: Frame, refusals: readonly Refusal[], deps: BuiltinDeps): AnswerDraft {
  const readings = frame.readings.length > 0 ? [`(I read ${frame.readings.join('; ')}.)`] : [];
  return { text: [refusalText(refusals) ?? '', ...readings].join('\n\n'), sources: [`${deps.config.baseUrl}/api/v1/series`] };
}

/**
 * "How have rates moved since 2020?": the series composer tells a span (first and latest figure,
 * low and high); the reader answers it only when asked for something more (a mean, a place it read
 * the composers cannot, a part it cannot answer).
 */
function seriesSpan(frame: Frame, plan: Plan): boolean {
  const [only] = plan.steps;
  // "What was the 30-year rate in March 2022?": the composer lists the month's surveys with their mean.
  const periodValue = only?.operation === 'value' && frame.times.every((time) => ['month', 'quarter', 'year'].includes(time.grain));
  return (
    plan.steps.length === 1 &&
    // A change within one period ("in 2024") is its first figure to its last, which the composer does not give.
    ((only?.operation === 'change' && only.query.to_last !== true) || periodValue) &&
    plan.refusals.length === 0 &&
    plan.readings.length === 0 &&
    // A county stays the reader's unless it is the conforming limit, the one county series the
    // series composer reads (it answers an FHA or HMDA county span with a national figure).
    (frame.places.every((place) => place.kind !== 'county') ||
      frame.measures.every((measure) => measure.template.startsWith('loan-limits/conforming/{county}'))) &&
    !frame.operation.averaged &&
    frame.times.every((time) => time.grain === 'year' || periodValue)
  );
}

export async function answerWithReader(
  { question, deps }: ComposerInput,
  options: { seriesQuestion?: boolean } = {},
): Promise<ReaderResult> {
  const context = await readerContext(deps);
  const { frame, coverage } = await readFrame(question, context);
  await resolveFedMeetings(frame, deps);
  if (frame.refusals.some((refusal) => refusal.blocking)) return { frame, coverage, draft: refusalOnly(frame, frame.refusals, deps) };
  if (frame.topic === 'calendar' || (frame.measures.length === 0 && frame.operation.kind === 'calendar-arithmetic')) {
    const { asks, daysBetween, between, refusals } = calendarAsks(
      frame,
      coverage.words,
      context.today,
      (index) => coverage.slotOf(index) === 'times',
    );
    const answer = await answerCalendarAsks(asks, daysBetween, deps, between);
    const first = refusalText([...frame.refusals, ...refusals]);
    // "The Fed held twelve meetings in 2023": a count taken for granted is checked before the list.
    const claim = claimedCount(coverage.words, (index) => coverage.slotOf(index) === 'times');
    const tally = answer.tallies?.find((entry) => !asks.some((ask) => ask.first || ask.pick) && entry.count > 0);
    const premise = claim && tally ? countPremiseText(claim, tally) : undefined;
    return {
      frame,
      coverage,
      draft: { text: [premise, first, answer.text].filter(Boolean).join('\n\n'), sources: answer.sources, versions: answer.versions },
    };
  }
  if (
    ranksInstitutions(
      frame,
      coverage.words.map((word) => word.root),
    )
  )
    return { frame, coverage, draft: await answerInstitutions(frame, deps) };
  const units = unitsAsk(frame);
  if (units) {
    const answer = await answerUnits(units, frame, deps);
    return { frame, coverage, draft: answer };
  }
  const plan = planSteps(frame);
  if (options.seriesQuestion && seriesSpan(frame, plan)) return { frame, coverage };
  await unpublished(plan, deps);
  await alignToSurvey(plan, deps);
  await yearEarlierAt(plan, deps);
  if (!readerAnswers(frame, plan)) {
    if (plan.refusals.length > frame.refusals.length) return { frame, coverage, draft: refusalOnly(frame, plan.refusals, deps) };
    return { frame, coverage };
  }
  const refusals = [...plan.refusals];
  await preparePayments(plan, deps, refusals);
  const { ran, sources, versions } = await runSteps(plan, deps, refusals);
  if (ran.length === 0) return { frame, coverage, draft: refusalOnly(frame, refusals, deps) };
  const text = composeRan(ran, plan, frame, refusals, await extremesFollowUp(frame, ran, deps));
  if (sources.size === 0) sources.add(`${deps.config.baseUrl}/api/v1/series`);
  return { frame, coverage, draft: { text, sources: [...sources], versions } };
}
