// The rates datasets `npm run sync` knows: `pmms`, `optimal_blue`, `apor` (the FFIEC's APOR table) and
// `state_rate_estimates` (computed from the HMDA warehouse) by default; `rate_sheet` (--file) only when named.
import type { DatasetDefinition } from '../../sync/types.ts';
import { stateEstimateDataset } from '../estimate/dataset.ts';
import { aporDataset } from './apor.ts';
import { createNationalDatasets } from './national.ts';
import { rateSheetDataset } from './rate-sheet.ts';

export const rateDatasets: DatasetDefinition[] = [...createNationalDatasets(), aporDataset, stateEstimateDataset, rateSheetDataset];
