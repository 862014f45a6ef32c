// The history the rate and loan-limit tools add when asked for a range: `from`/`to` on
// get_mortgage_rates (the weekly survey and the product's daily benchmark over those dates) and
// `from_year`/`to_year` on get_loan_limits (the county's, or the nation's, one-unit limits over those
// years), answered by the series service. Long ranges come as monthly (then annual) means, saying
// so, so a tool result stays within what a model's context comfortably holds.
import { z } from 'zod';
import type { UsesServices } from '../domain-services.ts';
import { BadRequestError, HttpError } from '../platform/errors.ts';
import { integer } from '../platform/contract/lenient.ts';
import { AggregationSchema, FREQUENCIES, ObservationSchema, SeriesQuerySchema, type SeriesAnswer } from './contract.ts';
import { normaliseRange } from './window.ts';

/** A tool's history is read from the series. */
type SeriesHistoryDeps = UsesServices<'series'>;

/** Observations per series a tool result carries before it averages to a coarser frequency. */
export const TOOL_HISTORY_POINTS = 260;

export const RateRangeSchema = z.object({
  from: SeriesQuerySchema.shape.from.describe('Adds history from this year, month or day.'),
  to: SeriesQuerySchema.shape.to.describe('End of that history.'),
});

const yearBound = (what: string) =>
  integer({ min: 1972, max: 2100, hint: 'Give a 4-digit year from 1972 to 2100, e.g. 2018.' }).optional().describe(what);

export const LimitRangeSchema = z.object({
  from_year: yearBound('Adds yearly history from this year (national since 1972).'),
  to_year: yearBound('End of that history.'),
});

export const HistorySeriesSchema = z.object({
  id: z.string().describe('The series, as GET /api/v1/series/{id} names it.'),
  title: z.string(),
  units: z.string(),
  frequency: z.enum(FREQUENCIES),
  aggregation: AggregationSchema.nullable(),
  observations: z.array(ObservationSchema),
  source_url: z.string(),
  as_of: z.string().nullable(),
  csv_url: z.string().describe('Every observation of the range, as CSV.'),
  extremes: z
    .object({
      low: z.number(),
      low_dates: z.array(z.string()),
      high: z.number(),
      high_dates: z.array(z.string()),
    })
    .nullable()
    .describe('The lowest and highest observation of the range as published (not a mean), with each date it was reached.'),
});
export type HistorySeries = z.infer<typeof HistorySeriesSchema>;

export const HistorySchema = z
  .object({
    from: z.string().nullable(),
    to: z.string().nullable(),
    series: z.array(HistorySeriesSchema),
    notes: z.array(z.string()).describe('Series left out (not loaded, nothing in the range) and how long ranges were averaged.'),
  })
  .describe('Present when a range was asked for.');
export type History = z.infer<typeof HistorySchema>;

type Observed = { date: string; value: number | null };

/** The low and high of observations as published, with every date each was reached. */
function extremesOf(observations: readonly Observed[]): HistorySeries['extremes'] {
  const values = observations.filter((observation): observation is { date: string; value: number } => observation.value !== null);
  if (values.length === 0) return null;
  const low = Math.min(...values.map((observation) => observation.value));
  const high = Math.max(...values.map((observation) => observation.value));
  const datesAt = (value: number) => values.filter((observation) => observation.value === value).map((observation) => observation.date);
  return { low, low_dates: datesAt(low), high, high_dates: datesAt(high) };
}

async function historyOf(
  deps: SeriesHistoryDeps,
  id: string,
  range: { from?: string; to?: string },
): Promise<{ series?: HistorySeries; note?: string }> {
  try {
    let answer: SeriesAnswer = await deps.services.series.answer(id, range);
    // The record low and high of the range are the published observations', whatever means the text then shows.
    const extremes = extremesOf(answer.observations);
    for (const frequency of ['monthly', 'annual'] as const) {
      if (answer.count <= TOOL_HISTORY_POINTS) break;
      const coarser = answer.native_frequency === 'annual' || (frequency === 'monthly' && answer.native_frequency === 'quarterly');
      if (coarser) continue;
      answer = await deps.services.series.answer(id, { ...range, frequency });
    }
    const { title, units, frequency, aggregation, observations, source, as_of, csv_url } = answer;
    const full = new URL(csv_url);
    full.searchParams.delete('frequency');
    return {
      series: {
        id: answer.id,
        title,
        units,
        frequency,
        aggregation,
        observations,
        source_url: source.url,
        as_of,
        csv_url: full.toString(),
        extremes,
      },
    };
  } catch (error) {
    // A series not loaded or without observations in the range is said, and the others still answer.
    if (error instanceof HttpError && error.status !== 400) return { note: `${id}: ${error.message}` };
    throw error;
  }
}

/** What a range asks for beyond a series' latest observation: said, so "to 2027" never reads as a figure for 2027. */
function unpublishedTail(series: HistorySeries, to: string | undefined): string | undefined {
  const last = series.observations.at(-1);
  if (!to || !last) return undefined;
  // A year ("2026"), a month of means ("2026-09") or a day, compared with the same part of `to`.
  const lastKey = series.frequency === 'annual' ? last.date.slice(0, 4) : (last.period ?? last.date);
  if (to.slice(0, lastKey.length) <= lastKey) return undefined;
  return `${series.id}: no figure after ${lastKey} (the range asked runs to ${to}): not yet published, or not loaded here.`;
}

async function historyFor(deps: SeriesHistoryDeps, ids: readonly string[], range: { from?: string; to?: string }): Promise<History> {
  const parts = await Promise.all(ids.map((id) => historyOf(deps, id, range)));
  const series = parts.flatMap((part) => (part.series ? [part.series] : []));
  const notes = parts.flatMap((part) => (part.note ? [part.note] : []));
  for (const entry of series) {
    const unpublished = unpublishedTail(entry, range.to);
    if (unpublished) notes.push(unpublished);
  }
  for (const entry of series)
    if (entry.aggregation)
      notes.push(
        `${entry.id}: ${entry.aggregation.to_frequency} means (${entry.aggregation.method}) of the range's observations; every observation is at ${entry.csv_url}.`,
      );
  return { from: range.from ?? null, to: range.to ?? null, series, notes };
}

/** The survey and the benchmark behind a rate record of this product and term. */
export function rateHistoryIds(productType: string, loanTerm: number): string[] {
  const survey = loanTerm === 15 ? 'pmms/15-year' : 'pmms/30-year';
  const benchmark =
    productType === 'conventional'
      ? loanTerm === 15
        ? 'optimal-blue/conforming-15-year'
        : 'optimal-blue/conforming-30-year'
      : `optimal-blue/${productType}-30-year`;
  return [survey, benchmark];
}

export async function rateHistory(
  deps: SeriesHistoryDeps,
  args: { from?: string; to?: string; product_type: string; loan_term: number },
): Promise<History | undefined> {
  if (args.from === undefined && args.to === undefined) return undefined;
  const range = { ...(args.from !== undefined ? { from: args.from } : {}), ...(args.to !== undefined ? { to: args.to } : {}) };
  // Checked here, before any series answers, so a backwards range is one 400 whatever is loaded.
  normaliseRange(args.from, args.to);
  return historyFor(deps, rateHistoryIds(args.product_type, args.loan_term), range);
}

export interface LimitHistoryRequest {
  from_year?: number;
  to_year?: number;
  loan_type: string;
  /** Units of the property (1–4): a county's limits for that many units; the national series are one-unit. */
  units?: number;
  /** The county the answer is for, when one was asked. */
  fips?: string;
}

/** The one-unit limit series a loan-limit answer's history follows. */
export function limitHistoryIds(request: LimitHistoryRequest): string[] {
  const programs =
    request.loan_type === 'fha'
      ? ['fha']
      : request.loan_type === 'all'
        ? ['conforming', 'fha']
        : request.loan_type === 'usda'
          ? []
          : ['conforming'];
  const units = request.units !== undefined && request.units > 1 ? `/${request.units}-unit` : '';
  if (request.fips) return programs.map((program) => `loan-limits/${program}/${request.fips}${units}`);
  return programs.flatMap((program) =>
    program === 'fha'
      ? ['loan-limits/fha/floor', 'loan-limits/fha/ceiling']
      : ['loan-limits/conforming/baseline', 'loan-limits/conforming/ceiling'],
  );
}

export async function limitHistory(deps: SeriesHistoryDeps, request: LimitHistoryRequest): Promise<History | undefined> {
  if (request.from_year === undefined && request.to_year === undefined) return undefined;
  if (request.from_year !== undefined && request.to_year !== undefined && request.from_year > request.to_year) {
    throw new BadRequestError(
      `Invalid range: 'from_year' (${request.from_year}) is after 'to_year' (${request.to_year}); give 'from_year' on or before 'to_year'.`,
    );
  }
  const range = {
    ...(request.from_year !== undefined ? { from: String(request.from_year) } : {}),
    ...(request.to_year !== undefined ? { to: String(request.to_year) } : {}),
  };
  const history = await historyFor(deps, limitHistoryIds(request), range);
  if (request.loan_type === 'usda') history.notes.push('USDA guaranteed loans have no loan limit, so there is no history to give.');
  if (request.loan_type === 'va') history.notes.push('VA uses the conforming limit: the history is the conforming one.');
  return history;
}

/** Characters of values each series' text may use: the whole text stays within a model's budget. */
const VALUES_TEXT_CHARS = 2_400;

/** The values as "date value" pairs, as many as fit; the rest named with the call that reads them. */
function valuesText(series: HistorySeries, format: (value: number, units: string) => string): string {
  const label = (point: { date: string; period?: string | undefined }) => point.period ?? point.date;
  const parts: string[] = [];
  let used = 0;
  for (const [index, point] of series.observations.entries()) {
    const part = `${label(point)} ${point.value === null ? 'n/a' : format(point.value, series.units)}`;
    if (used + part.length + 2 > VALUES_TEXT_CHARS) {
      const next = series.observations[index]!;
      return (
        `Values: ${parts.join('; ')}; … ${series.observations.length - index} more from ${label(next)}: ` +
        `call again with from="${next.date}", or read mds://series/${series.id}?from=${next.date}.`
      );
    }
    parts.push(part);
    used += part.length + 2;
  }
  return `Values: ${parts.join('; ')}.`;
}

/** The history as text a model can answer from: each series' values, its true low and high with their dates, its source. */
export function historyText(history: History, format: (value: number, units: string) => string): string {
  const lines = history.series.flatMap((series) => {
    const extremes = series.extremes;
    if (series.observations.length === 0 || !extremes) return [`${series.title}: no figure in the range.`];
    const means = series.aggregation ? ` (${series.aggregation.to_frequency} means below)` : '';
    return [
      `${series.title} (${series.id})${means}: low ${format(extremes.low, series.units)} on ${extremes.low_dates.join(', ')}, ` +
        `high ${format(extremes.high, series.units)} on ${extremes.high_dates.join(', ')} (observations as published). ` +
        `Source: ${series.source_url}, as of ${series.as_of}.`,
      valuesText(series, format),
    ];
  });
  return [
    `History${history.from ? ` from ${history.from}` : ''}${history.to ? ` to ${history.to}` : ''}:`,
    ...lines,
    ...history.notes,
  ].join('\n');
}
