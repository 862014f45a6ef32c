// One series answer, as JSON (the contract's SeriesAnswer) and as CSV: what the series is, the
// observations asked for, how they were computed, and the source and as-of date it rests on.
import type { SeriesAnswer, SeriesInfo, SeriesQuery } from './contract.ts';
import type { HeldSeries } from './types.ts';
import type { DatasetVersion } from '../platform/contract/versions.ts';
import { AVERAGE_METHOD, normaliseRange, observationsIn, targetFrequency } from './window.ts';

export const seriesUrl = (baseUrl: string, id: string) => `${baseUrl}/api/v1/series/${id}`;

export function seriesInfo(series: HeldSeries, baseUrl: string): SeriesInfo {
  return {
    id: series.id,
    title: series.title,
    family: series.family,
    publisher: series.publisher,
    frequency: series.frequency,
    units: series.units,
    first_date: series.dates[0] ?? null,
    last_date: series.dates.at(-1) ?? null,
    observation_count: series.dates.length,
    source_url: series.sourceUrl,
    as_of: series.asOf,
    url: seriesUrl(baseUrl, series.id),
    ...(series.aliases && series.aliases.length > 0 ? { aliases: series.aliases } : {}),
  };
}

/** The answer for a range; `versions` are the loads the series was read from (none for files shipped with the code). */
export function buildAnswer(series: HeldSeries, query: SeriesQuery, baseUrl: string, versions: readonly DatasetVersion[]): SeriesAnswer {
  const range = normaliseRange(query.from, query.to);
  const frequency = targetFrequency(series, query.frequency);
  const computed = series.computed;
  const observations = observationsIn(series, range, frequency).map((observation) =>
    computed !== undefined &&
    frequency === series.frequency &&
    observation.period !== undefined &&
    computed[observation.period] !== undefined
      ? { ...observation, computed: true as const }
      : observation,
  );
  const source = { url: series.sourceUrl, as_of: series.asOf, name: series.sourceName };
  const others = (series.otherSources ?? [])
    .filter((other) => other.url !== series.sourceUrl)
    .map((other) => ({ url: other.url, as_of: series.asOf, name: other.name }));
  const csv = new URLSearchParams();
  if (query.from !== undefined) csv.set('from', query.from);
  if (query.to !== undefined) csv.set('to', query.to);
  if (frequency !== series.frequency) csv.set('frequency', frequency);
  csv.set('format', 'csv');
  const notes = [...series.notes];
  if (frequency !== series.frequency && observations.some((observation) => observation.value === null)) {
    notes.push('A period whose observations were all suppressed by the publisher has a null mean.');
  }
  return {
    ...seriesInfo(series, baseUrl),
    frequency,
    native_frequency: series.frequency,
    aggregation:
      frequency === series.frequency
        ? null
        : {
            from_frequency: series.frequency,
            to_frequency: frequency,
            method: AVERAGE_METHOD[frequency as 'monthly' | 'quarterly' | 'annual'],
          },
    range,
    count: observations.length,
    observations,
    notes,
    source,
    sources: [source, ...others],
    csv_url: `${seriesUrl(baseUrl, series.id)}?${csv.toString()}`,
    dataset_versions: [...versions],
  };
}

const CSV_HEADER = 'series_id,date,period,value,count,source_url,as_of';

function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The answer as CSV: one row per observation, each carrying the series id, its source and as-of. */
export function answerCsv(answer: SeriesAnswer): string {
  const tail = `${csvField(answer.source.url)},${csvField(answer.source.as_of)}`;
  const lines = [CSV_HEADER];
  for (const observation of answer.observations) {
    lines.push(
      `${csvField(answer.id)},${observation.date},${csvField(observation.period ?? observation.date)},${csvField(observation.value)},${csvField(observation.count)},${tail}`,
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** "pmms-30-year_2016-10-13_2026-10-08.csv": a file name that says what the download holds. */
export function csvFileName(answer: SeriesAnswer): string {
  const first = answer.observations[0]?.date ?? 'start';
  const last = answer.observations.at(-1)?.date ?? 'end';
  const frequency = answer.aggregation ? `_${answer.frequency}` : '';
  return `${answer.id.replaceAll('/', '-')}${frequency}_${first}_${last}.csv`;
}
