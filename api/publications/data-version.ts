// The version of some datasets' current loads: a string that changes whenever one of them is
// reloaded (or first loaded), read from the cached dataset list. Publications and rendered pages
// compare it to decide whether what they hold is still current.
import type { DatasetRecord } from '../platform/datasets.ts';

/** `names` undefined: every loaded dataset. A dataset not loaded yet counts as `name@-`. */
export function datasetsVersion(records: readonly DatasetRecord[], names?: readonly string[]): string {
  const byName = new Map(records.map((record) => [record.name, record]));
  const wanted = names ?? [...byName.keys()].sort();
  return wanted
    .map((name) => {
      const record = byName.get(name);
      return record ? `${name}@${record.loadedAt}|${record.checksum ?? ''}` : `${name}@-`;
    })
    .join(',');
}
