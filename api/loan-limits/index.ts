// The loan-limits capability's datasets, in dependency order, for api/sync/registry.ts.
import type { DatasetDefinition } from '../sync/types.ts';
import { countiesDataset } from './counties.ts';
import { conformingDataset, fhaDataset } from './datasets.ts';

export const loanLimitDatasets: DatasetDefinition[] = [countiesDataset, conformingDataset, fhaDataset];
