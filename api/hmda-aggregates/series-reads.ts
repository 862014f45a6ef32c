// The HMDA aggregates as yearly series, for the series service: the action-taken counts of the
// nation and of every state, DC and territory, per year, with the definitions every answer states.
// Built on this capability's one reads surface (./reads.ts); it queries no table itself.
import type { Queryable } from '../platform/db/database.ts';
import { DEFINITIONS } from './labels.ts';
import {
  DATA_BROWSER_URL,
  HMDA_AGGREGATES_DATASET,
  HMDA_MAPS_URL,
  aggregateYears,
  aggregatesByGeo,
  countySeriesDimensions,
  decisionRates,
  placeName,
} from './reads.ts';

export {
  DEFINITIONS as HMDA_DEFINITIONS,
  DATA_BROWSER_URL,
  HMDA_AGGREGATES_DATASET,
  HMDA_MAPS_URL,
  decisionRates,
  placeName as hmdaPlaceName,
};

export const HMDA_AGGREGATES_SOURCE = 'FFIEC HMDA aggregates (HMDA Maps state files), CFPB/FFIEC';

/** The dimensions the series carry: what was done with each record, its loan type and purpose. */
export type SeriesDimensions = Record<'actionTaken' | 'loanType' | 'loanPurpose', Record<string, number>>;

export interface GeoCounts {
  /** `US`, a state, DC or territory code, or a 5-digit county FIPS. */
  geo: string;
  years: number[];
  counts: SeriesDimensions[];
}

const pick = (dimensions: Record<string, Record<string, number>>): SeriesDimensions => ({
  actionTaken: dimensions.actionTaken ?? {},
  loanType: dimensions.loanType ?? {},
  loanPurpose: dimensions.loanPurpose ?? {},
});

/** Counts per geography and year: the nation and every state (level `state`) or every county (`county`). */
export async function readCountsByYear(db: Queryable, level: 'state' | 'county'): Promise<Map<string, GeoCounts>> {
  const result = new Map<string, GeoCounts>();
  const add = (geo: string, year: number, dimensions: Record<string, Record<string, number>>) => {
    let entry = result.get(geo);
    if (!entry) result.set(geo, (entry = { geo, years: [], counts: [] }));
    entry.years.push(year);
    entry.counts.push(pick(dimensions));
  };
  for (const year of await aggregateYears(db)) {
    if (level === 'county') {
      for (const [fips, dimensions] of await countySeriesDimensions(db, year)) add(fips, year, dimensions);
      continue;
    }
    for (const [, dimensions] of await aggregatesByGeo(db, year, 'nation')) add('US', year, dimensions);
    for (const [geo, dimensions] of await aggregatesByGeo(db, year, 'state')) if (geo !== 'NA') add(geo, year, dimensions);
  }
  return new Map([...result].sort(([a], [b]) => (a === 'US' ? -1 : b === 'US' ? 1 : a.localeCompare(b))));
}
