// Dataset `state_rate_estimates`: the state estimate computed from the HMDA warehouse's latest year
// that holds (nearly) every state. Its version is the warehouse's: the load's checksum is that of the
// warehouse manifest, so a sync after the warehouse changed publishes a new version, and an identical
// one changes nothing. Without whole state-years of loans the dataset is not available (skipped, with
// the reason); answers then stay national and say the state adjustment is missing.
import { createHash } from 'node:crypto';
import { STATE_CODES } from '../../geo/states.ts';
import { openInstance } from '../../hmda/duck.ts';
import { manifestVersion } from '../../hmda/preset-cache.ts';
import { REAL_SOURCE } from '../../hmda/service.ts';
import { viewStatements } from '../../hmda/views.ts';
import { readManifest, type Manifest } from '../../hmda/warehouse.ts';
import { DatasetSkippedError } from '../../sync/errors.ts';
import type { DatasetDefinition } from '../../sync/types.ts';
import { computeStateSpreads } from './compute.ts';
import { MINIMUM_SAMPLE, MINIMUM_STATES, STATE_ESTIMATE_DATASET } from './method.ts';
import { readEstimates, replaceEstimates } from './store.ts';

/** The checksum a load of the estimate records: the warehouse manifest's version. */
export const warehouseChecksum = (manifest: Manifest) => createHash('sha256').update(manifestVersion(manifest)).digest('hex');

/** The latest year whose published states cover at least MINIMUM_STATES of the 50 states and DC. */
export function estimateYear(manifest: Manifest): number | undefined {
  const states = new Map<number, Set<string>>();
  for (const partition of Object.values(manifest.partitions)) {
    if (!(STATE_CODES as readonly string[]).includes(partition.state)) continue;
    const held = states.get(partition.year) ?? new Set<string>();
    held.add(partition.state);
    states.set(partition.year, held);
  }
  return [...states.entries()]
    .filter(([, held]) => held.size >= MINIMUM_STATES)
    .map(([year]) => year)
    .sort((a, b) => b - a)[0];
}

export const stateEstimateDataset: DatasetDefinition = {
  name: STATE_ESTIMATE_DATASET,
  description: `State rate estimates: each state's median HMDA rate spread minus the national median, per product, purpose and LTV band (at least ${MINIMUM_SAMPLE} loans)`,
  archive: async (tx) => (await readEstimates(tx)) ?? null,
  async load(tx, context) {
    const root = context.config.hmdaDir;
    const manifest = readManifest(root);
    const unavailable = 'so rates stay national and say the state adjustment is missing';
    if (!manifest || Object.keys(manifest.partitions).length === 0) {
      throw new DatasetSkippedError(`No HMDA loan records are loaded in the warehouse (${root}), ${unavailable}.`);
    }
    if (manifest.partial) {
      throw new DatasetSkippedError(`The HMDA warehouse (${root}) holds extracts of state-years, not whole ones, ${unavailable}.`);
    }
    const year = estimateYear(manifest);
    if (year === undefined) {
      throw new DatasetSkippedError(
        `No HMDA year in the warehouse (${root}) holds at least ${MINIMUM_STATES} of the 50 states and DC yet, ${unavailable}.`,
      );
    }
    const instance = await openInstance({ threads: context.config.HMDA_THREADS, memoryLimit: context.config.HMDA_MEMORY_LIMIT });
    const connection = await instance.connect();
    try {
      for (const statement of viewStatements(root)) await connection.run(statement);
      const rows = await computeStateSpreads(connection, year);
      context.progress(1, 1);
      const written = await replaceEstimates(tx, { hmdaYear: year, synthetic: manifest.synthetic, rows });
      const adjusted = rows.filter((row) => row.adjustment !== null);
      context.logger.info({ year, cells: rows.length, adjusted: adjusted.length }, 'state rate estimates computed');
      return {
        asOf: `${year}-12-31`,
        sourceUrl: REAL_SOURCE.url,
        checksum: warehouseChecksum(manifest),
        rows: written,
        changed: written,
        details: {
          hmda_year: year,
          synthetic: manifest.synthetic,
          cells: rows.length,
          adjusted: adjusted.length,
          states_adjusted: new Set(adjusted.map((row) => row.state)).size,
          minimum_sample: MINIMUM_SAMPLE,
        },
      };
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  },
};
