// One series' latest reading beside the one before it: what a market update reports and what its
// text (./market-update-text.ts) describes.
export interface SeriesMove {
  /** Percent. */
  value: number;
  /** YYYY-MM-DD of the observation. */
  date: string;
  previous: number | null;
  previousDate: string | null;
  /** Percentage points, rounded to 2 decimals; null without a previous value. */
  change: number | null;
}
