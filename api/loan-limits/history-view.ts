// The national loan-limit history as served (GET /loan-limits/history, /ask): each year's one-unit
// conforming baseline and high-cost ceiling since 1972 and FHA floor and ceiling since 2008, each
// figure with the title and URL of the source that states it. The request and response schemas live
// here once; the route, the OpenAPI document and the tests derive from them.
import { z } from 'zod';
import { NotFoundError } from '../platform/http/errors.ts';
import type { NationalHistory } from './history.ts';

export const HISTORY_PROGRAMS = ['conforming', 'fha', 'all'] as const;

const yearMessage = 'Give a 4-digit year from 1972 to 2100, e.g. 2008.';
const yearParam = z
  .string()
  .regex(/^\d{4}$/, { message: yearMessage })
  .transform(Number)
  .pipe(z.int().min(1972, { message: yearMessage }).max(2100, { message: yearMessage }));

export const LoanLimitHistoryQuerySchema = z
  .object({
    program: z.enum(HISTORY_PROGRAMS).default('all').describe('`conforming` (since 1972), `fha` (since 2008) or `all` (default).'),
    from: yearParam.optional().describe('First year, inclusive (default: the first year held).'),
    to: yearParam.optional().describe('Last year, inclusive (default: the last year held).'),
  })
  .refine((query) => query.from === undefined || query.to === undefined || query.from <= query.to, {
    message: "'from' must not be after 'to'.",
    path: ['from'],
  });

const SourceSchema = z.object({ title: z.string(), url: z.string() });

export const ConformingHistoryEntrySchema = z.object({
  year: z.int(),
  baseline: z.int().nullable().describe('National one-unit baseline limit; null where the cited sources give no figure for the year.'),
  ceiling: z.int().nullable().describe('High-cost ceiling, one unit (since 2008); null before.'),
  note: z.string().nullable(),
  source: SourceSchema,
  ceiling_source: SourceSchema.nullable().describe('Where the ceiling comes from when another source than the baseline.'),
});

export const FhaHistoryEntrySchema = z.object({
  year: z.int(),
  floor: z.int().describe('FHA national floor, one unit.'),
  ceiling: z.int().describe('FHA national ceiling, one unit.'),
  note: z.string().nullable(),
  source: SourceSchema,
});

export const LoanLimitHistoryResponseSchema = z.object({
  parameters: z.object({ program: z.enum(HISTORY_PROGRAMS), from: z.int(), to: z.int() }),
  units: z.string(),
  conforming: z.array(ConformingHistoryEntrySchema).optional().describe('Present unless program=fha.'),
  fha: z.array(FhaHistoryEntrySchema).optional().describe('Present unless program=conforming.'),
  notes: z.array(z.string()),
});

export type LoanLimitHistoryQuery = z.output<typeof LoanLimitHistoryQuerySchema>;
export type LoanLimitHistory = z.infer<typeof LoanLimitHistoryResponseSchema>;

/** The history for a program and year range; 404 when the range holds no year of that program. */
export function historyView(history: NationalHistory, query: LoanLimitHistoryQuery): LoanLimitHistory {
  const source = (key: string) => {
    const found = history.sources[key];
    return { title: found?.title ?? key, url: found?.url ?? '' };
  };
  const years = [...history.conforming, ...history.fha].map((entry) => entry.year);
  const from = query.from ?? Math.min(...years);
  const to = query.to ?? Math.max(...years);
  const inRange = (year: number) => year >= from && year <= to;
  const result: LoanLimitHistory = { parameters: { program: query.program, from, to }, units: history.units, notes: [] };
  if (query.program !== 'fha') {
    result.conforming = history.conforming.filter((entry) => inRange(entry.year)).map((entry) => ({
      year: entry.year,
      baseline: entry.baseline,
      ceiling: entry.ceiling,
      note: [entry.note, entry.ceiling_note].filter(Boolean).join(' ') || null,
      source: source(entry.source),
      ceiling_source: entry.ceiling_source ? source(entry.ceiling_source) : null,
    }));
  }
  if (query.program !== 'conforming') {
    result.fha = history.fha.filter((entry) => inRange(entry.year)).map((entry) => ({
      year: entry.year, floor: entry.floor, ceiling: entry.ceiling, note: entry.note ?? null, source: source(entry.source),
    }));
  }
  if ((result.conforming?.length ?? 0) + (result.fha?.length ?? 0) === 0) {
    const first = { conforming: history.conforming[0]?.year, fha: history.fha[0]?.year };
    throw new NotFoundError(
      `No national loan limits for ${from}–${to}: the conforming history runs ${first.conforming}–${history.conforming.at(-1)?.year}, ` +
        `the FHA history ${first.fha}–${history.fha.at(-1)?.year}.`,
    );
  }
  result.notes.push(
    'One-unit figures. County limits (1–4 units, 2018 on) are at /api/v1/loan-limits; a county\'s conforming limit lies between the baseline and the ceiling, its FHA limit between the floor and the ceiling.',
  );
  if (result.conforming?.some((entry) => entry.baseline === null)) {
    result.notes.push('Years whose baseline is null have no figure in the cited sources; none is guessed.');
  }
  return result;
}
