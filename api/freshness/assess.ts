// How old a figure is against a reference day (today, or the day a past answer is asked for) and
// whether a newer one should exist by its publisher's schedule: a figure is stale when at least one
// scheduled release since its date was published before the reference day and is not what we hold.
// A release counts from the day after it is published, which leaves the daily sync its day to load it.
import type { ReleaseSchedule } from './schedules.ts';
import type { Freshness } from './contract.ts';
import { daysBetween } from '../platform/dates.ts';

/** Missed releases listed in full up to this many; beyond, the most recent ones (the count says how many). */
const LISTED_RELEASES = 10;

export interface FigureToAssess {
  /** The record field holding the figure, e.g. `survey_rate`. */
  field: string;
  /** The publisher's series in words, e.g. "Freddie Mac PMMS 30-year fixed". */
  series: string;
  as_of: string;
  schedule: ReleaseSchedule;
}

export function assessFreshness(figure: FigureToAssess, referenceDay: string): Freshness {
  const missed = figure.schedule.releasesBetween(figure.as_of, referenceDay).filter((release) => release.publishedOn < referenceDay);
  const dates = missed.map((release) => release.figureDate);
  return {
    field: figure.field,
    series: figure.series,
    as_of: figure.as_of,
    checked_on: referenceDay,
    age_days: Math.max(0, daysBetween(figure.as_of, referenceDay)),
    schedule: figure.schedule.description,
    stale: missed.length > 0,
    missed_release_count: missed.length,
    missed_releases: dates.slice(-LISTED_RELEASES),
  };
}

const listed = (dates: readonly string[], count: number): string =>
  count <= dates.length ? dates.join(', ') : `the latest ${dates.length}: ${dates.join(', ')}`;

/** One sentence for a stale figure, for disclaimers, tool text and pages. */
export function staleSentence(entry: Freshness): string {
  const releases = entry.missed_release_count === 1 ? 'release' : 'releases';
  return (
    `${entry.series} is from ${entry.as_of}, ${entry.age_days} days before ${entry.checked_on}; ${entry.missed_release_count} scheduled ${releases} ` +
    `since then ${entry.missed_release_count === 1 ? 'is' : 'are'} not loaded here (${listed(entry.missed_releases, entry.missed_release_count)}), so a newer figure exists ` +
    `(published ${entry.schedule}).`
  );
}

/** The sentence for every stale figure of an answer (each series once), or undefined when all are current. */
export function staleSentences(entries: readonly Freshness[]): string | undefined {
  const seen = new Set<string>();
  const sentences: string[] = [];
  for (const entry of entries) {
    if (!entry.stale || seen.has(`${entry.series}|${entry.as_of}`)) continue;
    seen.add(`${entry.series}|${entry.as_of}`);
    sentences.push(staleSentence(entry));
  }
  return sentences.length === 0 ? undefined : `Not current: ${sentences.join(' ')}`;
}

/** Each figure's age, once per series: "Freddie Mac … (30-year fixed rate): 50 days old on 2026-11-27, stale (7 scheduled releases since not loaded)". */
export function freshnessText(entries: readonly Freshness[]): string {
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const entry of entries) {
    if (seen.has(entry.series)) continue;
    seen.add(entry.series);
    const missed = `${entry.missed_release_count} scheduled release${entry.missed_release_count === 1 ? '' : 's'} since not loaded`;
    parts.push(`${entry.series}: ${entry.age_days} days old on ${entry.checked_on}, ${entry.stale ? `stale (${missed})` : 'current'}`);
  }
  return parts.length === 0 ? '' : `Freshness: ${parts.join('; ')}.`;
}
