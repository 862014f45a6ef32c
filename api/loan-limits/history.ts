// The national loan-limit history fact file (data/loan-limits/national-history.json): conforming
// baseline since 1972 and high-cost ceiling since 2008, FHA floor and ceiling since 2008, each
// value with its source. Read once, checked with zod so a bad edit fails loudly.
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { PROJECT_ROOT } from '../config.ts';

export const HISTORY_FILE = path.join(PROJECT_ROOT, 'data', 'loan-limits', 'national-history.json');

const amount = z.int().min(10_000).max(5_000_000);

const HistorySchema = z.object({
  description: z.string(),
  units: z.string(),
  sources: z.record(z.string(), z.object({ title: z.string(), url: z.url() })),
  conforming: z.array(
    z.object({
      year: z.int().min(1970),
      baseline: amount.nullable(),
      ceiling: amount.nullable(),
      source: z.string(),
      note: z.string().optional(),
      ceiling_source: z.string().optional(),
      ceiling_note: z.string().optional(),
    }),
  ),
  fha: z.array(
    z.object({
      year: z.int().min(1970),
      floor: amount,
      ceiling: amount,
      source: z.string(),
      note: z.string().optional(),
      /** Present when the year's figures are computed here (HUD's file for it is not in the source set): the method. */
      computed: z.string().optional(),
    }),
  ),
});

export type NationalHistory = z.infer<typeof HistorySchema>;

let cached: NationalHistory | undefined;

/** The parsed fact file; throws naming the file when it is malformed or cites an unknown source. */
export function readNationalHistory(file = HISTORY_FILE): NationalHistory {
  if (cached && file === HISTORY_FILE) return cached;
  const parsed = HistorySchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
  if (!parsed.success)
    throw new Error(`${file}: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
  const history = parsed.data;
  for (const entry of [...history.conforming, ...history.fha]) {
    const cited = [entry.source, 'ceiling_source' in entry ? entry.ceiling_source : undefined];
    for (const key of cited) {
      if (key !== undefined && !history.sources[key]) throw new Error(`${file}: year ${entry.year} cites unknown source "${key}".`);
    }
  }
  if (file === HISTORY_FILE) cached = history;
  return history;
}

export function historyFor(program: 'conforming' | 'fha', year: number): { floor: number | null; ceiling: number | null } | undefined {
  const history = readNationalHistory();
  if (program === 'conforming') {
    const entry = history.conforming.find((candidate) => candidate.year === year);
    return entry ? { floor: entry.baseline, ceiling: entry.ceiling } : undefined;
  }
  const entry = history.fha.find((candidate) => candidate.year === year);
  return entry ? { floor: entry.floor, ceiling: entry.ceiling } : undefined;
}

/** The method of a year's FHA floor and ceiling when they are computed here rather than published by HUD. */
export function fhaComputedMethod(year: number): string | undefined {
  return readNationalHistory().fha.find((entry) => entry.year === year)?.computed;
}

const dollars = (value: number) => `$${value.toLocaleString('en-US')}`;

/**
 * The one way every face says that HUD's county limits of a year are not loaded, and what is known of
 * that year's national FHA figures: computed ones are labelled computed, with their method.
 */
export function fhaYearNotLoaded(year: number): string {
  const entry = readNationalHistory().fha.find((candidate) => candidate.year === year);
  const national = !entry
    ? ''
    : entry.computed
      ? ` Its national floor and ceiling for ${year}, ${dollars(entry.floor)} and ${dollars(entry.ceiling)}, are computed here, not published by HUD: ${entry.computed}.`
      : ` HUD's national floor and ceiling for ${year} are ${dollars(entry.floor)} and ${dollars(entry.ceiling)}.`;
  return `HUD's ${year} FHA county limits are not loaded.${national}`;
}
