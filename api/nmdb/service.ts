// The NMDB service: a state's average rate on its outstanding mortgages by quarter, with the share
// of loans in each rate bucket, from FHFA's National Mortgage Database. The rows are held in memory
// between syncs (the series service reads the same copy through `groups()`).
import type { Queryable } from '../platform/db/database.ts';
import type { DatasetRecord, DatasetStatus } from '../platform/datasets.ts';
import type { Logger } from '../platform/logger.ts';
import { NotFoundError } from '../platform/errors.ts';
import { parseOrThrow } from '../platform/validation.ts';
import { findState } from '../geo/states.ts';
import { datasetSnapshot } from '../platform/dataset-snapshot.ts';
import { NmdbStateRatesQuerySchema, type NmdbQuarter, type NmdbStateRatesAnswer } from './contract.ts';
import { groupKey, readNmdbGroups, type NmdbGroup } from './store.ts';
import { NMDB_DATASET, NMDB_MARKETS, NMDB_PAGE, NMDB_SOURCE_NAME, NMDB_STATES_URL } from './series.ts';

export const NMDB_DEFINITION =
  'Rates borrowers are paying: the contract interest rate at origination of the closed-end first-lien mortgages outstanding at the ' +
  "quarter's end, from FHFA's National Mortgage Database (a nationally representative 1-in-20 sample of mortgages). These are not " +
  'rates offered on new loans today.';

export interface NmdbData {
  groups: Map<string, NmdbGroup>;
  record: DatasetRecord;
}

export interface NmdbService {
  /** A state's quarters for one market segment (validated like the contract's query). */
  stateRates(query: unknown): Promise<NmdbStateRatesAnswer>;
  /** Every state × market group with the dataset record it was read under. */
  data(): Promise<NmdbData>;
  invalidate(): void;
}

function quarter(group: NmdbGroup, at: number): NmdbQuarter {
  const bucket = (key: 'loan' | 'dollar') => ({
    below_3: group.values.PCT_INTRATE_LT_3[key][at] ?? null,
    from_3_to_4: group.values.PCT_INTRATE_3_4[key][at] ?? null,
    from_4_to_5: group.values.PCT_INTRATE_4_5[key][at] ?? null,
    from_5_to_6: group.values.PCT_INTRATE_5_6[key][at] ?? null,
    at_least_6: group.values.PCT_INTRATE_GE_6[key][at] ?? null,
  });
  return {
    period: group.periods[at] as string,
    quarter_end: group.quarterEnds[at] as string,
    average_rate_percent: group.values.AVE_INTRATE.loan[at] ?? null,
    average_rate_dollar_weighted_percent: group.values.AVE_INTRATE.dollar[at] ?? null,
    percent_of_loans: bucket('loan'),
    percent_of_balance: bucket('dollar'),
    suppressed: group.suppressed[at] ?? false,
  };
}

export function createNmdbService({ db, datasets, logger }: { db: Queryable; datasets: DatasetStatus; logger: Logger }): NmdbService {
  const snapshot = datasetSnapshot<NmdbData>({
    datasets,
    names: [NMDB_DATASET],
    label: 'nmdb',
    logger,
    read: async ([record]) => ({ groups: await readNmdbGroups(db), record: record as DatasetRecord }),
  });
  return {
    async stateRates(input) {
      const query = parseOrThrow(NmdbStateRatesQuerySchema, input, 'query');
      const { groups, record } = await snapshot.get();
      const group = groups.get(groupKey(query.state, query.market));
      if (!group || group.periods.length === 0)
        throw new NotFoundError(`FHFA's file holds no ${NMDB_MARKETS[query.market]} rates for ${query.state}.`);
      const quarters = group.periods.map((_, at) => quarter(group, at));
      const asOf = record.asOf ?? (quarters.at(-1)?.quarter_end as string);
      return {
        state: query.state,
        state_name: findState(query.state)?.name ?? query.state,
        market: query.market,
        market_label: NMDB_MARKETS[query.market],
        quarters,
        latest: quarters.at(-1) as NmdbQuarter,
        definition: NMDB_DEFINITION,
        as_of: asOf,
        source_url: NMDB_PAGE,
        sources: [{ url: NMDB_STATES_URL, as_of: asOf, name: NMDB_SOURCE_NAME }],
      };
    },
    data: () => snapshot.get(),
    invalidate: () => snapshot.invalidate(),
  };
}
