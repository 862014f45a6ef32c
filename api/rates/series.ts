// The national rate series the service loads from FRED: what each one measures, who publishes it,
// which borrowers it covers (the fallback policy depends on that), and where the mirror keeps it.
import type { SourceEntry } from '../sync/types.ts';

/** Optimal Blue's FICO × LTV grid of the 30-year conforming index (FRED release 473, since 2017). */
export const GRID_SERIES = [
  'OBMMIC30YFLVLE80FGE740',
  'OBMMIC30YFLVLE80FB720A739',
  'OBMMIC30YFLVLE80FB700A719',
  'OBMMIC30YFLVLE80FB680A699',
  'OBMMIC30YFLVLE80FLT680',
  'OBMMIC30YFLVGT80FGE740',
  'OBMMIC30YFLVGT80FB720A739',
  'OBMMIC30YFLVGT80FB700A719',
  'OBMMIC30YFLVGT80FB680A699',
  'OBMMIC30YFLVGT80FLT680',
] as const;
export type GridSeriesId = (typeof GRID_SERIES)[number];

export type SeriesId =
  | 'MORTGAGE30US'
  | 'MORTGAGE15US'
  | 'MORTGAGE5US'
  | 'OBMMIC30YF'
  | 'OBMMIFHA30YF'
  | 'OBMMIVA30YF'
  | 'OBMMIJUMBO30YF'
  | 'OBMMIC15YF'
  | 'OBMMIUSDA30YF'
  | GridSeriesId;

export interface SeriesInfo {
  id: SeriesId;
  title: string;
  publisher: string;
  /** Short name used in `source` lines. */
  sourceName: string;
  frequency: 'weekly' | 'daily';
  /** The FRED page cited in responses and /healthz. */
  pageUrl: string;
  /**
   * Mirror files holding the series, newest/most complete first. Where the mirror splits a series,
   * all files are read and merged; overlapping values must agree.
   */
  mirrorPaths: string[];
  /** Minimum observations a complete load must hold (validation gate). */
  minRows: number;
  /** Smallest and largest gap in days between consecutive observations (spacing gate). */
  minGapDays: number;
  maxGapDays: number;
  /** Whether the series has stopped (no freshness expectations). */
  discontinued?: boolean;
  /**
   * True for series a sync loads when the source has them and records as missing otherwise (the
   * mirror holds no copy of Optimal Blue's grid, 15-year or USDA indices): never a failed dataset.
   */
  optional?: boolean;
}

export const FRED_CSV_BASE = 'https://fred.stlouisfed.org/graph/fredgraph.csv';
export const FRED_API_BASE = 'https://api.stlouisfed.org/fred';

const fredPage = (id: string) => `https://fred.stlouisfed.org/series/${id}`;

const pmms = (id: SeriesId, title: string, mirrorPaths: string[], minRows: number, discontinued = false): SeriesInfo => ({
  id,
  title,
  publisher: 'Freddie Mac',
  sourceName: `Freddie Mac Primary Mortgage Market Survey (${title})`,
  frequency: 'weekly',
  pageUrl: fredPage(id),
  mirrorPaths,
  minRows,
  // Thursdays, shifted a day or two around holidays: 5 to 9 days apart in 55 years of data.
  minGapDays: 4,
  maxGapDays: 10,
  discontinued,
});

const optimalBlue = (id: SeriesId, title: string, mirrorPaths: string[], optional = false): SeriesInfo => ({
  id,
  title,
  publisher: 'Optimal Blue',
  sourceName: `Optimal Blue Mortgage Market Indices (${title})`,
  frequency: 'daily',
  pageUrl: fredPage(id),
  mirrorPaths,
  minRows: 1_000,
  // Business days: at most a long weekend plus a holiday apart (5 days in the published history).
  minGapDays: 1,
  maxGapDays: 6,
  ...(optional ? { optional } : {}),
});

/** Where a mirror keeps a series saved straight from FRED's download (`fredgraph.csv?id=<ID>`). */
const fredDownload = (id: SeriesId) => [`rates/fred/${id}.csv`];

const GRID_LTV: Record<string, string> = { LE80: 'LTV ≤ 80', GT80: 'LTV > 80' };
const GRID_FICO: Record<string, string> = {
  GE740: 'FICO 740 or higher',
  B720A739: 'FICO 720–739',
  B700A719: 'FICO 700–719',
  B680A699: 'FICO 680–699',
  LT680: 'FICO below 680',
};

/** "30-year fixed conforming, LTV ≤ 80, FICO 720–739" from the FRED id's LTV and FICO parts. */
export function gridTitle(id: GridSeriesId): string {
  const [, ltv = '', fico = ''] = /^OBMMIC30YFLV(LE80|GT80)F(.+)$/.exec(id) ?? [];
  return `30-year fixed conforming, ${GRID_LTV[ltv] ?? ltv}, ${GRID_FICO[fico] ?? fico}`;
}

export const SERIES: Record<SeriesId, SeriesInfo> = {
  MORTGAGE30US: pmms(
    'MORTGAGE30US',
    '30-year fixed rate',
    [
      'rates/MORTGAGE30US_weekly_1971_2026.csv',
      'rates/pmms_2026/MORTGAGE30US_weekly_1971_to_2026-10-08_CRLF.csv',
      'rates/recent_2020_2025/MORTGAGE30US.csv',
    ],
    2_800,
  ),
  MORTGAGE15US: pmms(
    'MORTGAGE15US',
    '15-year fixed rate',
    ['rates/history_to_2024/MORTGAGE15US.csv', 'rates/recent_2020_2025/MORTGAGE15US.csv'],
    1_700,
  ),
  // Freddie Mac stopped the 5/1 ARM in November 2022; kept as history.
  MORTGAGE5US: pmms('MORTGAGE5US', '5/1 adjustable rate', ['rates/history_to_2022/MORTGAGE5US_noheader.csv'], 900, true),
  OBMMIC30YF: optimalBlue('OBMMIC30YF', '30-year fixed conforming', ['rates/recent_2020_2025/OBMMIC30YF.csv']),
  OBMMIFHA30YF: optimalBlue('OBMMIFHA30YF', '30-year fixed FHA', ['rates/recent_2020_2025/OBMMIFHA30YF.csv']),
  OBMMIVA30YF: optimalBlue('OBMMIVA30YF', '30-year fixed VA', ['rates/recent_2020_2025/OBMMIVA30YF.csv']),
  OBMMIJUMBO30YF: optimalBlue('OBMMIJUMBO30YF', '30-year fixed jumbo', [
    'rates/history_to_2024/OBMMIJUMBO30YF.csv',
    'rates/recent_2020_2025/OBMMIJUMBO30YF.csv',
  ]),
  OBMMIC15YF: optimalBlue('OBMMIC15YF', '15-year fixed conforming', fredDownload('OBMMIC15YF'), true),
  OBMMIUSDA30YF: optimalBlue('OBMMIUSDA30YF', '30-year fixed USDA', fredDownload('OBMMIUSDA30YF'), true),
  ...(Object.fromEntries(GRID_SERIES.map((id) => [id, optimalBlue(id, gridTitle(id), fredDownload(id), true)])) as Record<
    GridSeriesId,
    SeriesInfo
  >),
};

export const PMMS_SERIES: SeriesId[] = ['MORTGAGE30US', 'MORTGAGE15US', 'MORTGAGE5US'];
/** The `optimal_blue` dataset: the four primary indices (required), then the optional ones. */
export const OPTIMAL_BLUE_SERIES: SeriesId[] = [
  'OBMMIC30YF',
  'OBMMIFHA30YF',
  'OBMMIVA30YF',
  'OBMMIJUMBO30YF',
  'OBMMIC15YF',
  'OBMMIUSDA30YF',
  ...GRID_SERIES,
];

/** The keyless FRED CSV download for a series: what a networked sync fetches. */
export const fredCsvUrl = (id: string) => `${FRED_CSV_BASE}?id=${encodeURIComponent(id)}`;

/** One source entry per mirror file; all share the publisher's download URL. */
export function sourceEntries(series: SeriesInfo): SourceEntry[] {
  return series.mirrorPaths.map((mirrorPath, index) => ({
    id: `fred-${series.id.toLowerCase()}${index === 0 ? '' : `-${index + 1}`}`,
    publisherUrl: fredCsvUrl(series.id),
    format: 'csv',
    mirrorPath,
  }));
}
