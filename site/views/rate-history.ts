// The rates chart's history, read from the series service (see site/views/format.ts for why views
// exist), so the chart shows exactly what GET /api/v1/series answers: the weekly survey's 30- and
// 15-year lines and the daily benchmark, each as the chart geometry (site/lib/chart.ts) draws it.
import type { SeriesService } from '../../api/series/service.ts';
import type { ChartSeries } from '../lib/chart.ts';

export interface RateHistory {
  from: string;
  to: string | null;
  series: (ChartSeries & { id: string })[];
}

/** The lines of the rates chart: the weekly survey (30- and 15-year) and the daily benchmark. */
export const RATE_CHART_SERIES: readonly { id: string; label: string }[] = [
  { id: 'pmms/30-year', label: 'Freddie Mac PMMS 30-year fixed (weekly survey)' },
  { id: 'pmms/15-year', label: 'Freddie Mac PMMS 15-year fixed (weekly survey)' },
  { id: 'optimal-blue/conforming-30-year', label: 'Optimal Blue 30-year conforming (daily benchmark)' },
];

/**
 * Observations since `from` (YYYY-MM-DD) of each line, as published. A line whose data is not
 * loaded or has nothing in the range is left out, so one missing publisher never hides the others;
 * when no line can be drawn, the first line's error (a 503 saying the dataset is not loaded) is thrown.
 */
export async function readRateHistory(series: SeriesService, from: string): Promise<RateHistory> {
  const lines: RateHistory['series'] = [];
  let firstError: unknown;
  for (const line of RATE_CHART_SERIES) {
    try {
      const answer = await series.answer(line.id, { from });
      const points = answer.observations.flatMap((observation) =>
        observation.value === null ? [] : [{ date: observation.date, value: observation.value }],
      );
      // A path on this site, whatever address the page was reached by.
      const csv = new URL(answer.csv_url);
      lines.push({ id: answer.id, label: line.label, points, csvUrl: `${csv.pathname}${csv.search}` });
    } catch (error) {
      firstError ??= error;
    }
  }
  if (lines.length === 0 && firstError !== undefined && (firstError as { status?: number }).status !== 404)
    throw firstError;
  const to = lines.reduce<string | null>((latest, line) => {
    const last = line.points.at(-1)?.date ?? null;
    return last !== null && (latest === null || last > latest) ? last : latest;
  }, null);
  return { from, to, series: lines };
}
