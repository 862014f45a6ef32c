// FHFA's NMDB state rates as series: for every state and market segment, the average contract rate
// of outstanding mortgages and the share of them in each rate bucket, quarterly, weighted by loans
// or (`_dollar`) by balance.
import type { Queryable } from '../../platform/db/database.ts';
import { STATE_CODES, findState } from '../../geo/states.ts';
import { NMDB_DEFINITION } from '../../nmdb/service.ts';
import { readNmdbGroups } from '../../nmdb/store.ts';
import {
  NMDB_DATASET,
  NMDB_MARKETS,
  NMDB_PUBLISHER,
  NMDB_RATE_SERIES,
  NMDB_SERIES_TITLES,
  NMDB_SOURCE_NAME,
  NMDB_STATES_URL,
  type NmdbMarket,
  type NmdbRateSeries,
} from '../../nmdb/series.ts';
import type { HeldSeries, SeriesFamily } from '../types.ts';
import { giveWay } from '../../platform/give-way.ts';

const MEASURES = NMDB_RATE_SERIES.flatMap((series) => [
  { measure: series.toLowerCase(), series, weight: 'loan' as const },
  { measure: `${series.toLowerCase()}_dollar`, series, weight: 'dollar' as const },
]);
const MEASURE_BY_NAME = new Map(MEASURES.map((entry) => [entry.measure, entry]));
const STATES = new Set<string>(STATE_CODES);

/** `nmdb/CA/ave_intrate` for all mortgages, `nmdb/CA/enterprise/ave_intrate` for a segment. */
export const nmdbSeriesId = (state: string, market: NmdbMarket, measure: string) =>
  market === 'all' ? `nmdb/${state}/${measure}` : `nmdb/${state}/${market}/${measure}`;

function title(state: string, market: NmdbMarket, series: NmdbRateSeries, weight: 'loan' | 'dollar'): string {
  const weighting =
    series === 'AVE_INTRATE'
      ? weight === 'loan'
        ? ' (each loan counted once)'
        : ' (weighted by balance)'
      : weight === 'loan'
        ? ' (percent of loans)'
        : ' (percent of balance)';
  const segment = market === 'all' ? '' : `, ${NMDB_MARKETS[market]}`;
  return `FHFA NMDB, ${findState(state)?.name ?? state}${segment}: ${NMDB_SERIES_TITLES[series]}${weighting}`;
}

export function nmdbFamily(db: Queryable): SeriesFamily {
  return {
    id: 'nmdb',
    title: 'FHFA National Mortgage Database: rates on outstanding mortgages by state (quarterly)',
    publisher: NMDB_PUBLISHER,
    frequency: 'quarterly',
    idPattern: 'nmdb/<state>/[<market>/]<measure>',
    example: 'nmdb/CA/ave_intrate',
    datasets: [NMDB_DATASET],
    claims: (lower) => lower.startsWith('nmdb/'),
    canonical(lower) {
      const parts = lower.split('/');
      if (parts.length !== 3 && parts.length !== 4) return undefined;
      const state = (parts[1] ?? '').toUpperCase();
      const market = (parts.length === 4 ? parts[2] : 'all') as NmdbMarket;
      const measure = parts.at(-1) as string;
      if (!STATES.has(state) || !(market in NMDB_MARKETS) || !MEASURE_BY_NAME.has(measure)) return undefined;
      return nmdbSeriesId(state, market, measure);
    },
    async load([loaded]) {
      const groups = await readNmdbGroups(db);
      const held: HeldSeries[] = [];
      for (const group of groups.values()) {
        await giveWay();
        const asOf = loaded?.asOf ?? group.quarterEnds.at(-1) ?? null;
        for (const { measure, series, weight } of MEASURES) {
          held.push({
            id: nmdbSeriesId(group.state, group.market, measure),
            title: title(group.state, group.market, series, weight),
            family: 'nmdb',
            publisher: NMDB_PUBLISHER,
            frequency: 'quarterly',
            units: series === 'AVE_INTRATE' ? 'percent' : weight === 'loan' ? 'percent of loans' : 'percent of balance',
            dates: group.quarterEnds,
            periods: group.periods,
            values: group.values[series][weight],
            sourceUrl: NMDB_STATES_URL,
            sourceName: NMDB_SOURCE_NAME,
            asOf,
            state: group.state,
            place: findState(group.state)?.name ?? group.state,
            notes: [NMDB_DEFINITION],
          });
        }
      }
      return held;
    },
  };
}
