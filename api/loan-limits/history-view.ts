// The national loan-limit history as served (GET /loan-limits/history, /ask): each year's one-unit
// conforming baseline and high-cost ceiling since 1972 and FHA floor and ceiling since 2008, each
// figure with the title and URL of the source that states it. The request and response schemas are
// the loan-limits contract's (./contract.ts).
import { BadRequestError, NotFoundError } from '../platform/errors.ts';
import type { LoanLimitHistory, LoanLimitHistoryQuery } from './contract.ts';
import type { NationalHistory } from './history.ts';

/** The history for a program and year range; 404 when the range holds no year of that program. */
export function historyView(history: NationalHistory, query: LoanLimitHistoryQuery): LoanLimitHistory {
  if (query.from !== undefined && query.to !== undefined && query.from > query.to) {
    throw new BadRequestError(`Invalid value for 'from': ${query.from} is after 'to' (${query.to}); 'from' must not be after 'to'.`);
  }
  const source = (key: string) => {
    const found = history.sources[key];
    return { title: found?.title ?? key, url: found?.url ?? '' };
  };
  const years = [...history.conforming, ...history.fha].map((entry) => entry.year);
  const from = query.from ?? Math.min(...years);
  const to = query.to ?? Math.max(...years);
  const inRange = <Entry extends { year: number }>(entries: readonly Entry[]) =>
    entries.filter((entry) => entry.year >= from && entry.year <= to);
  const result: LoanLimitHistory = { parameters: { program: query.program, from, to }, units: history.units, notes: [] };
  if (query.program !== 'fha') {
    result.conforming = inRange(history.conforming).map((entry) => ({
      year: entry.year,
      baseline: entry.baseline,
      ceiling: entry.ceiling,
      note: [entry.note, entry.ceiling_note].filter(Boolean).join(' ') || null,
      source: source(entry.source),
      ceiling_source: entry.ceiling_source ? source(entry.ceiling_source) : null,
    }));
  }
  if (query.program !== 'conforming') {
    result.fha = inRange(history.fha).map((entry) => ({
      year: entry.year,
      floor: entry.floor,
      ceiling: entry.ceiling,
      note: entry.note ?? null,
      source: source(entry.source),
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
    "One-unit figures. County limits (1–4 units, 2018 on) are at /api/v1/loan-limits; a county's conforming limit lies between the baseline and the ceiling, its FHA limit between the floor and the ceiling.",
  );
  if (result.conforming?.some((entry) => entry.baseline === null)) {
    result.notes.push('Years whose baseline is null have no figure in the cited sources; none is guessed.');
  }
  return result;
}
