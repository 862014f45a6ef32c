// Server-side SVG line chart geometry: scales, polyline points and axis ticks, so the rates page
// draws its history without any client-side code (the history itself is read in
// site/views/rate-history.ts).

export interface ChartSeries {
  label: string;
  points: { date: string; value: number }[];
  /** The series this line draws: its id and the same observations as CSV. */
  id?: string;
  csvUrl?: string;
}

export interface ChartGeometry {
  width: number;
  height: number;
  plot: { left: number; right: number; top: number; bottom: number };
  lines: { label: string; points: string; last: { x: number; y: number; value: number; date: string } | null }[];
  yTicks: { y: number; label: string }[];
  xTicks: { x: number; label: string }[];
}

const time = (date: string): number => Date.parse(`${date}T00:00:00Z`);

/** What the values are: rates in percent (the default) or dollar amounts such as loan limits. */
export type ChartUnit = 'percent' | 'dollars';

/** A value as the chart's axis and description print it. */
export function formatChartValue(value: number, unit: ChartUnit = 'percent'): string {
  return unit === 'dollars' ? `$${Math.round(value).toLocaleString('en-US')}` : `${value.toFixed(2)}%`;
}

/** Dollar axes step by a round amount that gives four to eight gridlines. */
function dollarScale(min: number, max: number): { min: number; max: number; step: number } {
  const steps = [25_000, 50_000, 100_000, 200_000, 250_000, 500_000, 1_000_000];
  const step = steps.find((candidate) => (max - min) / candidate <= 8) ?? 1_000_000;
  const low = Math.floor(min / step) * step;
  return { min: low, max: Math.max(low + step, Math.ceil(max / step) * step), step };
}

/**
 * The chart's two drawings: wide for screens from 40rem, narrow for phones (its 12-unit labels stay
 * about 11 px there).
 */
export const CHART_SIZES = {
  wide: { width: 760, height: 320, yearTicks: 10 },
  narrow: { width: 360, height: 260, yearTicks: 5 },
} as const;

export function chartGeometry(
  series: ChartSeries[],
  width = 760,
  height = 320,
  unit: ChartUnit = 'percent',
  yearTicks = 10,
): ChartGeometry {
  const plot = { left: unit === 'dollars' ? 64 : 48, right: width - 16, top: 12, bottom: height - 32 };
  const all = series.flatMap((entry) => entry.points);
  if (all.length === 0) return { width, height, plot, lines: [], yTicks: [], xTicks: [] };
  const minT = Math.min(...all.map((point) => time(point.date)));
  const maxT = Math.max(...all.map((point) => time(point.date)));
  const dollars =
    unit === 'dollars'
      ? dollarScale(Math.min(...all.map((point) => point.value)), Math.max(...all.map((point) => point.value)))
      : undefined;
  const minV = dollars ? dollars.min : Math.floor(Math.min(...all.map((point) => point.value)) * 2) / 2;
  const maxV = dollars ? dollars.max : Math.ceil(Math.max(...all.map((point) => point.value)) * 2) / 2;
  const x = (date: string): number =>
    plot.left + ((time(date) - minT) / Math.max(1, maxT - minT)) * (plot.right - plot.left);
  const y = (value: number): number =>
    plot.bottom - ((value - minV) / Math.max(dollars ? 1 : 0.5, maxV - minV)) * (plot.bottom - plot.top);
  const round = (value: number): number => Math.round(value * 10) / 10;

  const lines = series.map((entry) => {
    const last = entry.points[entry.points.length - 1];
    return {
      label: entry.label,
      points: entry.points.map((point) => `${round(x(point.date))},${round(y(point.value))}`).join(' '),
      last: last ? { x: round(x(last.date)), y: round(y(last.value)), value: last.value, date: last.date } : null,
    };
  });

  const span = maxV - minV;
  const step = dollars ? dollars.step : span > 6 ? 2 : span > 3 ? 1 : 0.5;
  const tickLabel = (value: number): string => {
    if (!dollars) return `${value.toFixed(step < 1 ? 1 : 0)}%`;
    if (value < 1_000_000) return `$${Math.round(value / 1000)}k`;
    return `$${(value / 1_000_000).toFixed(value % 1_000_000 === 0 ? 0 : 2)}M`;
  };
  const yTicks: ChartGeometry['yTicks'] = [];
  for (let value = minV; value <= maxV + 1e-9; value += step)
    yTicks.push({ y: round(y(value)), label: tickLabel(value) });

  const firstYear = new Date(minT).getUTCFullYear();
  const lastYear = new Date(maxT).getUTCFullYear();
  const yearStep = Math.max(1, Math.ceil((lastYear - firstYear + 1) / yearTicks));
  const xTicks: ChartGeometry['xTicks'] = [];
  for (let year = firstYear + 1; year <= lastYear; year += yearStep) {
    const date = `${year}-01-01`;
    if (time(date) >= minT && time(date) <= maxT) xTicks.push({ x: round(x(date)), label: String(year) });
  }
  return { width, height, plot, lines, yTicks, xTicks };
}
