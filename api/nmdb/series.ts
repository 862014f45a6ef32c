// What the NMDB state file is and which of its series this service keeps: FHFA's "Outstanding
// Residential Mortgage Statistics, States, Quarterly" (National Mortgage Database, a 1-in-20 sample of
// closed-end first liens outstanding at each quarter's end), its rate series only.
import type { SourceEntry } from '../sync/types.ts';

export const NMDB_DATASET = 'nmdb';

/** FHFA's page for the NMDB aggregate statistics, cited in answers. */
export const NMDB_PAGE = 'https://www.fhfa.gov/data/national-mortgage-database-aggregate-statistics';
/** The file FHFA publishes (zip of one CSV). */
export const NMDB_STATES_URL = 'https://www.fhfa.gov/document/d/nmdb/nmdb-outstanding-mortgage-statistics-states-quarterly.zip';
export const NMDB_PUBLISHER = 'Federal Housing Finance Agency (FHFA), National Mortgage Database';
export const NMDB_SOURCE_NAME = 'FHFA National Mortgage Database, Outstanding Residential Mortgage Statistics, States, Quarterly';

export const nmdbStatesSource: SourceEntry = {
  id: 'fhfa-nmdb-outstanding-states-quarterly',
  publisherUrl: NMDB_STATES_URL,
  format: 'zip (one CSV)',
  mirrorPath: 'rates/state_nmdb/nmdb-outstanding-mortgage-statistics-states-quarterly.zip',
};

/** FHFA's series ids kept: the average contract rate and the share of loans in each rate bucket. */
export const NMDB_RATE_SERIES = [
  'AVE_INTRATE',
  'PCT_INTRATE_LT_3',
  'PCT_INTRATE_3_4',
  'PCT_INTRATE_4_5',
  'PCT_INTRATE_5_6',
  'PCT_INTRATE_GE_6',
] as const;
export type NmdbRateSeries = (typeof NMDB_RATE_SERIES)[number];
export const NMDB_BUCKETS = NMDB_RATE_SERIES.filter((id) => id !== 'AVE_INTRATE');

/** FHFA's market segments and the short keys this service names them by. */
export const NMDB_MARKETS = {
  all: 'All Mortgages',
  enterprise: 'Enterprise Acquisitions',
  government: 'Government / Non-Conventional',
  other_conventional: 'Other Conventional Market',
} as const;
export type NmdbMarket = keyof typeof NMDB_MARKETS;
export const NMDB_MARKET_KEYS = Object.keys(NMDB_MARKETS) as NmdbMarket[];

export const marketOfLabel = (label: string): NmdbMarket | undefined => NMDB_MARKET_KEYS.find((key) => NMDB_MARKETS[key] === label);

/** What each kept series measures, in words (VALUE1 is weighted by loans, VALUE2 by balance). */
export const NMDB_SERIES_TITLES: Record<NmdbRateSeries, string> = {
  AVE_INTRATE: 'Average contract interest rate of outstanding mortgages',
  PCT_INTRATE_LT_3: 'Outstanding mortgages with a rate below 3%',
  PCT_INTRATE_3_4: 'Outstanding mortgages with a rate of 3% to under 4%',
  PCT_INTRATE_4_5: 'Outstanding mortgages with a rate of 4% to under 5%',
  PCT_INTRATE_5_6: 'Outstanding mortgages with a rate of 5% to under 6%',
  PCT_INTRATE_GE_6: 'Outstanding mortgages with a rate of 6% or more',
};

/** "2025Q3" → "2025-09-30": a stock statistic describes the loans outstanding at the quarter's end. */
export function quarterEnd(period: string): string {
  const match = /^(\d{4})Q([1-4])$/.exec(period);
  if (!match) throw new Error(`not a quarter: ${period}`);
  const quarter = Number(match[2]);
  const month = quarter * 3;
  const day = month === 3 || month === 12 ? 31 : 30;
  return `${match[1]}-${String(month).padStart(2, '0')}-${day}`;
}

/** The quarter after `period` ("2025Q4" → "2026Q1"). */
export function nextQuarter(period: string): string {
  const year = Number(period.slice(0, 4));
  const quarter = Number(period.slice(5));
  return quarter === 4 ? `${year + 1}Q1` : `${year}Q${quarter + 1}`;
}
