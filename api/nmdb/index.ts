// The NMDB capability's dataset, for api/sync/registry.ts.
import type { DatasetDefinition } from '../sync/types.ts';
import { nmdbDataset } from './sync.ts';

export const nmdbDatasets: DatasetDefinition[] = [nmdbDataset];
