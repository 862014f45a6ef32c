// Every national benchmark a rate can be read from, with the publisher's release schedule: the FRED
// series (series.ts) and the FFIEC's Average Prime Offer Rates for the terms no survey covers (10 and
// 20 years, sync/apor.ts). Freshness is judged by each one's schedule (api/freshness).
import { APOR_WEEKLY, BUSINESS_DAILY, PMMS_WEEKLY, type ReleaseSchedule } from '../freshness/schedules.ts';
import { SERIES, type SeriesId } from './series.ts';

/** The APOR terms read as benchmarks, by the id the snapshot keeps them under. */
export const APOR_TERMS = { APOR10YF: 10, APOR20YF: 20 } as const;
export type AporSeriesId = keyof typeof APOR_TERMS;
export type BenchmarkId = SeriesId | AporSeriesId;

/** The FFIEC's fixed-rate APOR table (moved from the CFPB's public bucket in January 2026). */
export const APOR_TABLE_URL = 'https://files.ffiec.cfpb.gov/apor/YieldTableFixed.txt';
/** The rate spread calculator's page, which names and links the table. */
export const APOR_PAGE_URL = 'https://ffiec.cfpb.gov/tools/rate-spread';

export interface BenchmarkInfo {
  id: BenchmarkId;
  /** The series in words, as `source` lines and freshness entries name it. */
  sourceName: string;
  publisher: string;
  pageUrl: string;
  /** `via FRED` for FRED's copies; empty for a file read from its publisher. */
  via: string;
  frequency: 'weekly' | 'daily';
  schedule: ReleaseSchedule;
}

const aporInfo = (id: AporSeriesId): BenchmarkInfo => ({
  id,
  sourceName: `FFIEC Average Prime Offer Rate (${APOR_TERMS[id]}-year fixed)`,
  publisher: 'FFIEC',
  pageUrl: APOR_PAGE_URL,
  via: '',
  frequency: 'weekly',
  schedule: APOR_WEEKLY,
});

export function benchmarkInfo(id: BenchmarkId): BenchmarkInfo {
  if (id in APOR_TERMS) return aporInfo(id as AporSeriesId);
  const series = SERIES[id as SeriesId];
  return {
    id,
    sourceName: series.sourceName,
    publisher: series.publisher,
    pageUrl: series.pageUrl,
    via: 'via FRED',
    frequency: series.frequency,
    schedule: series.frequency === 'weekly' ? PMMS_WEEKLY : BUSINESS_DAILY,
  };
}
