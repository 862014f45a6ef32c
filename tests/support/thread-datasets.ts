// Datasets for the tests of the background sync's thread (tests/integration/sync-thread.test.ts),
// loaded by that thread in place of the registry: one records the thread it loaded on, the others
// misbehave in one way each. Gates are files under the config's DATA_DIR, which both threads see.
import fs from 'node:fs';
import path from 'node:path';
import { isMainThread, threadId } from 'node:worker_threads';
import type { DatasetDefinition, DatasetLoadResult } from '../../api/sync/types.ts';

export const GATE_REACHED = 'gate-reached';
export const GATE_OPEN = 'gate-open';

const loaded = (details: Record<string, unknown>): DatasetLoadResult => ({
  asOf: '2026-01-02',
  sourceUrl: 'https://example.test/thread-datasets',
  checksum: 'thread-datasets',
  rows: 0,
  changed: 0,
  details,
});

export const datasetDefinitions: DatasetDefinition[] = [
  {
    name: 'waits_at_gate',
    description: 'Says it has started, then loads once the test opens the gate',
    syncByDefault: false,
    async load(_tx, context) {
      fs.writeFileSync(path.join(context.config.dataDir, GATE_REACHED), '');
      while (!fs.existsSync(path.join(context.config.dataDir, GATE_OPEN))) await new Promise((resolve) => setTimeout(resolve, 20));
      return loaded({});
    },
  },
  {
    name: 'where_it_ran',
    description: 'Records whether its load ran on the main thread',
    async load() {
      return loaded({ mainThread: isMainThread, threadId });
    },
  },
  {
    name: 'crashes_mid_load',
    description: 'Writes in its transaction, then brings its thread down',
    syncByDefault: false,
    async load(tx) {
      await tx.query(
        `INSERT INTO datasets (name, as_of, source_url, checksum, row_count) VALUES ('crashes_mid_load', '2026-01-02', 'x', 'x', 0)`,
      );
      setImmediate(() => {
        throw new Error('the sync thread crashed on purpose');
      });
      return new Promise<DatasetLoadResult>(() => undefined);
    },
  },
];
