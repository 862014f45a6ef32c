// The HMDA aggregates as yearly series, for the series service: every count of the nation, of every
// state, DC and territory and of every county, per year, with the definitions every answer states.
// Built on this capability's one reads surface (./reads.ts); it queries no table itself.
import { DEFINITIONS } from './labels.ts';
import { DATA_BROWSER_URL, HMDA_AGGREGATES_DATASET, HMDA_MAPS_URL, decisionRates, placeName } from './reads.ts';

export {
  DEFINITIONS as HMDA_DEFINITIONS,
  DATA_BROWSER_URL,
  HMDA_AGGREGATES_DATASET,
  HMDA_MAPS_URL,
  decisionRates,
  placeName as hmdaPlaceName,
};

export const HMDA_AGGREGATES_SOURCE = 'FFIEC HMDA aggregates (HMDA Maps state files), CFPB/FFIEC';

export { readCountTable, type CountTable, type CountRule } from './count-table.ts';
