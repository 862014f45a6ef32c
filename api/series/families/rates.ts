// The national rate series as series over time: Freddie Mac's weekly survey (PMMS) and Optimal
// Blue's daily indices with their FICO × LTV grid, read through the rates capability's reads.
import type { Queryable } from '../../platform/db/database.ts';
import {
  NATIONAL_SERIES,
  OPTIMAL_BLUE_DATASET,
  PMMS_DATASET,
  datasetOfSeries,
  readNationalObservations,
  type NationalSeriesId,
} from '../../rates/observations.ts';
import type { HeldSeries, SeriesFamily } from '../types.ts';

const GRID_LTV: Record<string, string> = { LE80: 'ltv-le-80', GT80: 'ltv-gt-80' };
const GRID_FICO: Record<string, string> = {
  GE740: 'fico-ge-740',
  B720A739: 'fico-720-739',
  B700A719: 'fico-700-719',
  B680A699: 'fico-680-699',
  LT680: 'fico-lt-680',
};

const NAMED: Record<string, string> = {
  MORTGAGE30US: 'pmms/30-year',
  MORTGAGE15US: 'pmms/15-year',
  MORTGAGE5US: 'pmms/5-1-arm',
  OBMMIC30YF: 'optimal-blue/conforming-30-year',
  OBMMIFHA30YF: 'optimal-blue/fha-30-year',
  OBMMIVA30YF: 'optimal-blue/va-30-year',
  OBMMIJUMBO30YF: 'optimal-blue/jumbo-30-year',
  OBMMIC15YF: 'optimal-blue/conforming-15-year',
  OBMMIUSDA30YF: 'optimal-blue/usda-30-year',
};

/** Our id of a FRED series: `MORTGAGE30US` → `pmms/30-year`, a grid cell → `optimal-blue/conforming-30-year/ltv-le-80/fico-720-739`. */
export function seriesIdOfFred(fredId: NationalSeriesId): string {
  const named = NAMED[fredId];
  if (named) return named;
  const [, ltv = '', fico = ''] = /^OBMMIC30YFLV(LE80|GT80)F(.+)$/.exec(fredId) ?? [];
  return `optimal-blue/conforming-30-year/${GRID_LTV[ltv] ?? ltv.toLowerCase()}/${GRID_FICO[fico] ?? fico.toLowerCase()}`;
}

const ALL_FRED_IDS = Object.keys(NATIONAL_SERIES) as NationalSeriesId[];
const FRED_OF = new Map<string, NationalSeriesId>(ALL_FRED_IDS.map((fredId) => [seriesIdOfFred(fredId), fredId]));
const BY_FRED_ALIAS = new Map<string, string>(ALL_FRED_IDS.map((fredId) => [fredId.toLowerCase(), seriesIdOfFred(fredId)]));

function family(id: 'pmms' | 'optimal-blue', db: Queryable): SeriesFamily {
  const dataset = id === 'pmms' ? PMMS_DATASET : OPTIMAL_BLUE_DATASET;
  const fredIds = ALL_FRED_IDS.filter((fredId) => datasetOfSeries(fredId) === dataset);
  const ours = new Set(fredIds.map(seriesIdOfFred));
  const prefix = `${id}/`;
  return {
    id,
    title:
      id === 'pmms'
        ? 'Freddie Mac Primary Mortgage Market Survey (weekly national averages)'
        : 'Optimal Blue Mortgage Market Indices (daily national lock rates)',
    publisher: id === 'pmms' ? 'Freddie Mac' : 'Optimal Blue',
    frequency: id === 'pmms' ? 'weekly' : 'daily',
    idPattern:
      id === 'pmms'
        ? 'pmms/<30-year|15-year|5-1-arm>, or the FRED id'
        : 'optimal-blue/<product>-<term>-year[/ltv-…/fico-…], or the FRED id',
    example: id === 'pmms' ? 'pmms/30-year' : 'optimal-blue/conforming-30-year',
    datasets: [dataset],
    claims: (lower) => lower.startsWith(prefix) || (BY_FRED_ALIAS.get(lower)?.startsWith(prefix) ?? false),
    canonical(lower) {
      const named = BY_FRED_ALIAS.get(lower) ?? lower;
      return ours.has(named) ? named : undefined;
    },
    async load() {
      const observations = await readNationalObservations(db, fredIds);
      const held: HeldSeries[] = [];
      for (const fredId of fredIds) {
        const data = observations.get(fredId);
        if (!data || data.dates.length === 0) continue;
        const info = NATIONAL_SERIES[fredId];
        const seriesId = seriesIdOfFred(fredId);
        held.push({
          id: seriesId,
          title: `${info.publisher === 'Freddie Mac' ? 'Freddie Mac PMMS' : 'Optimal Blue'}: ${info.title}`,
          family: id,
          publisher: info.publisher,
          frequency: info.frequency,
          units: 'percent',
          dates: data.dates,
          values: data.values,
          sourceUrl: info.pageUrl,
          sourceName: `${info.sourceName}, via FRED (Federal Reserve Bank of St. Louis)`,
          asOf: data.dates.at(-1) ?? null,
          aliases: [fredId],
          notes: [
            info.publisher === 'Freddie Mac'
              ? 'A national weekly average of the rates lenders offer on conventional, conforming loans to borrowers with strong credit and 20% down (the survey is published on Thursdays).'
              : "A national daily average of rates locked on Optimal Blue's pricing platform, on business days.",
            ...(info.discontinued ? ['The publisher stopped this series; it is kept as history.'] : []),
          ],
        });
      }
      return held;
    },
  };
}

export const pmmsFamily = (db: Queryable) => family('pmms', db);
export const optimalBlueFamily = (db: Queryable) => family('optimal-blue', db);

/** The FRED id of one of our rate series ids, for callers that need it (the rates chart). */
export const fredIdOf = (seriesId: string): NationalSeriesId | undefined => FRED_OF.get(seriesId);
