// Preset answers kept until the warehouse changes. HMDA data is published once a year and the
// warehouse only changes when a sync publishes partitions, so an answer stays true for exactly as
// long as the manifest it was computed from: the cache is keyed by the manifest's version and
// emptied when that version changes. National questions ("approval rate in 2023") scan every loan
// of a year (17 million a year in the full register), so they are also computed ahead, once per
// publish (see warmNationalPresets in the service).
import { BoundedCache } from '../platform/bounded-cache.ts';
import type { Manifest } from './warehouse.ts';

/** Bytes of preset answers kept per warehouse version (estimated by their JSON); the least recently used go first. */
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/** Changes whenever a partition or lender file is published, replaced or removed. */
export function manifestVersion(manifest: Manifest): string {
  const parts = Object.entries(manifest.partitions).map(([key, p]) => `${key}:${p.sourceChecksum}:${p.loadedAt}`);
  const lenders = Object.entries(manifest.lenders).map(([key, l]) => `${key}:${l.sourceChecksum}:${l.loadedAt}`);
  return [...parts.sort(), '|', ...lenders.sort()].join(',');
}

export class PresetCache<T extends NonNullable<unknown>> {
  private version = '';
  private readonly answers = new BoundedCache<T>({ maxBytes: MAX_ANSWER_BYTES });

  /** Whether `version` differs from the one the kept answers belong to (and forgets them if so). */
  switchTo(version: string): boolean {
    if (version === this.version) return false;
    this.version = version;
    this.answers.clear();
    return true;
  }

  get(key: string): T | undefined {
    return this.answers.get(key);
  }

  /** Keeps an answer computed from `version`, unless the warehouse changed while it ran. */
  set(version: string, key: string, answer: T): void {
    if (version !== this.version) return;
    this.answers.set(key, answer);
  }

  get size(): number {
    return this.answers.size;
  }
}
