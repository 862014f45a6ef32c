// The featured statistic of the day: a hash of the UTC date and the category picks one statistic of
// the pool (sorted by id), so every instance and every request shows the same one all day.
import type { Statistic } from './types.ts';

/** FNV-1a, 32-bit: small, stable across platforms and versions. */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

export function featured<T extends Pick<Statistic, 'id'>>(pool: readonly T[], day: string, category: string | undefined): T | undefined {
  if (pool.length === 0) return undefined;
  const sorted = [...pool].sort((a, b) => a.id.localeCompare(b.id));
  return sorted[fnv1a(`${day}|${category ?? 'all'}`) % sorted.length];
}
