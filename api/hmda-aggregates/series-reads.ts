// The HMDA aggregates as yearly series, for the series service: the action-taken counts of the
// nation and of every state, DC and territory, per year, with the definitions every answer states.
// Built on this capability's one reads surface (./reads.ts); it queries no table itself.
import type { Queryable } from '../platform/db/database.ts';
import { DEFINITIONS } from './labels.ts';
import { HMDA_AGGREGATES_DATASET, HMDA_MAPS_URL, aggregateYears, aggregatesByGeo, decisionRates, placeName } from './reads.ts';

export { DEFINITIONS as HMDA_DEFINITIONS, HMDA_AGGREGATES_DATASET, HMDA_MAPS_URL, decisionRates, placeName as hmdaPlaceName };

export const HMDA_AGGREGATES_SOURCE = 'FFIEC HMDA aggregates (HMDA Maps state files), CFPB/FFIEC';

export interface ActionCounts {
  /** `US` for the nation, else a state, DC or territory code. */
  geo: string;
  /** Activity years, ascending. */
  years: number[];
  /** Records per action-taken code (1–8), one object per year. */
  actions: Record<string, number>[];
}

/** Action-taken counts per geography and year (records whose property state was not reported, `NA`, are left out). */
export async function readActionTakenByYear(db: Queryable): Promise<Map<string, ActionCounts>> {
  const result = new Map<string, ActionCounts>();
  const add = (geo: string, year: number, actions: Record<string, number> | undefined) => {
    if (!actions) return;
    let entry = result.get(geo);
    if (!entry) result.set(geo, (entry = { geo, years: [], actions: [] }));
    entry.years.push(year);
    entry.actions.push(actions);
  };
  for (const year of await aggregateYears(db)) {
    for (const [, dimensions] of await aggregatesByGeo(db, year, 'nation')) add('US', year, dimensions.actionTaken);
    for (const [geo, dimensions] of await aggregatesByGeo(db, year, 'state')) if (geo !== 'NA') add(geo, year, dimensions.actionTaken);
  }
  return new Map([...result].sort(([a], [b]) => (a === 'US' ? -1 : b === 'US' ? 1 : a.localeCompare(b))));
}
