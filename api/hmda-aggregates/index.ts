// The HMDA aggregates capability's datasets and the statistics that depend on them, in load order,
// for api/sync/registry.ts (the statistics dataset comes last: it needs the others).
import type { DatasetDefinition } from '../sync/types.ts';
import { hmdaAggregatesDataset } from './dataset.ts';
import { hmdaLendersDataset } from './lenders.ts';
import { populationDataset } from './population.ts';
import { hudIncomeDataset } from '../statistics/income.ts';
import { statisticsDataset } from '../statistics/dataset.ts';

export const hmdaAggregateDatasets: DatasetDefinition[] = [
  hmdaAggregatesDataset,
  hmdaLendersDataset,
  populationDataset,
  hudIncomeDataset,
  statisticsDataset,
];
