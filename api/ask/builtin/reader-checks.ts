// Checks of a frame and a plan against the data, before anything is answered: a Fed meeting named
// by month is the FOMC decision of that month on the calendar (or a refusal when there is none),
// and a year, quarter or day after a series' latest figure is said to be unpublished, first, rather
// than answered with an earlier figure.
import type { BuiltinDeps } from './draft.ts';
import type { Frame } from './reader/frame.ts';
import type { Plan } from './reader/plan-types.ts';
import { addDays, isoDay, mondayOf } from '../../platform/dates.ts';
import { MONTH_NAMES } from '../../platform/contract/months.ts';
import { surveyOfWeek } from '../../analysis/points.ts';

const pad = (value: number) => String(value).padStart(2, '0');
const lastDay = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

export async function resolveFedMeetings(frame: Frame, deps: BuiltinDeps): Promise<void> {
  if (frame.topic === 'calendar') return;
  for (const [index, time] of frame.times.entries()) {
    const meeting = time.fedMeeting;
    if (!meeting) continue;
    const from = `${meeting.year}-${pad(meeting.month)}-01`;
    const to = `${meeting.year}-${pad(meeting.month)}-${pad(lastDay(meeting.year, meeting.month))}`;
    const events = await deps.services.calendar.answer({ from, to, category: ['fed'], limit: 5 }).catch(() => undefined);
    const decision = events?.events[0];
    const name = `the ${MONTH_NAMES[meeting.month - 1]} ${meeting.year} Fed meeting`;
    if (!decision) {
      frame.refusals.push({
        part: name,
        why: `the calendar holds no Federal Reserve (FOMC) decision in ${time.text.trim()}`,
        blocking: false,
      });
      continue;
    }
    frame.readings.push(`${name} as the FOMC decision of ${decision.date}`);
    const monday = mondayOf(decision.date);
    frame.times[index] = meeting.week
      ? { grain: 'week', from: monday, to: addDays(monday, 6), text: `the week of ${name}` }
      : { grain: 'day', from: decision.date, to: decision.date, text: name };
  }
}

/** The first day a moment covers ("2027" → 2027-01-01, "2025Q3" → 2025-07-01). */
function startOf(moment: string): string {
  if (moment.length === 4) return `${moment}-01-01`;
  if (moment.length === 6 && moment[4] === 'Q') return `${moment.slice(0, 4)}-${pad((Number(moment[5]) - 1) * 3 + 1)}-01`;
  if (moment.length === 7) return `${moment}-01`;
  return moment;
}

/** Drops the steps asking for a moment after their series' latest figure, saying so first. */
export async function unpublished(plan: Plan, deps: BuiltinDeps): Promise<void> {
  const kept: Plan['steps'] = [];
  for (const step of plan.steps) {
    const series = typeof step.query.series === 'string' && !step.query.series.includes('*') ? step.query.series : undefined;
    // A change's end is a figure of its own; a range's end may run past the latest figure.
    const moments = ['at', 'from', ...(step.operation === 'change' ? ['to'] : [])]
      .map((key) => step.query[key])
      .filter((value): value is string => typeof value === 'string' && value !== 'latest');
    const held = series ? await deps.services.series.read(series).catch(() => undefined) : undefined;
    const last = held?.series.dates.at(-1);
    const late = last ? moments.find((moment) => startOf(moment) > last) : undefined;
    if (held && last && late) {
      plan.refusals.push({
        part: `${held.series.title} for ${late}`,
        why: `${late} has not been published yet: the latest figure held is for ${held.series.periods?.at(-1) ?? last}`,
        blocking: false,
      });
      continue;
    }
    kept.push(step);
  }
  plan.steps = kept;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A weekly survey set beside a daily series on a day or week ("Optimal Blue vs Freddie Mac on June
 * 12, 2025", "… the week of June 9"): both are read on the survey's own date (its Thursday), not on
 * the day or the week's Sunday, so the daily figure is of the day the survey was published.
 */
export async function alignToSurvey(plan: Plan, deps: BuiltinDeps): Promise<void> {
  for (const step of plan.steps) {
    const { series, other, at, other_at: otherAt } = step.query;
    if (step.operation !== 'compare' || typeof at !== 'string' || !DAY.test(at) || otherAt !== undefined) continue;
    if (typeof series !== 'string' || typeof other !== 'string') continue;
    const [a, b] = await Promise.all([series, other].map((id) => deps.services.series.read(id).catch(() => undefined)));
    const frequencies = [a?.series.frequency, b?.series.frequency];
    const weekly = frequencies[0] === 'weekly' ? a : frequencies[1] === 'weekly' ? b : undefined;
    if (!weekly || !frequencies.includes('daily')) continue;
    const survey = surveyOfWeek(weekly.series, at);
    if (survey) step.query.at = survey.date;
  }
}

/** The same day a year before ("2026-10-08" → "2025-10-08"). */
function yearBefore(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCFullYear(date.getUTCFullYear() - 1);
  return isoDay(date);
}

/**
 * "Compared with the same week a year earlier": the first step is read on the day a year before its
 * series' latest observation (52 weeks for a weekly survey, so the same weekday's survey), the last
 * observation by that day.
 */
export async function yearEarlierAt(plan: Plan, deps: BuiltinDeps): Promise<void> {
  const [step] = plan.steps;
  if (!plan.yearEarlier || !step || typeof step.query.series !== 'string') return;
  const read = await deps.services.series.read(step.query.series).catch(() => undefined);
  if (!read) return;
  const { dates, values, frequency } = read.series;
  const index = values.findLastIndex((value) => value !== null && value !== undefined);
  const latest = dates[index];
  if (latest === undefined) return;
  step.query.at = frequency === 'weekly' ? addDays(latest, -364) : yearBefore(latest);
  step.label = `${step.label} (${step.query.at})`;
  const last = plan.steps[1];
  if (last) last.label = `${last.label} (${latest})`;
}
