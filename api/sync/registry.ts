// Every dataset `npm run sync` knows, in load order. Capabilities add their definitions here.
import type { DatasetDefinition } from './types.ts';
import { loanLimitDatasets } from '../loan-limits/index.ts';
import { billsDataset } from '../bills/sync.ts';
import { rateDatasets } from '../rates/sync/datasets.ts';
import { calendarDataset } from '../calendar/sync.ts';
import { hmdaDataset } from '../hmda/sync.ts';
import { searchIndexDataset } from '../search/dataset.ts';
import { hmdaAggregateDatasets } from '../hmda-aggregates/index.ts';
import { nmdbDatasets } from '../nmdb/index.ts';

export const datasetDefinitions: DatasetDefinition[] = [
  ...loanLimitDatasets,
  billsDataset,
  ...rateDatasets,
  ...nmdbDatasets,
  calendarDataset,
  hmdaDataset,
  searchIndexDataset,
  ...hmdaAggregateDatasets,
];
