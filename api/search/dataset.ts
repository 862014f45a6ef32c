// The `search_index` dataset: `npm run sync` (and the daily refresh) rebuilds the full-text index
// after the rate history it draws market updates from, in the same all-or-nothing transaction.
import { createHash } from 'node:crypto';
import { OPTIMAL_BLUE_DATASET, PMMS_DATASET } from '../rates/sync/national.ts';
import type { DatasetDefinition } from '../sync/types.ts';
import { rebuildSearchIndex } from './build.ts';
import { isoDay } from '../platform/dates.ts';

export const SEARCH_INDEX_DATASET = 'search_index';

export const searchIndexDataset: DatasetDefinition = {
  name: SEARCH_INDEX_DATASET,
  description: 'Full-text search index over articles, learn pages, glossary, tracked bills and market updates',
  dependsOn: [PMMS_DATASET, OPTIMAL_BLUE_DATASET],
  async load(tx, context) {
    const before = await fingerprint(tx);
    const result = await rebuildSearchIndex(tx);
    const after = await fingerprint(tx);
    context.progress(1, 1);
    return {
      asOf: isoDay(context.clock()),
      sourceUrl: `${context.config.baseUrl}/api/v1/search`,
      checksum: after.checksum,
      rows: result.total,
      changed: countChanged(before.rows, after.rows),
      details: { sources: result.sources },
    };
  },
};

/** Per-document hashes of the index, so a second identical rebuild reports 0 changed rows. */
async function fingerprint(tx: Parameters<DatasetDefinition['load']>[0]): Promise<{ rows: Map<string, string>; checksum: string }> {
  const { rows } = await tx.query<{ id: string; h: string }>(
    `SELECT id, md5(type || '|' || title || '|' || path || '|' || aliases || '|' || summary || '|' || headings || '|' || body || '|' || coalesce(published_on::text, '')) AS h
     FROM search_documents ORDER BY id`,
  );
  const hash = createHash('sha256');
  for (const row of rows) hash.update(`${row.id}:${row.h}\n`);
  return { rows: new Map(rows.map((row) => [row.id, row.h])), checksum: hash.digest('hex') };
}

function countChanged(before: Map<string, string>, after: Map<string, string>): number {
  let changed = 0;
  for (const [id, hash] of after) if (before.get(id) !== hash) changed += 1;
  for (const id of before.keys()) if (!after.has(id)) changed += 1;
  return changed;
}
