// Read-only access to the HMDA aggregates as yearly series, for other capabilities (the series
// service): the action-taken counts of the nation and of every state, DC and territory, per year.
// Reads only; the aggregates service answers the full breakdowns.
import type { Queryable } from '../platform/db/database.ts';
import { DEFINITIONS, placeName } from './labels.ts';
import { HMDA_MAPS_URL } from './sources.ts';
import { decisionRates } from './service.ts';

export { DEFINITIONS as HMDA_DEFINITIONS, decisionRates, placeName as hmdaPlaceName, HMDA_MAPS_URL };

export const HMDA_AGGREGATES_DATASET = 'hmda_aggregates';
export const HMDA_AGGREGATES_SOURCE = 'FFIEC HMDA aggregates (HMDA Maps state files), CFPB/FFIEC';

export interface ActionCounts {
  /** `US` for the nation, else a state, DC or territory code. */
  geo: string;
  /** Activity years, ascending. */
  years: number[];
  /** Records per action-taken code (1–8), one object per year. */
  actions: Record<string, number>[];
}

/** Action-taken counts per geography and year (records whose property state was not reported are left out). */
export async function readActionTakenByYear(db: Queryable): Promise<Map<string, ActionCounts>> {
  const { rows } = await db.query<{ year: number; geo_level: string; geo_code: string; code: string; count: string | number }>(
    `SELECT year, geo_level, geo_code, code, count FROM hmda_aggregates
     WHERE dimension = 'actionTaken' AND (geo_level = 'nation' OR geo_code <> 'NA')
     ORDER BY geo_level, geo_code, year, code`,
  );
  const result = new Map<string, ActionCounts>();
  for (const row of rows) {
    const geo = row.geo_level === 'nation' ? 'US' : row.geo_code;
    let entry = result.get(geo);
    if (!entry) {
      entry = { geo, years: [], actions: [] };
      result.set(geo, entry);
    }
    const year = Number(row.year);
    if (entry.years.at(-1) !== year) {
      entry.years.push(year);
      entry.actions.push({});
    }
    (entry.actions.at(-1) as Record<string, number>)[row.code] = Number(row.count);
  }
  return result;
}
