// The view of the home page (see site/views/format.ts for why views exist): its figures, read
// through the same services as the API: the latest weekly survey and benchmark readings with a year
// of history for the chart, the next economic calendar events and this year's conforming baseline
// and ceiling. Each part stands alone, so one dataset not loaded yet
// (before the first sync) leaves the others shown; the page renders once per data version.
import type { CoreDeps } from '../../api/platform/core-deps.ts';
import type { DomainServices, UsesServices } from '../../api/domain-services.ts';
import { LoanLimitsQuerySchema } from '../../api/loan-limits/contract.ts';
import { live, type Live } from './live.ts';
import type { ChartSeries } from '../lib/chart.ts';
import { RATE_CHART_SERIES } from './rate-history.ts';
import { seriesFreshness } from './freshness.ts';
import type { Freshness } from '../../api/freshness/contract.ts';
import { isoDay } from '../../api/platform/dates.ts';

/** The home page reads today, the survey rates, the calendar and one county's loan limit (faults logged). */
type HomeFiguresDeps = Pick<CoreDeps, 'clock' | 'logger'> & UsesServices<'calendar' | 'loanLimits' | 'series'>;

export interface Cited {
  source_url: string;
  as_of: string | null;
}

export interface RateReading extends Cited {
  id: string;
  label: string;
  value: number;
  date: string;
  /** The reading before this one, and the change to this one in percentage points. */
  previous: { value: number; date: string; change: number } | null;
  /** The reading a year (52 weeks) before, or the last one before that day. */
  yearAgo: { value: number; date: string } | null;
  /** How old the reading is today, and whether its publisher has released a newer one since. */
  freshness: Freshness;
}

export interface HomeFigures {
  rates: Live<{ readings: RateReading[]; chart: ChartSeries[]; from: string; to: string }>;
  events: Live<{
    events: { name: string; date: string; impact: string; source_url: string }[];
    as_of: string | null;
    to: string;
  }>;
  limits: Live<{ year: number; baseline: number; ceiling: number } & Cited>;
}

/** How far back the home page's chart reaches. */
const CHART_YEARS = 1;
const NEXT_EVENTS = 5;

/** `date` moved by whole years and days (UTC), YYYY-MM-DD. */
function shift(date: string, years: number, days = 0): string {
  const moved = new Date(`${date}T00:00:00Z`);
  moved.setUTCFullYear(moved.getUTCFullYear() + years);
  moved.setUTCDate(moved.getUTCDate() + days);
  return isoDay(moved);
}

const valued = (observations: { date: string; value: number | null }[]) =>
  observations.flatMap((observation) =>
    observation.value === null ? [] : [{ date: observation.date, value: observation.value }],
  );

/**
 * Each line's latest published reading (the publishers stop at different dates: the 15-year survey
 * and the benchmark may end before the 30-year), and the year of history up to the newest of them.
 */
async function readRates(deps: HomeFiguresDeps, today: string) {
  const series = deps.services.series;
  const held: { id: string; label: string; info: Awaited<ReturnType<typeof series.info>> }[] = [];
  let firstError: unknown;
  for (const line of RATE_CHART_SERIES) {
    try {
      const info = await series.info(line.id);
      if (info.last_date !== null) held.push({ id: line.id, label: line.label, info });
    } catch (error) {
      firstError ??= error;
    }
  }
  if (held.length === 0)
    throw firstError ?? Object.assign(new Error('No rate has been published yet.'), { status: 404 });
  const to = held
    .map((line) => line.info.last_date as string)
    .sort()
    .at(-1) as string;
  const from = shift(to, -CHART_YEARS);
  const readings: RateReading[] = [];
  const chart: ChartSeries[] = [];
  for (const { id, label, info } of held) {
    // A daily series has holidays without a value: look back two weeks for the last one.
    const recent = valued((await series.answer(id, { from: shift(info.last_date as string, 0, -14) })).observations);
    const last = recent.at(-1);
    const before = recent.at(-2);
    if (last) {
      readings.push({
        id: info.id,
        label,
        value: last.value,
        date: last.date,
        source_url: info.source_url,
        as_of: info.as_of,
        previous: before
          ? { value: before.value, date: before.date, change: pointsBetween(before.value, last.value) }
          : null,
        yearAgo: await yearAgo(series, id, last.date),
        freshness: seriesFreshness(info.id, label, last.date, today),
      });
    }
    // A series that ended before the chart's year is a 404 for that range: it is left out of the chart.
    const inRange = await series.answer(id, { from }).catch((error: { status?: number }) => {
      if (error.status === 404) return undefined;
      throw error;
    });
    const points = inRange ? valued(inRange.observations) : [];
    if (points.length > 0) chart.push({ id: info.id, label, points });
  }
  return { readings, chart, from, to };
}

/** b − a in percentage points, to the hundredth, in decimal (readings have at most three decimals). */
export function pointsBetween(a: number, b: number): number {
  return (Math.round(b * 1000) - Math.round(a * 1000)) / 1000;
}

/** The reading 52 weeks before `date` (a weekly survey's same week last year), or the last one before it. */
async function yearAgo(series: DomainServices['series'], id: string, date: string): Promise<RateReading['yearAgo']> {
  const target = shift(date, 0, -364);
  const answer = await series
    .answer(id, { from: shift(target, 0, -14), to: target })
    .catch((error: { status?: number }) => {
      if (error.status === 404) return undefined;
      throw error;
    });
  const found = answer ? valued(answer.observations).at(-1) : undefined;
  return found ? { value: found.value, date: found.date } : null;
}

async function readLimits(deps: HomeFiguresDeps) {
  // Any state's answer carries the national figures; DC has a single county, so it is the smallest.
  const answer = await deps.services.loanLimits.answer(
    LoanLimitsQuerySchema.parse({ state: 'DC', loan_type: 'conforming', units: 1 }),
  );
  const national = answer.national.conforming;
  const baseline = national?.baseline['1'];
  const ceiling = national?.ceiling['1'];
  const source = answer.sources.find((candidate) => candidate.loan_type === 'conforming');
  if (baseline === undefined || ceiling === undefined || !source) {
    throw Object.assign(new Error(`The ${answer.year} conforming baseline and ceiling are not loaded.`), {
      status: 404,
    });
  }
  return {
    year: answer.years.conforming ?? answer.year,
    baseline,
    ceiling,
    source_url: source.url,
    as_of: source.as_of,
  };
}

export async function readHomeFigures(deps: HomeFiguresDeps | undefined): Promise<HomeFigures> {
  const today = deps ? deps.clock() : new Date();
  const [rates, events, limits] = await Promise.all([
    live(deps, (d) => readRates(d, isoDay(today))),
    live(deps, async (d) => {
      const answer = await d.services.calendar.answer({ from: isoDay(today), limit: NEXT_EVENTS });
      return { events: answer.events, as_of: answer.as_of, to: answer.to };
    }),
    live(deps, (d) => readLimits(d)),
  ]);
  return { rates, events, limits };
}
